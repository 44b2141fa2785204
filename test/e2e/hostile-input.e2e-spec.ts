// modes: embedded — request validation
import { listen, send, startAppWithEnv } from '../support/app-with-env';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Bodies found by attacking the service (issue 24) that hung it, froze it or slipped past validation.
 * Each is now a 400 with the spec's prefix, answered at once, while the service stays responsive.
 */
const INVALID = 'Invalid request. Please see message details.';
const HEALTH = '/health/live';

describe('hostile input', () => {
  let t: TestApp;
  let base: string;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await startAppWithEnv({ RATE_LIMIT_PER_MINUTE: '100000' });
    base = await listen(t);
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, [
      { usage_date: '2026-10-01', amortized_cost: '1.25' },
      { usage_date: '2099-12-31', amortized_cost: '2.5' },
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (path: string, body: unknown, timeoutMs?: number) =>
    send(
      `${base}/v1/cost-insights/${path}`,
      {
        method: 'POST',
        headers: { ...org.auth, 'Content-Type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      },
      timeoutMs,
    );
  const messageOf = (text: string) => (JSON.parse(text) as { error: { message: string } }).error.message;

  describe('dates outside the supported range (2000-01-01 to 2099-12-31)', () => {
    // Before: bucket enumeration compared formatted dates, and `+010000-01-01` never exceeded the end:
    // the request never answered, /health/live stopped answering and the heap grew until the process died.
    it('answers /compare with years 9999 and 0000 with a 400 naming each date, and stays responsive', async () => {
      const cases = [
        {
          body: {
            baselinePeriod: { start: '9999-12-31', end: '9999-12-31' },
            comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
            metric: 'amortized_cost',
          },
          details: [
            'baselinePeriod.start: "9999-12-31" is outside the supported dates (from 2000-01-01 to 2099-12-31)',
            'baselinePeriod.end: "9999-12-31" is outside the supported dates (from 2000-01-01 to 2099-12-31)',
          ],
        },
        {
          body: {
            baselinePeriod: { start: '0000-01-01', end: '0000-01-02' },
            comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
            metric: 'amortized_cost',
            groupBy: { dateGrouping: 'weekly' },
          },
          details: [
            'baselinePeriod.start: "0000-01-01" is outside the supported dates (from 2000-01-01 to 2099-12-31)',
            'baselinePeriod.end: "0000-01-02" is outside the supported dates (from 2000-01-01 to 2099-12-31)',
          ],
        },
      ];
      for (const { body, details } of cases) {
        // A hang (as these bodies once caused) would be status 0 here: no answer within send's bound.
        const [answer, health] = await Promise.all([post('compare', body), send(`${base}${HEALTH}`, {})]);
        expect(answer.status).toBe(400);
        expect(messageOf(answer.text)).toBe(`${INVALID} ${details.join('; ')}`);
        expect(health.status).toBe(200);
      }
    });

    it('refuses them in every date slot and accepts both edges', async () => {
      const range = (start: string, end: string) => ({
        filters: { inclusions: { dateRange: { start, end } } },
        groupBy: { dateGrouping: 'monthly' },
      });
      const early = await post('data', range('1999-12-31', '2000-01-31'));
      expect(early.status).toBe(400);
      expect(messageOf(early.text)).toBe(
        `${INVALID} filters.inclusions.dateRange.start: "1999-12-31" is outside the supported dates (from 2000-01-01 to 2099-12-31)`,
      );
      const late = await post('filters', { filters: { exclusions: { dateRange: { start: '2099-12-31', end: '2100-01-01' } } } });
      expect(late.status).toBe(400);
      expect(messageOf(late.text)).toBe(
        `${INVALID} filters.exclusions.dateRange.end: "2100-01-01" is outside the supported dates (from 2000-01-01 to 2099-12-31)`,
      );
      const period = await post('data', {
        filters: { inclusions: { billingPeriods: ['2026-10', '2100-01'] } },
        groupBy: { dateGrouping: 'monthly' },
      });
      expect(period.status).toBe(400);
      expect(messageOf(period.text)).toBe(
        `${INVALID} filters.inclusions.billingPeriods: "2100-01" is outside the supported billing periods (2000-01 to 2099-12)`,
      );
      const shared = await send(`${base}/v1/cost-insights/shared-filters`, {
        method: 'POST',
        headers: { ...org.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          organizationId: org.organizationId,
          filterConfiguration: { filters: { inclusions: { dateRange: { start: '0000-01-01', end: '2026-01-01' } } } },
        }),
      });
      expect(shared.status).toBe(400);
      expect(messageOf(shared.text)).toContain(
        'filterConfiguration.filters.inclusions.dateRange.start: "0000-01-01" is outside the supported dates',
      );

      // The edges themselves are dates like any other (the last day of 2099 holds 2.5).
      const edges = await post('data', range('2099-12-01', '2099-12-31'));
      expect(edges.status).toBe(200);
      expect(JSON.parse(edges.text).data.summary.total_amortized_cost).toBe(2.5);
      const weeklyFromFirst = await post('compare', {
        baselinePeriod: { start: '2000-01-01', end: '2000-01-09' },
        comparisonPeriod: { start: '2099-12-25', end: '2099-12-31' },
        metric: 'amortized_cost',
        groupBy: { dateGrouping: 'weekly' },
      });
      expect(weeklyFromFirst.status).toBe(200);
      const { comparisons } = JSON.parse(weeklyFromFirst.text).data;
      // 2000-01-01 was a Saturday: its week starts on Monday 1999-12-27, which the zero-filled series names.
      expect(comparisons[0].baseline.by_date.map((point: { date: string }) => point.date)).toEqual(['1999-12-27', '2000-01-03']);
      expect(comparisons[0].comparison.total).toBe(2.5);
    });
  });

  describe('wide bodies', () => {
    it('names the path of a nested wide object and bounds the fields of the whole body', async () => {
      const nested = await post('data', {
        groupBy: { dateGrouping: 'daily' },
        filters: { inclusions: Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`f${i}`, []])) },
      });
      expect(nested.status).toBe(400);
      expect(messageOf(nested.text)).toBe(`${INVALID} filters.inclusions: has 150 fields; at most 100 are allowed in one object`);
      const many = await post('data', {
        groupBy: { dateGrouping: 'daily' },
        extra: Array.from({ length: 120 }, (_, i) => Object.fromEntries(Array.from({ length: 90 }, (_, j) => [`f${i}_${j}`, j]))),
      });
      expect(many.status).toBe(400);
      expect(messageOf(many.text)).toBe(`${INVALID} body: has more than 10000 fields in all`);
    });
  });

  describe('prototype keys', () => {
    // Before: class-transformer never copied them, so the unknown-field check never saw them: 200.
    it('reports __proto__, constructor and prototype as unknown fields at any depth', async () => {
      const cases: Array<[string, string]> = [
        ['{"groupBy":{"dateGrouping":"daily"},"__proto__":{"isAdmin":true}}', '__proto__: unknown field'],
        ['{"groupBy":{"dateGrouping":"daily","constructor":1}}', 'groupBy.constructor: unknown field'],
        [
          '{"groupBy":{"dateGrouping":"daily"},"filters":{"inclusions":{"__proto__":{"a":1},"prototype":[]}}}',
          'filters.inclusions.__proto__: unknown field; filters.inclusions.prototype: unknown field',
        ],
        ['{"groupBy":{"dateGrouping":"daily","dimension":7},"constructor":{}}', 'groupBy.dimension: Expected a dimension'],
      ];
      for (const [body, detail] of cases) {
        const answer = await post('data', body);
        expect(answer.status).toBe(400);
        expect(messageOf(answer.text)).toContain(`${INVALID} ${detail}`);
      }
      const both = await post('data', '{"groupBy":{"dateGrouping":"daily","dimension":7},"constructor":{}}');
      expect(messageOf(both.text)).toMatch(/groupBy\.dimension: Expected a dimension .*; constructor: unknown field$/);
    });
  });

  describe('validation before the answer cache', () => {
    // Before: the cache was consulted with the raw body, canonicalised: 1e999 parses to Infinity, which
    // JSON writes as null, so once `"dimension":null` was cached the invalid body was answered 200.
    it('answers a body that is a 400 cold with a 400 when an equivalent valid body is cached', async () => {
      const valid = await post('data', '{"groupBy":{"dateGrouping":"monthly","dimension":null}}');
      expect(valid.status).toBe(200);
      const cached = await post('data', '{"groupBy":{"dateGrouping":"monthly","dimension":null}}');
      expect(cached.headers.get('cache-status')).toBe('cost-insights-api; hit');
      const invalid = await post('data', '{"groupBy":{"dateGrouping":"monthly","dimension":1e999}}');
      expect(invalid.status).toBe(400);
      expect(messageOf(invalid.text)).toContain(`${INVALID} groupBy.dimension: Expected a dimension`);
    });
  });
});
