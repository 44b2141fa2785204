// modes: embedded server cluster — ClickHouse SQL
import { MEASURE_COLUMNS, MeasureColumn, METRIC_NAMES, METRICS, SAVINGS_SOURCES } from '../../src/cost-query/metrics';
import { sumDecimals } from '../support/decimals';
import { E2E_MODE } from '../support/e2e-mode';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * POST /v1/cost-insights/data. Every expectation is recomputed here from the inserted decimal
 * strings (exact BigInt sums), never taken from the service's output; the metrics' names are the
 * metrics table's (held against the spec by src/cost-query/one-definition.spec.ts).
 */
const NOT_SET = '(not set)';

/** Distinct, exact amounts for every measure of the n-th row (10 decimal places). */
function amounts(n: number): Record<MeasureColumn, string> {
  return Object.fromEntries(
    MEASURE_COLUMNS.map((measure, k) => [
      measure,
      `${((n * 13 + k * 7) % 90) + 1}.${String(((n + 1) * 7919 + (k + 1) * 104_729) % 10_000_000_000).padStart(10, '0')}`,
    ]),
  ) as Record<MeasureColumn, string>;
}

function row(n: number, usage_date: string, extra: Partial<RowInput> = {}): RowInput {
  return { usage_date, ...amounts(n), ...extra };
}

/** The main estate: weeks around month ends, two regions, tags and categories present, empty or absent. */
function estate(offset: number): RowInput[] {
  const n = (i: number) => i + offset;
  return [
    row(n(0), '2026-09-28', { service: 'Amazon EC2', resource_tags: { env: 'prod' }, cost_categories: { Team: 'Platform' } }),
    row(n(1), '2026-09-30', { service: 'Amazon S3', region: 'eu-west-1' }),
    row(n(2), '2026-10-01', { service: 'Amazon EC2', resource_tags: { env: 'prod' }, cost_categories: { Team: 'Platform' } }),
    row(n(3), '2026-10-01', { service: 'Amazon S3', region: 'eu-west-1', resource_tags: { env: 'dev' } }),
    row(n(4), '2026-10-04', { service: 'AWS Lambda', resource_tags: { env: '' }, cost_categories: { Team: 'Data' } }),
    row(n(5), '2026-10-05', { service: 'Amazon EC2', region: 'eu-west-1', resource_tags: { owner: 'ana' } }),
    row(n(6), '2026-10-11', { service: 'Amazon S3', resource_tags: { env: 'prod' }, cost_categories: { Team: 'Data' } }),
    row(n(7), '2026-10-12', { service: 'Amazon EC2', resource_tags: { env: 'dev' }, cost_categories: { Team: 'Platform' } }),
    row(n(8), '2026-10-12', { service: 'Amazon EC2', resource_tags: { env: 'dev' }, cost_categories: { Team: 'Platform' } }),
    row(n(9), '2026-10-20', { service: 'Amazon S3', region: 'eu-west-1', cost_categories: { Team: '' } }),
    row(n(10), '2026-10-31', { service: 'AWS Lambda', region: 'eu-west-1', resource_tags: { env: 'prod' } }),
    // Usage in October, billed in September (a late charge): only billingPeriods tells them apart.
    row(n(11), '2026-10-15', { service: 'Amazon EC2', billing_period: '2026-09' }),
    row(n(12), '2026-11-01', { service: 'Amazon EC2' }),
    row(n(13), '2026-11-02', { service: 'Amazon S3' }),
  ];
}

interface ExpectedItem {
  usage_date: string;
  dimension_value?: string;
  dimension_values?: Record<string, string>;
  metrics: Record<string, number>;
}

function metricsOf(rows: RowInput[]): Record<string, number> {
  const metrics: Record<string, number> = {};
  for (const measure of MEASURE_COLUMNS) metrics[measure] = sumDecimals(rows.map((r) => r[measure] ?? '0'));
  metrics.total_savings = sumDecimals(rows.flatMap((r) => SAVINGS_SOURCES.map((s) => r[s] ?? '0')));
  return metrics;
}

