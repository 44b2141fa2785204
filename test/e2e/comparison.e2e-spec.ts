// modes: embedded server cluster — ClickHouse SQL
import { SAVINGS_SOURCES } from '../../src/cost-query/metrics';
import { sumDecimals } from '../support/decimals';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * POST /v1/cost-insights/compare. Expected values are recomputed here from the inserted decimal
 * strings; bucket lists are written out by hand.
 */
const SEPTEMBER = { start: '2026-09-01', end: '2026-09-30' };
const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };
const SEPTEMBER_WEEKS = ['2026-08-31', '2026-09-07', '2026-09-14', '2026-09-21', '2026-09-28'];
const OCTOBER_WEEKS = ['2026-09-28', '2026-10-05', '2026-10-12', '2026-10-19', '2026-10-26'];

/** A row with every measure set; `scale` makes another organisation's amounts differ. */
function row(usage_date: string, service: string, amortized: string, n: number, scale = 1): RowInput {
  const amount = (k: number) => `${(n * 3 + k) * scale}.${String((n + 1) * (k + 3) * 7_919).padStart(6, '0')}`;
  return {
    usage_date,
    service,
    amortized_cost: amortized,
    billed_cost: amount(1),
    cash_cost: amount(2),
    on_demand_cost: amount(9),
    enterprise_discount_savings: amount(0),
    product_discount_savings: amount(1),
    partner_discount_savings: '0',
    commitment_savings: amount(2),
    spot_savings: '0.0000000001',
    other_savings: amount(0),
  };
}

function estate(scale: number): RowInput[] {
  const amortized = (value: string) => (scale === 1 ? value : `${Number(value.split('.')[0]) * scale + 1}.5`);
  return [
    row('2026-08-31', 'Amazon EC2', amortized('999.99'), 0, scale), // before both periods
    row('2026-09-02', 'Amazon EC2', amortized('100.1234567891'), 1, scale),
    row('2026-09-29', 'Amazon EC2', amortized('50.5'), 2, scale),
    row('2026-10-02', 'Amazon EC2', amortized('200.25'), 3, scale),
    row('2026-10-20', 'Amazon EC2', amortized('10.0000000001'), 4, scale),
    row('2026-09-10', 'Amazon S3', amortized('80'), 5, scale),
    row('2026-10-10', 'Amazon S3', amortized('30.3'), 6, scale),
    row('2026-09-15', 'Amazon RDS', amortized('40.4'), 7, scale), // disappears
    row('2026-10-05', 'AWS Lambda', amortized('25.25'), 8, scale), // appears
    row('2026-09-20', 'Amazon CloudFront', amortized('12.34'), 9, scale), // unchanged
    row('2026-10-21', 'Amazon CloudFront', amortized('12.34'), 10, scale),
    row('2026-09-03', 'Free Tier', '0', 11, scale), // zero in both periods
    row('2026-10-03', 'Free Tier', '0', 12, scale),
    row('2026-10-25', 'Credits', amortized('-5.5'), 13, scale), // negative, from a zero baseline
    row('2026-11-01', 'Amazon EC2', amortized('777.77'), 14, scale), // after both periods
  ];
}

type Period = { start: string; end: string };
type MetricOf = (rows: RowInput[]) => number;

const amortizedOf: MetricOf = (rows) => sumDecimals(rows.map((r) => r.amortized_cost ?? '0'));
const onDemandOf: MetricOf = (rows) => sumDecimals(rows.map((r) => r.on_demand_cost ?? '0'));
const savingsOf: MetricOf = (rows) => sumDecimals(rows.flatMap((r) => SAVINGS_SOURCES.map((s) => r[s] ?? '0')));
const esrOf: MetricOf = (rows) => (onDemandOf(rows) === 0 ? 0 : savingsOf(rows) / onDemandOf(rows));

function monday(date: string): string {
  const value = new Date(`${date}T00:00:00Z`);
  value.setUTCDate(value.getUTCDate() - ((value.getUTCDay() + 6) % 7));
  return value.toISOString().slice(0, 10);
}
const within = (period: Period) => (r: RowInput) => r.usage_date >= period.start && r.usage_date <= period.end;

