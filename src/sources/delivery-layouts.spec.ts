import { findDeliveries, metricOfFile } from './delivery-layouts';

describe('metrics-files layout', () => {
  it("names a file's metric by its path's first segment up to the first dot", () => {
    expect(['orders.csv', 'orders.2026-11.csv.gz', 'orders/2026-11.csv', 'orders/a/b.csv', 'Bad-Name.csv'].map(metricOfFile)).toEqual([
      'orders',
      'orders',
      'orders',
      'orders',
      'Bad-Name',
    ]);
  });

  it('makes each metric a delivery of its CSV files, complete once the newest settled, leaving other files out', async () => {
    const at = (key: string, modifiedMs: number) => ({ key, size: 10, modifiedMs });
    const listing = [at('orders.csv', 1_000), at('orders/2026-11.csv.gz', 5_000), at('visits.csv', 1_000), at('notes.txt', 1_000)];
    const deliveries = await findDeliveries('metrics-files', listing, new Map(), { nowMs: 10_000, settleMs: 4_000 });
    expect(deliveries.map((d) => [d.scope, d.parts.map((p) => p.key), d.missing.length])).toEqual([
      ['orders', ['orders.csv', 'orders/2026-11.csv.gz'], 0],
      ['visits', ['visits.csv'], 0],
    ]);
    const settling = await findDeliveries('metrics-files', listing, new Map(), { nowMs: 8_000, settleMs: 4_000 });
    expect(settling.map((d) => [d.scope, d.missing.length])).toEqual([
      ['orders', 1], // its newest file changed 3 s ago
      ['visits', 0],
    ]);
  });
});
