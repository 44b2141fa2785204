// modes: embedded server cluster — ClickHouse's time budget on every topology
import { listen, send, startAppWithEnv } from '../support/app-with-env';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * The ClickHouse time budget (CLICKHOUSE_MAX_EXECUTION_SECONDS) end to end: a query that runs past it
 * is answered with a 400 that says how to narrow the query, and a cheap request is still served.
 */
// Well under the heavy query (~1.1 s on 2 cores) now that its summary statement reads the projection and is quick.
const TIME_BUDGET_SECONDS = 0.5;
const HEAVY_ROWS = 2_000_000;

describe('ClickHouse time budget', () => {
  let t: TestApp;
  let base: string;
  let cheap: TestOrganization;
  let heavy: TestOrganization;

  beforeAll(async () => {
    t = await startAppWithEnv({
      CLICKHOUSE_MAX_EXECUTION_SECONDS: String(TIME_BUDGET_SECONDS),
      CLICKHOUSE_MAX_MEMORY_BYTES: '0', // only the time budget is under test here
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    base = await listen(t);
    cheap = await t.newOrganization();
    heavy = await t.newOrganization();
    await t.insertRows(cheap.organizationId, [{ usage_date: '2026-10-01', amortized_cost: '1.25' }]);
    // The estate is generated inside ClickHouse; each statement lifts the budget it would hit itself, and
    // stays under the client's request timeout (budget + 5 s) with the projection (migration 0005) to build.
    const chunk = 250_000;
    for (let start = 0; start < HEAVY_ROWS; start += chunk) {
      await t.generate(
        `INSERT INTO ${t.clickhouse.table('cost_line_items')}
           (organization_id, usage_date, billing_period, integration_id, service, account_id, resource_tags, amortized_cost)
         SELECT {org:UUID}, toDate('2026-10-01') + (number % 31), '2026-10', 'aws-main', concat('svc-', toString(number % 5003)),
                toString(number % 2003), map('app', toString(number)), toDecimal128(number % 97, 10) / 7
         FROM numbers({start:UInt64}, {rows:UInt64})`,
        { org: heavy.organizationId, start, rows: chunk },
      );
    }
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  // A cheap request runs after the refused one, not beside it: under a budget this tight, a concurrent
  // heavy query can push even a cheap one past it (the memory-budget test in resource-limits covers concurrency).
  it('answers a query over the time budget with a 400 that says to narrow it, then serves the next request', async () => {
    const heavyBody = {
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
      groupBy: { dateGrouping: 'daily', dimensions: ['service', 'tag:app', 'account'] },
    };
    const json = { 'Content-Type': 'application/json' };
    const over = await send(`${base}/v1/cost-insights/data`, {
      method: 'POST',
      headers: { ...heavy.auth, ...json },
      body: JSON.stringify(heavyBody),
    });
    const next = await send(`${base}/v1/cost-insights/data`, {
      method: 'POST',
      headers: { ...cheap.auth, ...json },
      body: JSON.stringify({ ...heavyBody, groupBy: { dateGrouping: 'monthly' } }),
    });
    console.log(
      `time-budget[${process.env.E2E_MODE}] budget ${TIME_BUDGET_SECONDS}s over ${HEAVY_ROWS} rows: ${over.status} in ${over.ms} ms; ` +
        `next cheap request ${next.status} in ${next.ms} ms`,
    );
    expect(over.status).toBe(400);
    const message: string = JSON.parse(over.text).error.message;
    expect(message).toMatch(
      /^Invalid request\. Please see message details\. query: exceeds the server's time limit \(CLICKHOUSE_MAX_EXECUTION_SECONDS\); narrow it: /,
    );
    expect(message).not.toMatch(/DB::Exception|Code: |elapsed/);
    expect(next.status).toBe(200);
    expect(JSON.parse(next.text).data.summary.total_amortized_cost).toBe(1.25);
  });
});