function expectedPercentage(baseline: number, comparison: number): number {
  if (baseline === 0) return comparison === 0 ? 0 : comparison > 0 ? 100 : -100;
  return ((comparison - baseline) / Math.abs(baseline)) * 100;
}

function expectDelta(actual: Record<string, unknown>, baseline: number, comparison: number): void {
  const absolute = comparison - baseline;
  expect(actual.absolute).toBeCloseTo(absolute, 8);
  expect(actual.percentage).toBeCloseTo(expectedPercentage(baseline, comparison), 8);
  expect(actual.direction).toBe(Math.abs(absolute) < 1e-11 ? 'unchanged' : absolute > 0 ? 'increase' : 'decrease');
}

interface Side {
  total: number;
  by_date: { date: string; value: number }[];
}

function expectSide(
  actual: Side,
  rows: RowInput[],
  period: Period,
  buckets: string[],
  bucketOf: (d: string) => string,
  metricOf: MetricOf,
) {
  const inPeriod = rows.filter(within(period));
  expect(actual.total).toBeCloseTo(metricOf(inPeriod), 8);
  expect(actual.by_date.map((p) => p.date)).toEqual(buckets);
  actual.by_date.forEach((point, i) => {
    expect(point.value).toBeCloseTo(metricOf(inPeriod.filter((r) => bucketOf(r.usage_date) === buckets[i])), 8);
  });
}

