// modes: embedded server cluster — the store's data version seen by other processes
import { startAppWithEnv } from '../support/app-with-env';
import { costRow, RowInput, TestApp } from '../support/test-app';

/**
 * The answer cache against writes by other processes (the rest is result-cache.e2e-spec.ts): such a write is
 * noticed only by the data-version check every RESULT_CACHE_VERSION_CHECK_MS, so these tests sleep across
 * intervals and compare times with them. Timed, so they run alone (the timing project, in band).
 */
const DATA = '/v1/cost-insights/data';
const question = (service?: string) => ({
  groupBy: { dateGrouping: 'daily', dimension: 'service' },
  filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-03' }, ...(service ? { services: [service] } : {}) } },
});
const row = (usage_date: string, service: string, amortized_cost: string): RowInput => ({ usage_date, service, amortized_cost });

describe('answer cache and writes by other processes', () => {
  // A write that bypasses this instance (here: straight through the ClickHouse client, as the CLI
  // importer or another tool would) is noticed by the data-version check: the digest is re-read once it is
  // RESULT_CACHE_VERSION_CHECK_MS old, in the background up to twice that age, and awaited after that.
  async function externalInsert(t: TestApp, organizationId: string, rows: RowInput[]): Promise<void> {
    await t.clickhouse.client.insert({
      table: t.clickhouse.table('cost_line_items'),
      values: rows.map((r) => costRow(organizationId, r)),
      format: 'JSONEachRow',
    });
  }
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('serves the earlier answer until the next check, then the new one', async () => {
    const slow = await startAppWithEnv({ RESULT_CACHE_VERSION_CHECK_MS: '600000' });
    const fast = await startAppWithEnv({ RESULT_CACHE_VERSION_CHECK_MS: '200' });
    try {
      const org = await slow.newOrganization();
      await slow.insertRows(org.organizationId, [row('2026-10-01', 'Amazon EC2', '1')]);
      for (const app of [slow, fast]) {
        expect((await app.http.post(DATA).set(org.auth).send(question())).body.data.summary.total_amortized_cost).toBe(1);
      }
      await externalInsert(slow, org.organizationId, [row('2026-10-02', 'Amazon EC2', '5')]);
      await sleep(450);
      // The ten-minute check has not run again: still the earlier answer, from memory.
      const stale = await slow.http.post(DATA).set(org.auth).send(question());
      expect(stale.headers['cache-status']).toBe('cost-insights-api; hit');
      expect(stale.body.data.summary.total_amortized_cost).toBe(1);
      // The 200 ms digest is more than twice its interval old: the request waits for the new one, whose new
      // parts change the version, and the answer is recomputed.
      const fresh = await fast.http.post(DATA).set(org.auth).send(question());
      expect(fresh.headers['cache-status']).toBe('cost-insights-api; fwd=miss');
      expect(fresh.body.data.summary.total_amortized_cost).toBe(6);
    } finally {
      await slow.close();
      await fast.close();
    }
  });

  it("sees another process's import for the organisation, not another organisation's, after the check", async () => {
    const app = await startAppWithEnv({ RESULT_CACHE_VERSION_CHECK_MS: '200' });
    try {
      const org = await app.newOrganization();
      const other = await app.newOrganization();
      await app.insertRows(org.organizationId, [row('2026-10-01', 'Amazon EC2', '1')]);
      expect((await app.http.post(DATA).set(org.auth).send(question())).body.data.summary.total_amortized_cost).toBe(1);
      await externalInsert(app, other.organizationId, [row('2026-10-02', 'Amazon EC2', '5')]);
      await sleep(450); // past twice the interval: the next request waits for the new digests
      const untouched = await app.http.post(DATA).set(org.auth).send(question());
      expect(untouched.headers['cache-status']).toBe('cost-insights-api; hit');
      await externalInsert(app, org.organizationId, [row('2026-10-02', 'Amazon EC2', '5')]);
      await sleep(450);
      const changed = await app.http.post(DATA).set(org.auth).send(question());
      expect(changed.headers['cache-status']).toBe('cost-insights-api; fwd=miss');
      expect(changed.body.data.summary.total_amortized_cost).toBe(6);
    } finally {
      await app.close();
    }
  });

  it('re-reads the version off the request path: the request that finds it due is answered at once, the next ones see the write', async () => {
    const interval = 1500;
    const app = await startAppWithEnv({ RESULT_CACHE_VERSION_CHECK_MS: String(interval) });
    try {
      const org = await app.newOrganization();
      await app.insertRows(org.organizationId, [row('2026-10-01', 'Amazon EC2', '1')]);
      // This app's own insert counts at once; a first question reads the digest (the app has none yet).
      const readAt = Date.now();
      expect((await app.http.post(DATA).set(org.auth).send(question())).headers['cache-status']).toBe('cost-insights-api; fwd=miss');
      await externalInsert(app, org.organizationId, [row('2026-10-02', 'Amazon EC2', '5')]);
      // Due (older than the interval) but within twice it: answered from the digest it has, not waiting.
      await sleep(Math.max(0, readAt + interval + 300 - Date.now()));
      const due = await app.http.post(DATA).set(org.auth).send(question());
      expect(Date.now() - readAt).toBeLessThan(2 * interval); // the premise of this check
      expect(due.headers['cache-status']).toBe('cost-insights-api; hit');
      expect(due.body.data.summary.total_amortized_cost).toBe(1);
      // Meanwhile the digest was re-read in the background: the write is seen well before twice the interval.
      let seen: number | undefined;
      for (let i = 0; i < 20 && seen === undefined; i++) {
        const next = await app.http.post(DATA).set(org.auth).send(question());
        if (next.body.data.summary.total_amortized_cost === 6) seen = Date.now() - readAt;
        else await sleep(25);
      }
      expect(seen).toBeDefined();
      expect(seen).toBeLessThan(2 * interval);
    } finally {
      await app.close();
    }
  });
});