const day = (date: string) => date;
const month = (date: string) => `${date.slice(0, 7)}-01`;
/** Monday of the date's week, computed from the weekday (independently of the service's code). */
function monday(date: string): string {
  const value = new Date(`${date}T00:00:00Z`);
  const sinceMonday = (value.getUTCDay() + 6) % 7;
  value.setUTCDate(value.getUTCDate() - sinceMonday);
  return value.toISOString().slice(0, 10);
}

const inRange = (start: string, end: string) => (r: RowInput) => r.usage_date >= start && r.usage_date <= end;
const serviceOf = (r: RowInput) => r.service ?? 'Amazon EC2';
const regionOf = (r: RowInput) => r.region ?? 'us-east-1';
const tagOf = (key: string) => (r: RowInput) => r.resource_tags?.[key] || NOT_SET;
const categoryOf = (key: string) => (r: RowInput) => r.cost_categories?.[key] || NOT_SET;

/** Groups rows by bucket and dimension value(s), ordered by date then values (byte order, like the store). */
function aggregate(
  rows: RowInput[],
  bucket: (date: string) => string,
  dimensions: { name: string; of: (r: RowInput) => string }[] = [],
  multi = false,
): ExpectedItem[] {
  const groups = new Map<string, RowInput[]>();
  for (const r of rows) {
    const key = JSON.stringify([bucket(r.usage_date), ...dimensions.map((d) => d.of(r))]);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const compare = (a: string[], b: string[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  };
  return [...groups.entries()]
    .map(([key, members]) => ({ key: JSON.parse(key) as string[], members }))
    .sort((a, b) => compare(a.key, b.key))
    .map(({ key, members }) => {
      const item: ExpectedItem = { usage_date: key[0], metrics: metricsOf(members) };
      if (multi) item.dimension_values = Object.fromEntries(dimensions.map((d, i) => [d.name, key[i + 1]]));
      else if (dimensions.length === 1) item.dimension_value = key[1];
      return item;
    });
}

type Item = Record<string, unknown>;

function expectItems(actual: Item[], expected: ExpectedItem[]): void {
  expect(actual.map((i) => [i.usage_date, i.dimension_value, i.dimension_values])).toEqual(
    expected.map((e) => [e.usage_date, e.dimension_value, e.dimension_values]),
  );
  actual.forEach((item, index) => {
    expect(Object.keys(item).sort()).toEqual(
      [
        'usage_date',
        ...(expected[index].dimension_value !== undefined ? ['dimension_value'] : []),
        ...(expected[index].dimension_values ? ['dimension_values'] : []),
        ...METRIC_NAMES,
      ].sort(),
    );
    for (const metric of METRIC_NAMES) {
      expect(typeof item[metric]).toBe('number');
      expect(item[metric]).toBeCloseTo(expected[index].metrics[metric], 8);
    }
  });
}

function expectSummary(actual: Record<string, number>, rows: RowInput[]): void {
  const m = metricsOf(rows);
  const expected: Record<string, number> = {
    ...Object.fromEntries(METRICS.map((metric) => [metric.summaryName, m[metric.name]])),
    effective_savings_rate: m.on_demand_cost === 0 ? 0 : m.total_savings / m.on_demand_cost,
  };
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [key, value] of Object.entries(expected)) expect(actual[key]).toBeCloseTo(value, 8);
}

function isoDaysAgo(days: number): string {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };

describe('POST /v1/cost-insights/data', () => {
  let t: TestApp;
  let orgA: TestOrganization;
  let orgB: TestOrganization;
  let rowsA: RowInput[];
  let rowsB: RowInput[];

  const data = (org: TestOrganization, body: unknown) =>
    t.http
      .post('/v1/cost-insights/data')
      .set(org.auth)
      .send(body as object);

  beforeAll(async () => {
    t = await TestApp.start();
    [orgA, orgB] = await Promise.all([t.newOrganization(), t.newOrganization()]);
    rowsA = estate(0);
    // Organisation B: same dates, services, tags and categories, different amounts.
    rowsB = estate(40);
    await t.insertRows(orgA.organizationId, rowsA);
    await t.insertRows(orgB.organizationId, rowsB);
  });
  afterAll(async () => {
    await t.close();
  });

  it('returns a daily series by service and the period summary, both ends of the range included', async () => {
    const response = await data(orgA, {
      filters: { inclusions: { dateRange: OCTOBER } },
      groupBy: { dateGrouping: 'daily', dimension: 'service' },
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const inOctober = rowsA.filter(inRange(OCTOBER.start, OCTOBER.end));
    expect(inOctober.some((r) => r.usage_date === '2026-10-01') && inOctober.some((r) => r.usage_date === '2026-10-31')).toBe(true);
    expectItems(response.body.data.items, aggregate(inOctober, day, [{ name: 'service', of: serviceOf }]));
    expectSummary(response.body.data.summary, inOctober);
    expect(response.body.data.summary.effective_savings_rate).toBeGreaterThan(0);
  });

  it('confines each organisation to its own rows', async () => {
    const response = await data(orgB, {
      filters: { inclusions: { dateRange: OCTOBER } },
      groupBy: { dateGrouping: 'monthly', dimension: 'service' },
    });
    expect(response.status).toBe(200);
    const inOctober = rowsB.filter(inRange(OCTOBER.start, OCTOBER.end));
    expectItems(response.body.data.items, aggregate(inOctober, month, [{ name: 'service', of: serviceOf }]));
    expectSummary(response.body.data.summary, inOctober);
  });

  it('buckets weeks from Monday, across a week boundary and Sundays, with one item per bucket without a dimension', async () => {
    // Thu 1 Oct .. Mon 12 Oct: rows on Thu 1, Sun 4 | Mon 5, Sun 11 | Mon 12.
    const range = { start: '2026-10-01', end: '2026-10-12' };
    const response = await data(orgA, { filters: { inclusions: { dateRange: range } }, groupBy: { dateGrouping: 'weekly' } });
    expect(response.status).toBe(200);
    const items = response.body.data.items as Item[];
    expect(items.map((i) => i.usage_date)).toEqual(['2026-09-28', '2026-10-05', '2026-10-12']);
    const inRangeRows = rowsA.filter(inRange(range.start, range.end));
    expectItems(items, aggregate(inRangeRows, monday));
    expect(items[0].amortized_cost).toBeCloseTo(
      sumDecimals(rowsA.filter((r) => ['2026-10-01', '2026-10-04'].includes(r.usage_date)).map((r) => r.amortized_cost!)),
      8,
    );
    expectSummary(response.body.data.summary, inRangeRows);
  });

  it('buckets months on their first day', async () => {
    const range = { start: '2026-09-01', end: '2026-11-30' };
    const response = await data(orgA, {
      filters: { inclusions: { dateRange: range } },
      groupBy: { dateGrouping: 'monthly', dimension: 'region' },
    });
    expect(response.status).toBe(200);
    expect([...new Set((response.body.data.items as Item[]).map((i) => i.usage_date))]).toEqual(['2026-09-01', '2026-10-01', '2026-11-01']);
    expectItems(response.body.data.items, aggregate(rowsA, month, [{ name: 'region', of: regionOf }]));
    expectSummary(response.body.data.summary, rowsA);
  });

  it('groups by several dimensions, which take precedence over dimension', async () => {
    const response = await data(orgA, {
      filters: { inclusions: { dateRange: OCTOBER } },
      groupBy: { dateGrouping: 'monthly', dimension: 'region', dimensions: ['service', 'tag:env'] },
    });
    expect(response.status).toBe(200);
    const expected = aggregate(
      rowsA.filter(inRange(OCTOBER.start, OCTOBER.end)),
      month,
      [
        { name: 'service', of: serviceOf },
        { name: 'tag:env', of: tagOf('env') },
      ],
      true,
    );
    expect(expected.length).toBeGreaterThan(4);
    expectItems(response.body.data.items, expected);
    for (const item of response.body.data.items as Item[]) expect(item).not.toHaveProperty('dimension_value');
  });

  it('treats a null dimensions like an absent one', async () => {
    const response = await data(orgA, {
      filters: { inclusions: { dateRange: OCTOBER } },
      groupBy: { dateGrouping: 'monthly', dimension: 'service', dimensions: null },
    });
    expect(response.status).toBe(200);
    expectItems(
      response.body.data.items,
      aggregate(rowsA.filter(inRange(OCTOBER.start, OCTOBER.end)), month, [{ name: 'service', of: serviceOf }]),
    );
  });

  it('groups by a tag, putting rows without it (absent or empty) under (not set)', async () => {
    const response = await data(orgA, {
      filters: { inclusions: { dateRange: OCTOBER } },
      groupBy: { dateGrouping: 'monthly', dimension: 'tag:env' },
    });
    expect(response.status).toBe(200);
    const items = response.body.data.items as Item[];
    expect(items.map((i) => i.dimension_value)).toEqual([NOT_SET, 'dev', 'prod']);
    expectItems(items, aggregate(rowsA.filter(inRange(OCTOBER.start, OCTOBER.end)), month, [{ name: 'tag:env', of: tagOf('env') }]));
  });

  it('groups by a cost category', async () => {
    const response = await data(orgA, {
      filters: { inclusions: { dateRange: OCTOBER } },
      groupBy: { dateGrouping: 'weekly', dimension: 'costCategory:Team' },
    });
    expect(response.status).toBe(200);
    const expected = aggregate(rowsA.filter(inRange(OCTOBER.start, OCTOBER.end)), monday, [
      { name: 'costCategory:Team', of: categoryOf('Team') },
    ]);
    expect(new Set(expected.map((e) => e.dimension_value))).toEqual(new Set([NOT_SET, 'Data', 'Platform']));
    expectItems(response.body.data.items, expected);
  });

  it('ANDs inclusion fields and ORs the values inside one', async () => {
    const response = await data(orgA, {
      filters: { inclusions: { dateRange: OCTOBER, services: ['Amazon EC2', 'Amazon S3'], regions: ['us-east-1'] } },
      groupBy: { dateGrouping: 'daily', dimension: 'service' },
    });
    expect(response.status).toBe(200);
    const matching = rowsA
      .filter(inRange(OCTOBER.start, OCTOBER.end))
      .filter((r) => ['Amazon EC2', 'Amazon S3'].includes(serviceOf(r)) && regionOf(r) === 'us-east-1');
    expect(new Set(matching.map(serviceOf)).size).toBe(2);
    expectItems(response.body.data.items, aggregate(matching, day, [{ name: 'service', of: serviceOf }]));
    expectSummary(response.body.data.summary, matching);
  });

  it("answers a list of 1,000 values of 200 characters, or a 400 where a ClickHouse server's HTTP interface refuses it", async () => {
    // Within the request's own limits (1,000 values of up to 512 characters); 200 KB in one list is more than a
    // server's http_max_field_value_size (128 KiB by default). The embedded engine has no HTTP interface.
    const services = ['Amazon EC2', ...Array.from({ length: 999 }, (_, i) => `Service ${i} `.padEnd(200, '.'))];
    const response = await data(orgA, { filters: { inclusions: { dateRange: OCTOBER, services } }, groupBy: { dateGrouping: 'monthly' } });
    if (E2E_MODE === 'embedded') {
      expect(response.status).toBe(200);
      expectSummary(
        response.body.data.summary,
        rowsA.filter(inRange(OCTOBER.start, OCTOBER.end)).filter((r) => serviceOf(r) === 'Amazon EC2'),
      );
      return;
    }
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: {
        message: expect.stringMatching(
          /^Invalid request\. Please see message details\. query: its values are more than the ClickHouse server takes/,
        ),
      },
    });
    expect(response.body.error.message).toContain('http_max_field_value_size');
  });

  it('removes rows matching any exclusion field, each independently', async () => {
    const response = await data(orgA, {
      filters: { inclusions: { dateRange: OCTOBER }, exclusions: { services: ['Amazon S3'], regions: ['eu-west-1'] } },
      groupBy: { dateGrouping: 'monthly', dimension: 'service' },
    });
    expect(response.status).toBe(200);
    const kept = rowsA
      .filter(inRange(OCTOBER.start, OCTOBER.end))
      .filter((r) => serviceOf(r) !== 'Amazon S3' && regionOf(r) !== 'eu-west-1');
    expectItems(response.body.data.items, aggregate(kept, month, [{ name: 'service', of: serviceOf }]));
    expectSummary(response.body.data.summary, kept);
  });

  it('filters on a tag key alone: inclusions keep rows that have it, exclusions rows that lack it', async () => {
    const hasEnv = (r: RowInput) => r.resource_tags !== undefined && 'env' in r.resource_tags;
    const october = rowsA.filter(inRange(OCTOBER.start, OCTOBER.end));
    const including = await data(orgA, {
      filters: { inclusions: { dateRange: OCTOBER, resourceTag: 'env' } },
      groupBy: { dateGrouping: 'monthly' },
    });
    expect(including.status).toBe(200);
    expectSummary(including.body.data.summary, october.filter(hasEnv));
    const excluding = await data(orgA, {
      filters: { inclusions: { dateRange: OCTOBER }, exclusions: { resourceTag: 'env' } },
      groupBy: { dateGrouping: 'monthly' },
    });
    expect(excluding.status).toBe(200);
    expectSummary(
      excluding.body.data.summary,
      october.filter((r) => !hasEnv(r)),
    );
    expect(october.filter(hasEnv).length).toBeGreaterThan(0);
    expect(october.filter((r) => !hasEnv(r)).length).toBeGreaterThan(0);
  });

  it('filters on tag values, and (not set) selects rows without one', async () => {
    const response = await data(orgA, {
      filters: { inclusions: { dateRange: OCTOBER, resourceTag: 'env', resourceTagValues: ['dev', NOT_SET] } },
      groupBy: { dateGrouping: 'monthly', dimension: 'tag:env' },
    });
    expect(response.status).toBe(200);
    const matching = rowsA.filter(inRange(OCTOBER.start, OCTOBER.end)).filter((r) => ['dev', NOT_SET].includes(tagOf('env')(r)));
    expectItems(response.body.data.items, aggregate(matching, month, [{ name: 'tag:env', of: tagOf('env') }]));
  });

  it('selects by billing period instead of a date window when billingPeriods is given', async () => {
    const response = await data(orgA, {
      filters: { inclusions: { billingPeriods: ['2026-09'] } },
      groupBy: { dateGrouping: 'monthly' },
    });
    expect(response.status).toBe(200);
    const september = rowsA.filter((r) => (r.billing_period ?? r.usage_date.slice(0, 7)) === '2026-09');
    expect(september.map((r) => r.usage_date).sort()).toEqual(['2026-09-28', '2026-09-30', '2026-10-15']);
    expectItems(response.body.data.items, aggregate(september, month));
    expectSummary(response.body.data.summary, september);
  });

  it('defaults to the last 30 days up to today', async () => {
    const org = await t.newOrganization();
    const recent = row(1, isoDaysAgo(5), { service: 'Recent' });
    const old = row(2, isoDaysAgo(60), { service: 'Old' });
    await t.insertRows(org.organizationId, [recent, old]);
    const response = await data(org, { groupBy: { dateGrouping: 'daily', dimension: 'service' } });
    expect(response.status).toBe(200);
    expectItems(response.body.data.items, aggregate([recent], day, [{ name: 'service', of: serviceOf }]));
    expectSummary(response.body.data.summary, [recent]);
  });

  it('reports an effective savings rate of 0 when there is no on-demand cost', async () => {
    const org = await t.newOrganization();
    const rows = [row(3, '2026-10-02', { on_demand_cost: '0', commitment_savings: '12.5' })];
    await t.insertRows(org.organizationId, rows);
    const response = await data(org, { filters: { inclusions: { dateRange: OCTOBER } }, groupBy: { dateGrouping: 'monthly' } });
    expect(response.status).toBe(200);
    expect(response.body.data.summary.total_savings).toBeGreaterThan(0);
    expect(response.body.data.summary.effective_savings_rate).toBe(0);
    expectSummary(response.body.data.summary, rows);
  });

  it('answers an empty selection with no items and a zero summary', async () => {
    const org = await t.newOrganization();
    const response = await data(org, { filters: { inclusions: { dateRange: OCTOBER } }, groupBy: { dateGrouping: 'daily' } });
    expect(response.status).toBe(200);
    expect(response.body.data.items).toEqual([]);
    expectSummary(response.body.data.summary, []);
    expect(Object.values(response.body.data.summary).every((v) => v === 0)).toBe(true);
  });

  describe('validation', () => {
    const invalid = async (body: unknown) => {
      const response = await data(orgA, body);
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.error.message).toMatch(/^Invalid request\. Please see message details\. /);
      return response.body.error.message as string;
    };

    it('ends the message with groupBy as a required object when it is missing', async () => {
      expect(await invalid({})).toMatch(/groupBy: Expected object, received undefined$/);
      expect(await invalid({ filters: { inclusions: { service: ['x'] } } })).toMatch(
        /filters\.inclusions\.service: unknown field.*groupBy: Expected object, received undefined$/,
      );
    });

    it('requires a known dateGrouping', async () => {
      expect(await invalid({ groupBy: {} })).toContain('groupBy.dateGrouping: Expected one of daily, weekly, monthly, received undefined');
      expect(await invalid({ groupBy: { dateGrouping: 'hourly' } })).toContain(
        'groupBy.dateGrouping: Expected one of daily, weekly, monthly, received "hourly"',
      );
    });

    it('rejects an unknown dimension and lists the accepted ones', async () => {
      const message = await invalid({ groupBy: { dateGrouping: 'daily', dimension: 'colour' } });
      expect(message).toContain('groupBy.dimension: Expected a dimension (one of costLayer, cloud, service,');
      expect(message).toContain('tag:<tag key>, or costCategory:<category key>');
      expect(message).toContain('received "colour"');
      expect(await invalid({ groupBy: { dateGrouping: 'daily', dimension: 'tag:' } })).toContain('groupBy.dimension:');
    });

    it('rejects invalid, duplicate, empty and too many dimensions', async () => {
      expect(await invalid({ groupBy: { dateGrouping: 'daily', dimensions: ['service', 'colour'] } })).toContain(
        'groupBy.dimensions[1]: Expected a dimension',
      );
      expect(await invalid({ groupBy: { dateGrouping: 'daily', dimensions: ['service', 'service'] } })).toContain(
        'groupBy.dimensions[1]: "service" is listed twice',
      );
      expect(await invalid({ groupBy: { dateGrouping: 'daily', dimensions: [] } })).toContain(
        'groupBy.dimensions: Expected 1 to 3 dimensions, received 0',
      );
      expect(await invalid({ groupBy: { dateGrouping: 'daily', dimensions: ['service', 'region', 'cloud', 'account'] } })).toContain(
        'groupBy.dimensions: Expected 1 to 3 dimensions, received 4',
      );
    });

    it('rejects unknown filter fields instead of ignoring them', async () => {
      expect(await invalid({ filters: { inclusions: { service: ['Amazon S3'] } }, groupBy: { dateGrouping: 'daily' } })).toContain(
        'filters.inclusions.service: unknown field',
      );
    });

    it('rejects impossible dates, reversed ranges and spans over the limit', async () => {
      const withRange = (dateRange: unknown) => ({ filters: { inclusions: { dateRange } }, groupBy: { dateGrouping: 'daily' } });
      expect(await invalid(withRange({ start: '2026-02-30', end: '2026-03-01' }))).toContain(
        'filters.inclusions.dateRange.start: "2026-02-30" is not a real calendar date',
      );
      expect(await invalid(withRange({ start: '2026-10-31', end: '2026-10-01' }))).toContain(
        'filters.inclusions.dateRange.end: start must be on or before end',
      );
      // MAX_DATE_RANGE_DAYS defaults to 1098 days.
      expect(await invalid(withRange({ start: '2020-01-01', end: '2026-10-31' }))).toContain(
        'filters.inclusions.dateRange: spans 2496 days; at most 1098 days are allowed',
      );
    });

    it('rejects a malformed billing period', async () => {
      expect(await invalid({ filters: { inclusions: { billingPeriods: ['2026-13'] } }, groupBy: { dateGrouping: 'monthly' } })).toContain(
        'filters.inclusions.billingPeriods',
      );
    });
  });

  describe('authentication', () => {
    it('answers 401 without a valid key', async () => {
      const response = await t.http
        .post('/v1/cost-insights/data')
        .set({ Authorization: 'Bearer cik_nope' })
        .send({ groupBy: { dateGrouping: 'daily' } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'Unauthorized' });
    });

    it('answers 403 to a key without cost:read', async () => {
      const org = await t.newOrganization(['shared-filters:read', 'shared-filters:write']);
      const response = await data(org, { groupBy: { dateGrouping: 'daily' } });
      expect(response.status).toBe(403);
      expect(response.body.success).toBe(false);
      expect(response.body.error.message).toContain('cost:read');
    });
  });
});
