// modes: embedded server cluster — the answer cache and the store's data version
import { startAppWithEnv } from '../support/app-with-env';
import { interceptStatements } from '../support/statement-interceptor';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * The per-instance answer cache of the read routes: a repeated question is answered from memory
 * (no ClickHouse statement), and never across organisations, request bodies, writes or errors.
 */
const DATA = '/v1/cost-insights/data';
const question = (service?: string) => ({
  groupBy: { dateGrouping: 'daily', dimension: 'service' },
  filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-03' }, ...(service ? { services: [service] } : {}) } },
});
const row = (usage_date: string, service: string, amortized_cost: string): RowInput => ({ usage_date, service, amortized_cost });

/** Counts the cost statements (not the data-version reads) the app sends to ClickHouse. */
function countCostStatements(t: TestApp): { readonly count: number } {
  const counter = { count: 0 };
  interceptStatements(t.clickhouse, (sql) => {
    if (sql.includes('cost_line_items') && !sql.includes('system.parts')) counter.count++;
    return sql;
  });
  return counter;
}

describe('answer cache', () => {
  let t: TestApp;
  let statements: { readonly count: number };

  beforeAll(async () => {
    // Other test files write to the same store at the same time, and every write (or merge) changes the
    // parts digest: read it once, so only this app's own writes change the data version here (the
    // check interval itself is tested below).
    t = await startAppWithEnv({ RESULT_CACHE_VERSION_CHECK_MS: '600000' });
    statements = countCostStatements(t);
  });
  afterAll(() => t.close());

  async function newOrgWithRows(rows: RowInput[]): Promise<TestOrganization> {
    const org = await t.newOrganization();
    await t.insertRows(org.organizationId, rows);
    return org;
  }

  it('answers a repeated question from memory, byte for byte, whatever the key order of the body', async () => {
    const org = await newOrgWithRows([row('2026-10-01', 'Amazon EC2', '10.5'), row('2026-10-02', 'Stockage Zürich €', '2.25')]);
    const first = await t.http.post(DATA).set(org.auth).send(question());
    expect(first.status).toBe(200);
    expect(first.headers['cache-status']).toBe('cost-insights-api; fwd=miss');
    expect(first.body.data.summary.total_amortized_cost).toBe(12.75);
    expect(first.body.data.items.map((item: { dimension_value: string }) => item.dimension_value)).toEqual([
      'Amazon EC2',
      'Stockage Zürich €',
    ]);
    // The answer is sent as bytes: its length counts bytes, not characters.
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['content-length']).toBe(String(Buffer.byteLength(first.text)));

    const before = statements.count;
    const again = await t.http.post(DATA).set(org.auth).send(question());
    const reordered = await t.http
      .post(DATA)
      .set(org.auth)
      .set('Content-Type', 'application/json')
      .send(
        '{"filters":{"inclusions":{"dateRange":{"end":"2026-10-03","start":"2026-10-01"}}},"groupBy":{"dimension":"service","dateGrouping":"daily"}}',
      );
    for (const hit of [again, reordered]) {
      expect(hit.status).toBe(200);
      expect(hit.headers['cache-status']).toBe('cost-insights-api; hit');
      expect(hit.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(hit.headers['content-length']).toBe(first.headers['content-length']);
      expect(hit.text).toBe(first.text);
    }
    expect(statements.count).toBe(before);
  });

  it('keeps organisations and different questions apart', async () => {
    const orgA = await newOrgWithRows([row('2026-10-01', 'Amazon EC2', '1')]);
    const orgB = await newOrgWithRows([row('2026-10-01', 'Amazon EC2', '7')]);
    const a = await t.http.post(DATA).set(orgA.auth).send(question());
    const b = await t.http.post(DATA).set(orgB.auth).send(question());
    expect(b.headers['cache-status']).toBe('cost-insights-api; fwd=miss');
    expect([a.body.data.summary.total_amortized_cost, b.body.data.summary.total_amortized_cost]).toEqual([1, 7]);
    const narrower = await t.http.post(DATA).set(orgA.auth).send(question('Amazon S3'));
    expect(narrower.headers['cache-status']).toBe('cost-insights-api; fwd=miss');
    expect(narrower.body.data.items).toEqual([]);
  });

  it('sees a write by this instance at once', async () => {
    const org = await newOrgWithRows([row('2026-10-01', 'Amazon EC2', '1')]);
    expect((await t.http.post(DATA).set(org.auth).send(question())).body.data.summary.total_amortized_cost).toBe(1);
    expect((await t.http.post(DATA).set(org.auth).send(question())).headers['cache-status']).toBe('cost-insights-api; hit');
    await t.insertRows(org.organizationId, [row('2026-10-02', 'Amazon EC2', '2')]);
    const after = await t.http.post(DATA).set(org.auth).send(question());
    expect(after.headers['cache-status']).toBe('cost-insights-api; fwd=miss');
    expect(after.body.data.summary.total_amortized_cost).toBe(3);
  });

  // Before: in embedded mode any write by the process (a shared filter created by any tenant, stored in
  // ClickHouse) changed every organisation's data version and emptied every tenant's answer cache.
  it("keeps an organisation's answers through writes they do not depend on", async () => {
    const org = await newOrgWithRows([row('2026-10-01', 'Amazon EC2', '4')]);
    const other = await newOrgWithRows([row('2026-10-01', 'Amazon EC2', '9')]);
    expect((await t.http.post(DATA).set(org.auth).send(question())).headers['cache-status']).toBe('cost-insights-api; fwd=miss');
    const writes: Array<[string, () => Promise<unknown>]> = [
      [
        'a shared filter of another organisation',
        () =>
          t.http
            .post('/v1/cost-insights/shared-filters')
            .set(other.auth)
            .send({ organizationId: other.organizationId, filterConfiguration: {} }),
      ],
      [
        'a shared filter of its own',
        () =>
          t.http
            .post('/v1/cost-insights/shared-filters')
            .set(org.auth)
            .send({ organizationId: org.organizationId, filterConfiguration: {} }),
      ],
      ['an API key', () => t.keyFor(other.organizationId)],
      ["another organisation's cost rows", () => t.insertRows(other.organizationId, [row('2026-10-02', 'Amazon EC2', '1')])],
    ];
    for (const [write, run] of writes) {
      await run();
      const answer = await t.http.post(DATA).set(org.auth).send(question());
      expect({ write, cacheStatus: answer.headers['cache-status'] }).toEqual({ write, cacheStatus: 'cost-insights-api; hit' });
      expect(answer.body.data.summary.total_amortized_cost).toBe(4);
    }
    // Its own rows do change it, at once.
    await t.insertRows(org.organizationId, [row('2026-10-02', 'Amazon EC2', '1')]);
    const after = await t.http.post(DATA).set(org.auth).send(question());
    expect(after.headers['cache-status']).toBe('cost-insights-api; fwd=miss');
    expect(after.body.data.summary.total_amortized_cost).toBe(5);
  });

  it('computes a fresh answer on Cache-Control: no-cache (and keeps it), never keeps one on no-store', async () => {
    const org = await newOrgWithRows([row('2026-10-01', 'Amazon EC2', '4')]);
    await t.http.post(DATA).set(org.auth).send(question());
    let before = statements.count;
    const fresh = await t.http.post(DATA).set(org.auth).set('Cache-Control', 'no-cache').send(question());
    expect(fresh.headers['cache-status']).toBe('cost-insights-api; fwd=request');
    expect(fresh.body.data.summary.total_amortized_cost).toBe(4);
    expect(statements.count).toBe(before + 1);
    expect((await t.http.post(DATA).set(org.auth).send(question())).headers['cache-status']).toBe('cost-insights-api; hit');

    const other = question('Amazon EC2');
    before = statements.count;
    for (let i = 0; i < 2; i++) {
      const response = await t.http.post(DATA).set(org.auth).set('Cache-Control', 'no-store').send(other);
      expect(response.headers['cache-status']).toBe('cost-insights-api; fwd=request');
    }
    expect((await t.http.post(DATA).set(org.auth).send(other)).headers['cache-status']).toBe('cost-insights-api; fwd=miss');
    expect(statements.count).toBe(before + 3);
  });

  it('never keeps an error, and a hit still counts against the rate limit', async () => {
    const org = await newOrgWithRows([row('2026-10-01', 'Amazon EC2', '1')]);
    for (let i = 0; i < 2; i++) {
      const invalid = await t.http
        .post(DATA)
        .set(org.auth)
        .send({ groupBy: { dateGrouping: 'hourly' } });
      expect(invalid.status).toBe(400);
      expect(invalid.headers['cache-status']).toBeUndefined();
      expect(invalid.body.success).toBe(false);
    }
    const first = await t.http.post(DATA).set(org.auth).send(question());
    const hit = await t.http.post(DATA).set(org.auth).send(question());
    expect(hit.headers['cache-status']).toBe('cost-insights-api; hit');
    expect(Number(hit.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
  });

  it.each([
    [
      '/v1/cost-insights/compare',
      {
        metric: 'amortized_cost',
        baselinePeriod: { start: '2026-09-01', end: '2026-09-30' },
        comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
      },
    ],
    ['/v1/cost-insights/filters', { fields: ['services'] }],
    ['/v1/cost-insights/tag-values', { tagKey: 'env' }],
    ['/v1/cost-insights/cost-category-values', { categoryKey: 'Unit' }],
  ])('%s is cached too', async (path, body) => {
    const org = await newOrgWithRows([
      { ...row('2026-10-01', 'Amazon EC2', '3'), resource_tags: { env: 'prod' }, cost_categories: { Unit: 'retail' } },
    ]);
    const first = await t.http.post(path).set(org.auth).send(body);
    expect(first.status).toBe(200);
    const before = statements.count;
    const again = await t.http.post(path).set(org.auth).send(body);
    expect(again.headers['cache-status']).toBe('cost-insights-api; hit');
    expect(again.body).toEqual(first.body);
    expect(statements.count).toBe(before);
  });
});

describe('answer cache settings', () => {
  it('RESULT_CACHE_MAX_MB=0 turns the cache off', async () => {
    const off = await startAppWithEnv({ RESULT_CACHE_MAX_MB: '0' });
    try {
      const org = await off.newOrganization();
      await off.insertRows(org.organizationId, [row('2026-10-01', 'Amazon EC2', '1')]);
      for (let i = 0; i < 2; i++) {
        const response = await off.http.post(DATA).set(org.auth).send(question());
        expect(response.status).toBe(200);
        expect(response.headers['cache-status']).toBeUndefined();
      }
    } finally {
      await off.close();
    }
  });
});
