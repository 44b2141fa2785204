import { demoMetricValues } from './demo-business-metrics';

describe('demo business metrics', () => {
  // A week of a steady 1,000 a day (2026-11-23 is a Monday), then a day at twice the cost.
  const days = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29', '2026-11-30'];
  const cost = new Map(days.map((day, i) => [day, i === 7 ? 2_000 : 1_000]));

  it('orders follow the day’s cost (2.4 per unit of cost, ±10 %, weekends 35 % more); customers grow slowly', () => {
    const values = demoMetricValues(cost, 42);
    const orders = values.filter((value) => value.name === 'orders').map((value) => Number(value.value));
    const customers = values.filter((value) => value.name === 'active_customers').map((value) => Number(value.value));
    const within = (values: number[], low: number, high: number) => values.every((value) => value >= low && value <= high);
    expect(within(orders.slice(0, 5), 2_160, 2_640)).toBe(true);
    expect(within(orders.slice(5, 7), 2_916, 3_564)).toBe(true);
    expect(orders[7]).toBeGreaterThanOrEqual(4_320);
    expect(customers[7]).toBeGreaterThan(customers[0]);
    expect(within(customers, 1_800, 1_860)).toBe(true);
  });

  it('is the same for the same seed, and another for another', () => {
    expect(demoMetricValues(cost, 42)).toEqual(demoMetricValues(cost, 42));
    expect(demoMetricValues(cost, 43)).not.toEqual(demoMetricValues(cost, 42));
  });
});