describe('POST /v1/cost-insights/compare', () => {
  let t: TestApp;
  let orgA: TestOrganization;
  let orgB: TestOrganization;
  const rowsA = estate(1);
  const rowsB = estate(3);

  const compare = (org: TestOrganization, body: unknown) =>
    t.http
      .post('/v1/cost-insights/compare')
      .set(org.auth)
      .send(body as object);

  beforeAll(async () => {
    t = await TestApp.start();
    [orgA, orgB] = await Promise.all([t.newOrganization(), t.newOrganization()]);
    await t.insertRows(orgA.organizationId, rowsA);
    await t.insertRows(orgB.organizationId, rowsB);
  });
  afterAll(async () => {
    await t.close();
  });

  it('compares a metric per dimension value, including values that appear or disappear', async () => {
    const response = await compare(orgA, {
      baselinePeriod: SEPTEMBER,
      comparisonPeriod: OCTOBER,
      metric: 'amortized_cost',
      groupBy: { dimension: 'service', dateGrouping: 'weekly' },
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const { comparisons, totals, metric_totals, metadata } = response.body.data;

    const services = [...new Set(rowsA.filter((r) => within(SEPTEMBER)(r) || within(OCTOBER)(r)).map((r) => r.service!))];
    const deltaOf = (service: string) => {
      const of = (period: Period) => amortizedOf(rowsA.filter((r) => r.service === service && within(period)(r)));
      return of(OCTOBER) - of(SEPTEMBER);
    };
    const expectedOrder = [...services].sort((a, b) => Math.abs(deltaOf(b)) - Math.abs(deltaOf(a)) || (a < b ? -1 : 1));
    expect(expectedOrder).toEqual(['Amazon EC2', 'Amazon S3', 'Amazon RDS', 'AWS Lambda', 'Credits', 'Amazon CloudFront', 'Free Tier']);
    expect(comparisons.map((c: { dimension_value: string }) => c.dimension_value)).toEqual(expectedOrder);

    for (const comparison of comparisons) {
      const serviceRows = rowsA.filter((r) => r.service === comparison.dimension_value);
      expectSide(comparison.baseline, serviceRows, SEPTEMBER, SEPTEMBER_WEEKS, monday, amortizedOf);
      expectSide(comparison.comparison, serviceRows, OCTOBER, OCTOBER_WEEKS, monday, amortizedOf);
      expectDelta(comparison.delta, amortizedOf(serviceRows.filter(within(SEPTEMBER))), amortizedOf(serviceRows.filter(within(OCTOBER))));
    }
    const byValue = Object.fromEntries(comparisons.map((c: { dimension_value: string }) => [c.dimension_value, c]));
    expect(byValue['Amazon EC2'].delta.direction).toBe('increase');
    expect(byValue['Amazon S3'].delta.direction).toBe('decrease');
    expect(byValue['Amazon CloudFront'].delta).toEqual({ absolute: 0, percentage: 0, direction: 'unchanged' });
    expect(byValue['Free Tier'].delta).toEqual({ absolute: 0, percentage: 0, direction: 'unchanged' });
    expect(byValue['AWS Lambda'].delta.percentage).toBe(100);
    expect(byValue['AWS Lambda'].baseline.total).toBe(0);
    expect(byValue['Amazon RDS'].delta.percentage).toBe(-100);
    expect(byValue['Amazon RDS'].comparison.by_date.every((p: { value: number }) => p.value === 0)).toBe(true);
    expect(byValue.Credits.delta).toMatchObject({ percentage: -100, direction: 'decrease' });
    // The week of 28 Sep straddles both periods: each side counts only its own days.
    expect(byValue['Amazon EC2'].baseline.by_date[4]).toEqual({ date: '2026-09-28', value: 50.5 });
    expect(byValue['Amazon EC2'].comparison.by_date[0]).toEqual({ date: '2026-09-28', value: 200.25 });

    const september = rowsA.filter(within(SEPTEMBER));
    const october = rowsA.filter(within(OCTOBER));
    expect(totals.baseline).toBeCloseTo(amortizedOf(september), 8);
    expect(totals.comparison).toBeCloseTo(amortizedOf(october), 8);
    expectDelta(totals.delta, amortizedOf(september), amortizedOf(october));

    expect(Object.keys(metric_totals).sort()).toEqual(['amortized_cost', 'effective_savings_rate', 'on_demand_cost', 'total_savings']);
    for (const [key, metricOf] of Object.entries({
      amortized_cost: amortizedOf,
      on_demand_cost: onDemandOf,
      total_savings: savingsOf,
      effective_savings_rate: esrOf,
    })) {
      expect(metric_totals[key].baseline).toBeCloseTo(metricOf(september), 8);
      expect(metric_totals[key].comparison).toBeCloseTo(metricOf(october), 8);
      expectDelta(metric_totals[key].delta, metricOf(september), metricOf(october));
    }

    expect(metadata).toEqual({
      baseline_period: SEPTEMBER,
      comparison_period: OCTOBER,
      metric: 'amortized_cost',
      baseline_label: 'September 2026',
      comparison_label: 'October 2026',
    });
  });

  it('returns one Total row, bucketed daily and zero-filled by default, without a dimension', async () => {
    const response = await compare(orgA, {
      baselinePeriod: SEPTEMBER,
      comparisonPeriod: OCTOBER,
      metric: 'on_demand_cost',
      groupBy: { dimension: null }, // null is treated as absent
    });
    expect(response.status).toBe(200);
    const { comparisons, totals } = response.body.data;
    expect(comparisons).toHaveLength(1);
    expect(comparisons[0].dimension_value).toBe('Total');
    const days = (period: Period, count: number) =>
      Array.from({ length: count }, (_, i) => `${period.start.slice(0, 8)}${String(i + 1).padStart(2, '0')}`);
    expectSide(comparisons[0].baseline, rowsA, SEPTEMBER, days(SEPTEMBER, 30), (d) => d, onDemandOf);
    expectSide(comparisons[0].comparison, rowsA, OCTOBER, days(OCTOBER, 31), (d) => d, onDemandOf);
    expect(comparisons[0].baseline.by_date.filter((p: { value: number }) => p.value === 0).length).toBeGreaterThan(20);
    expect(totals.baseline).toBeCloseTo(comparisons[0].baseline.total, 10);
  });

  it('computes the effective savings rate from the sums of each bucket and period', async () => {
    const response = await compare(orgA, {
      baselinePeriod: SEPTEMBER,
      comparisonPeriod: OCTOBER,
      metric: 'effective_savings_rate',
      groupBy: { dimension: 'service', dateGrouping: 'monthly' },
    });
    expect(response.status).toBe(200);
    const { comparisons, totals } = response.body.data;
    for (const comparison of comparisons) {
      const serviceRows = rowsA.filter((r) => r.service === comparison.dimension_value);
      expectSide(comparison.baseline, serviceRows, SEPTEMBER, ['2026-09-01'], (d) => `${d.slice(0, 7)}-01`, esrOf);
      expectSide(comparison.comparison, serviceRows, OCTOBER, ['2026-10-01'], (d) => `${d.slice(0, 7)}-01`, esrOf);
    }
    expect(totals.baseline).toBeCloseTo(esrOf(rowsA.filter(within(SEPTEMBER))), 8);
    expect(totals.comparison).toBeCloseTo(esrOf(rowsA.filter(within(OCTOBER))), 8);
  });

  it('counts days in both periods when the periods overlap', async () => {
    const baselinePeriod = { start: '2026-09-15', end: '2026-10-15' };
    const response = await compare(orgA, {
      baselinePeriod,
      comparisonPeriod: OCTOBER,
      metric: 'amortized_cost',
      groupBy: { dateGrouping: 'monthly' },
    });
    expect(response.status).toBe(200);
    const { comparisons, totals, metadata } = response.body.data;
    const overlap = rowsA.filter(within({ start: '2026-10-01', end: '2026-10-15' }));
    expect(overlap.length).toBeGreaterThan(2);
    expect(totals.baseline).toBeCloseTo(amortizedOf(rowsA.filter(within(baselinePeriod))), 8);
    expect(totals.comparison).toBeCloseTo(amortizedOf(rowsA.filter(within(OCTOBER))), 8);
    expectSide(comparisons[0].baseline, rowsA, baselinePeriod, ['2026-09-01', '2026-10-01'], (d) => `${d.slice(0, 7)}-01`, amortizedOf);
    expect(metadata.baseline_label).toBe('15 Sep – 15 Oct 2026');
  });

  it('applies the same filters to both periods', async () => {
    const response = await compare(orgA, {
      baselinePeriod: SEPTEMBER,
      comparisonPeriod: OCTOBER,
      metric: 'amortized_cost',
      groupBy: { dimension: 'service', dateGrouping: 'monthly' },
      filters: { inclusions: { services: ['Amazon EC2', 'Amazon S3', 'Amazon RDS'] }, exclusions: { services: ['Amazon RDS'] } },
    });
    expect(response.status).toBe(200);
    const { comparisons, totals } = response.body.data;
    expect(comparisons.map((c: { dimension_value: string }) => c.dimension_value)).toEqual(['Amazon EC2', 'Amazon S3']);
    const kept = rowsA.filter((r) => ['Amazon EC2', 'Amazon S3'].includes(r.service!));
    expect(totals.baseline).toBeCloseTo(amortizedOf(kept.filter(within(SEPTEMBER))), 8);
    expect(totals.comparison).toBeCloseTo(amortizedOf(kept.filter(within(OCTOBER))), 8);
  });

  it('confines each organisation to its own rows', async () => {
    const response = await compare(orgB, {
      baselinePeriod: SEPTEMBER,
      comparisonPeriod: OCTOBER,
      metric: 'amortized_cost',
      groupBy: { dimension: 'service', dateGrouping: 'weekly' },
    });
    expect(response.status).toBe(200);
    const { comparisons, totals } = response.body.data;
    expect(totals.baseline).toBeCloseTo(amortizedOf(rowsB.filter(within(SEPTEMBER))), 8);
    expect(totals.comparison).toBeCloseTo(amortizedOf(rowsB.filter(within(OCTOBER))), 8);
    expect(totals.baseline).not.toBeCloseTo(amortizedOf(rowsA.filter(within(SEPTEMBER))), 2);
    for (const comparison of comparisons) {
      const serviceRows = rowsB.filter((r) => r.service === comparison.dimension_value);
      expectSide(comparison.comparison, serviceRows, OCTOBER, OCTOBER_WEEKS, monday, amortizedOf);
    }
  });

  it('answers an organisation without data with zeros', async () => {
    const org = await t.newOrganization();
    const grouped = await compare(org, {
      baselinePeriod: SEPTEMBER,
      comparisonPeriod: OCTOBER,
      metric: 'total_savings',
      groupBy: { dimension: 'tag:env', dateGrouping: 'monthly' },
    });
    expect(grouped.status).toBe(200);
    expect(grouped.body.data.comparisons).toEqual([]);
    expect(grouped.body.data.totals).toEqual({
      baseline: 0,
      comparison: 0,
      delta: { absolute: 0, percentage: 0, direction: 'unchanged' },
    });
    const ungrouped = await compare(org, {
      baselinePeriod: SEPTEMBER,
      comparisonPeriod: OCTOBER,
      metric: 'total_savings',
      groupBy: { dateGrouping: 'monthly' },
    });
    expect(ungrouped.body.data.comparisons).toEqual([
      {
        dimension_value: 'Total',
        baseline: { total: 0, by_date: [{ date: '2026-09-01', value: 0 }] },
        comparison: { total: 0, by_date: [{ date: '2026-10-01', value: 0 }] },
        delta: { absolute: 0, percentage: 0, direction: 'unchanged' },
      },
    ]);
  });

  describe('validation', () => {
    const valid = { baselinePeriod: SEPTEMBER, comparisonPeriod: OCTOBER, metric: 'amortized_cost' };
    const invalid = async (body: unknown) => {
      const response = await compare(orgA, body);
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.error.message).toMatch(/^Invalid request\. Please see message details\. /);
      return response.body.error.message as string;
    };

    it('requires both periods and the metric', async () => {
      const message = await invalid({});
      expect(message).toContain('baselinePeriod: Expected object, received undefined');
      expect(message).toContain('comparisonPeriod: Expected object, received undefined');
      expect(message).toContain('metric: Expected one of amortized_cost, billed_cost,');
      expect(await invalid({ ...valid, metric: 'profit' })).toContain('received "profit"');
    });

    it('rejects dates in the filters: the periods set them', async () => {
      expect(await invalid({ ...valid, filters: { inclusions: { dateRange: SEPTEMBER } } })).toContain(
        'filters.inclusions.dateRange: not allowed in /compare',
      );
      expect(await invalid({ ...valid, filters: { exclusions: { billingPeriods: ['2026-09'] } } })).toContain(
        'filters.exclusions.billingPeriods: not allowed in /compare',
      );
    });

    it('rejects impossible, reversed and over-long periods', async () => {
      expect(await invalid({ ...valid, baselinePeriod: { start: '2026-02-30', end: '2026-03-02' } })).toContain(
        'baselinePeriod.start: "2026-02-30" is not a real calendar date',
      );
      expect(await invalid({ ...valid, comparisonPeriod: { start: '2026-10-31', end: '2026-10-01' } })).toContain(
        'comparisonPeriod.end: start must be on or before end',
      );
      expect(await invalid({ ...valid, comparisonPeriod: { start: '2020-01-01', end: '2026-10-31' } })).toContain(
        'comparisonPeriod: spans 2496 days; at most 1098 days are allowed',
      );
    });

    it('rejects an unknown dimension or date grouping', async () => {
      expect(await invalid({ ...valid, groupBy: { dimension: 'colour' } })).toContain('groupBy.dimension: Expected a dimension');
      expect(await invalid({ ...valid, groupBy: { dateGrouping: 'yearly' } })).toContain(
        'groupBy.dateGrouping: Expected one of daily, weekly, monthly, received "yearly"',
      );
    });
  });

  describe('authentication', () => {
    it('answers 401 without a key and 403 without cost:read', async () => {
      const anonymous = await t.http.post('/v1/cost-insights/compare').send({});
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ message: 'Unauthorized' });
      const org = await t.newOrganization(['shared-filters:read']);
      const forbidden = await compare(org, { baselinePeriod: SEPTEMBER, comparisonPeriod: OCTOBER, metric: 'amortized_cost' });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.success).toBe(false);
    });
  });
});
