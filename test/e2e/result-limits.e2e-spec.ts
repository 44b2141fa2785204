// modes: embedded server cluster — result sizes probed by ClickHouse SQL
import { startAppWithEnv } from '../support/app-with-env';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * MAX_RESULT_ROWS: too large a result is a 400 that says how to narrow it, never a truncated
 * answer. Its own file (and app), because the limit is set when the application is created.
 */
describe('result size limit (MAX_RESULT_ROWS=3)', () => {
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await startAppWithEnv({ MAX_RESULT_ROWS: '3' });
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, [
      { usage_date: '2026-10-01', service: 'Amazon EC2', amortized_cost: '1.5' },
      { usage_date: '2026-10-02', service: 'Amazon EC2', amortized_cost: '2.5' },
      { usage_date: '2026-10-03', service: 'Amazon S3', amortized_cost: '3.5' },
      { usage_date: '2026-10-04', service: 'Amazon S3', amortized_cost: '4.5' },
      { usage_date: '2026-09-04', service: 'Amazon S3', amortized_cost: '5' },
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  const data = (dateRange: { start: string; end: string }, groupBy: object) =>
    t.http
      .post('/v1/cost-insights/data')
      .set(org.auth)
      .send({ filters: { inclusions: { dateRange } }, groupBy });
  const compare = (groupBy: object) =>
    t.http
      .post('/v1/cost-insights/compare')
      .set(org.auth)
      .send({
        baselinePeriod: { start: '2026-09-01', end: '2026-09-30' },
        comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
        metric: 'amortized_cost',
        groupBy,
      });

  it('refuses /data results over the limit and says how to narrow them', async () => {
    const response = await data({ start: '2026-10-01', end: '2026-10-31' }, { dateGrouping: 'daily' });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.error.message).toMatch(/^Invalid request\. Please see message details\. /);
    // Four days hold data: the message says how large the result would be.
    expect(response.body.error.message).toContain('the result would have 4 items, more than 3 (MAX_RESULT_ROWS)');
    expect(response.body.error.message).toContain('coarser groupBy.dateGrouping');
    expect(response.body.error.message).toContain('fewer groupBy.dimensions');
  });

  it('answers results at the limit in full', async () => {
    const response = await data({ start: '2026-10-01', end: '2026-10-03' }, { dateGrouping: 'daily' });
    expect(response.status).toBe(200);
    expect(response.body.data.items.map((i: { usage_date: string }) => i.usage_date)).toEqual(['2026-10-01', '2026-10-02', '2026-10-03']);
    const monthly = await data({ start: '2026-10-01', end: '2026-10-31' }, { dateGrouping: 'monthly', dimension: 'service' });
    expect(monthly.status).toBe(200);
    expect(monthly.body.data.items).toHaveLength(2);
  });

  it('refuses /compare responses with more by_date points than the limit', async () => {
    // No dimension, monthly: 1 value × (1 + 1) buckets = 2 points.
    const monthly = await compare({ dateGrouping: 'monthly' });
    expect(monthly.status).toBe(200);
    expect(monthly.body.data.totals).toMatchObject({ baseline: 5, comparison: 12 });
    // Weekly: 5 + 5 zero-filled buckets, although only 4 weeks hold data.
    const weekly = await compare({ dateGrouping: 'weekly' });
    expect(weekly.status).toBe(400);
    expect(weekly.body.error.message).toContain('more than 3 by_date points');
    // Two services × (1 + 1) monthly buckets = 4 points.
    const byService = await compare({ dateGrouping: 'monthly', dimension: 'service' });
    expect(byService.status).toBe(400);
    expect(byService.body.error.message).toContain('coarser groupBy.dateGrouping');
  });
});
