// modes: embedded server cluster — ClickHouse's memory budget on every topology
import { listen, send, startAppWithEnv } from '../support/app-with-env';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Resource limits: each one answered with a clear 4xx envelope that says what to change, while the
 * service keeps answering other requests. MAX_RESULT_ROWS has its own file (result-limits.e2e-spec.ts);
 * here: body size, array and string lengths, date-range span, and ClickHouse's per-query memory and
 * time budgets (CLICKHOUSE_MAX_MEMORY_BYTES, CLICKHOUSE_MAX_EXECUTION_SECONDS), which are a documented
 * 400 "narrow the query" instead of a generic 500.
 */
const INVALID = 'Invalid request. Please see message details.';
const BODY_LIMIT = 16_384;
const MEMORY_BUDGET = 24 * 1024 * 1024;
const HEAVY_ROWS = 400_000;

describe('resource limits', () => {
  let t: TestApp;
  let base: string;
  let org: TestOrganization;
  let heavy: TestOrganization;

  beforeAll(async () => {
    t = await startAppWithEnv({
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
      MAX_DATE_RANGE_DAYS: '400',
      CLICKHOUSE_MAX_MEMORY_BYTES: String(MEMORY_BUDGET),
      CLICKHOUSE_MAX_EXECUTION_SECONDS: '1',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    base = await listen(t);
    org = await t.newOrganization();
    heavy = await t.newOrganization();
    await t.insertRows(org.organizationId, [
      { usage_date: '2026-10-01', amortized_cost: '1.25', resource_tags: { env: 'prod' } },
      { usage_date: '2026-10-02', amortized_cost: '2.5', resource_tags: { env: 'dev' } },
    ]);
    // An estate large enough to exceed the budgets: generated inside ClickHouse (this one statement
    // lifts the budgets it would otherwise hit itself).
    await t.generate(
      `INSERT INTO ${t.clickhouse.table('cost_line_items')}
         (organization_id, usage_date, billing_period, cloud, service, account_id, region, resource_tags, amortized_cost)
       SELECT {org:UUID}, toDate('2026-10-01') + (number % 31), '2026-10', 'AWS', concat('svc-', toString(number % 20011)),
              toString(number % 1009), 'us-east-1', map('app', toString(number)), toDecimal128(number % 97, 10) / 7
       FROM numbers({rows:UInt64})`,
      { org: heavy.organizationId, rows: HEAVY_ROWS },
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (path: string, who: TestOrganization, body: unknown) =>
    t.http
      .post(`/v1/cost-insights/${path}`)
      .set(who.auth)
      .send(body as object);
  const small = {
    filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
    groupBy: { dateGrouping: 'monthly' },
  };

  /** A cheap request answered correctly and quickly: the service is responsive. */
  async function expectResponsive(): Promise<number> {
    const started = Date.now();
    const answer = await send(`${base}/v1/cost-insights/data`, {
      method: 'POST',
      headers: { ...org.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(small),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).data.summary.total_amortized_cost).toBe(3.75);
    return Date.now() - started;
  }

  function expectEnvelope(response: { status: number; body: unknown }, status: number, ...fragments: string[]): void {
    expect(response.status).toBe(status);
    const body = response.body as { success: boolean; error: { message: string } };
    expect(Object.keys(body).sort()).toEqual(['error', 'success']);
    expect(body.success).toBe(false);
    for (const fragment of fragments) expect(body.error.message).toContain(fragment);
  }

  it('sends reads with max_threads_for_indexes = CLICKHOUSE_INDEX_ANALYSIS_THREADS (default 1), the server knowing it', async () => {
    const [read] = await t.clickhouse.query<{ threads: string }>("SELECT toString(getSetting('max_threads_for_indexes')) AS threads");
    expect(read.threads).toBe('1');
    if (!t.clickhouse.embedded) {
      // A server keeps its default: the setting travels with the API's reads (a chDB session keeps
      // what a statement SET, so there it is simply on).
      const [raw] = await t.clickhouse.client
        .query({ query: "SELECT toString(getSetting('max_threads_for_indexes')) AS threads", format: 'JSONEachRow' })
        .then((result) => result.json<{ threads: string }>());
      expect(raw.threads).toBe('0');
    }
  });

  it('refuses a body over BODY_LIMIT_BYTES with 413 naming the limit, and stays responsive meanwhile', async () => {
    const oversized = JSON.stringify({ ...small, padding: 'x'.repeat(BODY_LIMIT * 50) });
    const [refused, latency] = await Promise.all([
      Promise.all(
        Array.from({ length: 8 }, () =>
          send(`${base}/v1/cost-insights/data`, {
            method: 'POST',
            headers: { ...org.auth, 'Content-Type': 'application/json' },
            body: oversized,
          }),
        ),
      ),
      expectResponsive(),
    ]);
    for (const answer of refused) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toEqual({
        success: false,
        error: { message: `Request body too large: the limit is ${BODY_LIMIT} bytes.` },
      });
    }
    expect(latency).toBeLessThan(2000);
  });

  it('refuses lists over 1000 values and strings over 512 characters, naming the path and the maximum', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => String(i % 10)); // ≈ 5 KB: under the body limit
    const tooMany = await post('data', org, { ...small, filters: { inclusions: { ...small.filters.inclusions, services: many } } });
    expectEnvelope(tooMany, 400, INVALID, 'filters.inclusions.services', 'at most 1000 values');
    const atLimit = await post('data', org, {
      ...small,
      filters: { inclusions: { ...small.filters.inclusions, services: many.slice(1) } },
    });
    expect(atLimit.status).toBe(200);
    const long = await post('data', org, {
      ...small,
      filters: { inclusions: { ...small.filters.inclusions, services: ['x'.repeat(513)] } },
    });
    expectEnvelope(long, 400, INVALID, 'filters.inclusions.services', '512');
    const longKey = await post('tag-values', org, { tagKey: 'k'.repeat(257) });
    expectEnvelope(longKey, 400, INVALID, 'tagKey', '256');
  });

  it('refuses a dateRange longer than MAX_DATE_RANGE_DAYS, saying the maximum', async () => {
    const response = await post('data', org, {
      filters: { inclusions: { dateRange: { start: '2025-01-01', end: '2026-10-31' } } },
      groupBy: { dateGrouping: 'monthly' },
    });
    expectEnvelope(response, 400, INVALID, 'dateRange', '400');
    const compare = await post('compare', org, {
      baselinePeriod: { start: '2024-01-01', end: '2025-06-30' },
      comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
      metric: 'amortized_cost',
    });
    expectEnvelope(compare, 400, INVALID, 'baselinePeriod', '400');
  });

  it('answers a query over the ClickHouse memory budget with a 400 that says to narrow it, and stays responsive', async () => {
    const heavyBody = {
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
      groupBy: { dateGrouping: 'daily', dimensions: ['service', 'tag:app', 'account'] },
    };
    const started = Date.now();
    const [answers, latency] = await Promise.all([
      Promise.all(
        Array.from({ length: 3 }, () =>
          send(`${base}/v1/cost-insights/data`, {
            method: 'POST',
            headers: { ...heavy.auth, 'Content-Type': 'application/json' },
            body: JSON.stringify(heavyBody),
          }),
        ),
      ),
      expectResponsive(),
    ]);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `resource-limits[${process.env.E2E_MODE}] budget: ${answers.map((a) => `${a.status} in ${a.ms} ms`).join(', ')} (${JSON.parse(answers[0].text).error?.message}); cheap request meanwhile ${latency} ms; ${seconds}s`,
    );
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      const body = JSON.parse(answer.text);
      expect(body.success).toBe(false);
      expect(body.error.message).toMatch(
        /^Invalid request\. Please see message details\. query: exceeds the server's (memory limit \(CLICKHOUSE_MAX_MEMORY_BYTES\)|time limit \(CLICKHOUSE_MAX_EXECUTION_SECONDS\)); narrow it: /,
      );
      expect(body.error.message).not.toMatch(/DB::Exception|Code: |MiB|version/);
    }
    await expectResponsive();
  });
});
