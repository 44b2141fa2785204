// modes: embedded server cluster — answers computed by the store's SQL
import type { Cost, DateAggregation, Entity, Group, MetricData, Project } from '@backstage/plugin-cost-insights-common';
import { CostInsightsApiClient, CostInsightsClientOptions } from '../../clients/backstage-cost-insights/src';
import { scaledToNumber, sumDecimals, toScaled } from '../support/decimals';
import { listen } from '../support/app-with-env';
import { costRow, RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * The Backstage Cost Insights client (clients/backstage-cost-insights) against the real API, with the plugin's
 * own data types. Requests go through a stand-in for the Backstage proxy (the only place the key is added).
 * Every expectation is computed here from the inserted rows.
 */
const TODAY = '2026-06-06';
const INTERVALS = 'R2/P30D/2026-06-06'; // what the plugin writes for a last complete billing date of 2026-06-05
const FIRST = { start: '2026-04-07', end: '2026-05-06' };
const SECOND = { start: '2026-05-07', end: '2026-06-05' };

function row(usage_date: string, amount: string, team: string | undefined, extra: Partial<RowInput> = {}): RowInput {
  return {
    usage_date,
    amortized_cost: amount,
    billed_cost: amount,
    on_demand_cost: '100',
    resource_tags: team ? { team, component: team === 'payments' ? 'checkout' : 'indexer' } : {},
    ...extra,
  };
}

const estate: RowInput[] = [
  row('2026-04-07', '10.5', 'payments', { service: 'Amazon EC2', account_id: '111', account_name: 'Production' }),
  row('2026-04-20', '20.25', 'payments', { service: 'Amazon S3', account_id: '111', account_name: 'Production' }),
  row('2026-05-06', '5.0000000001', 'payments', { service: 'Amazon EC2', account_id: '222', account_name: 'Staging' }),
  row('2026-05-07', '30', 'payments', { service: 'Amazon EC2', account_id: '111', account_name: 'Production' }),
  row('2026-05-20', '12.75', 'payments', {
    service: 'Amazon RDS',
    account_id: '222',
    account_name: 'Staging',
    usage_type: 'InstanceUsage:db.r6g',
  }),
  row('2026-05-20', '7.5', 'payments', { service: 'Amazon EC2', account_id: '222', account_name: 'Staging' }),
  row('2026-06-03', '40', 'payments', { service: 'Amazon EC2', account_id: '111', account_name: 'Production', region: 'eu-west-1' }),
  row('2026-05-10', '99', 'search', { service: 'Amazon EC2', account_id: '333', account_name: 'Search' }),
  row('2026-05-11', '1', undefined, { service: 'AWS Lambda', account_id: '111', account_name: 'Production' }),
  // Outside the 60-day window (before, and a quarter earlier for P3M).
  row('2026-04-06', '1000', 'payments', { service: 'Amazon EC2', account_id: '111', account_name: 'Production' }),
  row('2025-11-15', '300', 'payments', { service: 'Amazon EC2', account_id: '111', account_name: 'Production' }),
  row('2026-02-10', '450.5', 'payments', { service: 'Amazon S3', account_id: '111', account_name: 'Production' }),
];

const inRange = (range: { start: string; end: string }) => (r: RowInput) => r.usage_date >= range.start && r.usage_date <= range.end;
const team = (name: string) => (r: RowInput) => r.resource_tags?.team === name;
const total = (rows: RowInput[]) => sumDecimals(rows.map((r) => r.amortized_cost ?? '0'));

function days(start: string, end: string): string[] {
  const out: string[] = [];
  for (let day = new Date(`${start}T00:00:00Z`); day.toISOString().slice(0, 10) <= end; day.setUTCDate(day.getUTCDate() + 1)) {
    out.push(day.toISOString().slice(0, 10));
  }
  return out;
}

/** Every day of the window with the exact sum of that day's rows. */
function expectedDaily(rows: RowInput[], start: string, end: string): DateAggregation[] {
  return days(start, end).map((date) => ({ date, amount: total(rows.filter((r) => r.usage_date === date)) }));
}

function expectAggregation(actual: DateAggregation[], expected: DateAggregation[]): void {
  expect(actual.map((point) => point.date)).toEqual(expected.map((point) => point.date));
  actual.forEach((point, i) => expect(point.amount).toBeCloseTo(expected[i].amount, 8));
}

/**
 * A unit cost as the API states it: the exact cost × scale ÷ units, rounded half up to 10 places (costs here are not
 * negative), as the number the client reads from that text; null without units.
 */
function expectedUnitCost(costs: string[], units: string[], scale: number): number | null {
  const [cost, count] = [costs, units].map((values) => values.reduce((sum, value) => sum + toScaled(value), 0n));
  if (count === 0n) return null;
  const perUnitTimes1e10 = cost * BigInt(scale) * 10_000_000_000n;
  return scaledToNumber((perUnitTimes1e10 * 2n + count) / (2n * count));
}

const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

interface Cause {
  dimension: string;
  value: string;
  contribution: number;
}

/**
 * The root causes of a one-day anomaly of `series` (the rows of the monitored value) on `day`, as the API defines them:
 * each account, region, usage type and tag value's amount that day less its mean on the same weekday of the 4 weeks
 * before, the rises only, largest first (equal ones in the order account, region, usage type).
 */
function rootCausesOf(series: RowInput[], day: string): Cause[] {
  const sums = new Map<string, { dimension: string; value: string; actual: number; baseline: number }>();
  for (const input of series) {
    const r = costRow('', input); // with the columns' defaults
    const inBaseline = [7, 14, 21, 28].some((back) => r.usage_date === shift(day, -back));
    if (r.usage_date !== day && !inBaseline) continue;
    const causes: Array<[string, string]> = [
      ['account', r.account_id],
      ['region', r.region],
      ['usageType', r.usage_type],
      ...Object.entries(r.resource_tags).map(([key, value]): [string, string] => [`tag:${key}`, value]),
    ];
    for (const [dimension, value] of causes) {
      const sum = sums.get(`${dimension}=${value}`) ?? { dimension, value, actual: 0, baseline: 0 };
      sums.set(`${dimension}=${value}`, sum);
      if (inBaseline) sum.baseline += Number(r.amortized_cost);
      else sum.actual += Number(r.amortized_cost);
    }
  }
  return [...sums.values()]
    .map(({ dimension, value, actual, baseline }) => ({ dimension, value, contribution: actual - baseline / 4 }))
    .filter((cause) => cause.contribution > 0)
    .sort((a, b) => b.contribution - a.contribution || a.dimension.localeCompare(b.dimension) || a.value.localeCompare(b.value));
}

/** A root cause as an alert names it. */
const causeText = (cause: Cause) => `${cause.dimension} ${cause.value} +${cause.contribution.toFixed(2)} USD`;

/** The three an alert names, as its text. */
const rootCauseText = (series: RowInput[], day: string) => rootCausesOf(series, day).slice(0, 3).map(causeText).join(', ');

/** Least squares by the normal equations over day numbers, converted to the plugin's seconds: independent of the client's form. */
function expectedTrend(series: DateAggregation[]): (date: string) => number {
  const n = series.length;
  const x = series.map((_, i) => i);
  const sx = x.reduce((a, b) => a + b, 0);
  const sy = series.reduce((a, p) => a + p.amount, 0);
  const sxy = series.reduce((a, p, i) => a + i * p.amount, 0);
  const sxx = x.reduce((a, b) => a + b * b, 0);
  const perDay = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const atZero = (sy - perDay * sx) / n;
  const first = Date.parse(series[0].date);
  return (date) => atZero + (perDay * (Date.parse(date) - first)) / 86_400_000;
}

describe('Backstage Cost Insights client against the real API', () => {
  let t: TestApp;
  let base: string;
  let org: TestOrganization;
  const seen: Array<{ url: string; authorization: string | null }> = [];
  let addHeaders: Record<string, string> = {};

  /** The Backstage proxy's part: the browser's request carries no key; the proxy adds it from its configuration. */
  const proxyFetch = (key: string) => async (input: string, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    seen.push({ url: input, authorization: headers.get('authorization') });
    headers.set('Authorization', `Bearer ${key}`);
    const response = await fetch(input, { ...init, headers });
    if (!Object.keys(addHeaders).length) return response;
    const patched = new Headers(response.headers);
    for (const [name, value] of Object.entries(addHeaders)) patched.set(name, value);
    return new Response(await response.text(), { status: response.status, headers: patched });
  };
  const client = (organization: TestOrganization, options: Partial<CostInsightsClientOptions> = {}) =>
    new CostInsightsApiClient({
      baseUrl: async () => `${base}/v1`,
      fetch: proxyFetch(organization.key),
      groups: { tag: 'team' },
      today: () => TODAY,
      ...options,
    });

  beforeAll(async () => {
    t = await TestApp.start();
    base = await listen(t);
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, estate);
  });
  afterAll(async () => {
    await t.close();
  });

  it('getLastCompleteBillingDate: the last day with cost, never today or later; X-Data-Through when the API sends it', async () => {
    expect(await client(org).getLastCompleteBillingDate()).toBe('2026-06-03');
    const live = await t.newOrganization();
    await t.insertRows(live.organizationId, [row(TODAY, '1', 'payments'), row('2026-06-07', '1', 'payments')]);
    expect(await client(live).getLastCompleteBillingDate()).toBe('2026-06-05');
    const old = await t.newOrganization();
    await t.insertRows(old.organizationId, [row('2024-12-30', '1', 'payments'), row('2025-01-15', '2', 'payments')]);
    expect(await client(old).getLastCompleteBillingDate()).toBe('2025-01-15');
    expect(await client(await t.newOrganization()).getLastCompleteBillingDate()).toBe('2026-06-05');
    addHeaders = { 'X-Data-Through': '2026-05-31' };
    try {
      expect(await client(org).getLastCompleteBillingDate()).toBe('2026-05-31');
    } finally {
      addHeaders = {};
    }
  });

  it('getUserGroups and getGroupProjects: team tag values, and the accounts of a team with their names', async () => {
    const groups: Group[] = await client(org).getUserGroups('user:default/ana');
    expect(groups).toEqual([
      { id: 'payments', name: 'payments' },
      { id: 'search', name: 'search' },
    ]);
    const mine = client(org, { userGroups: (userId, all) => (userId === 'user:default/ana' ? all.filter((g) => g.id === 'search') : []) });
    expect(await mine.getUserGroups('user:default/ana')).toEqual([{ id: 'search', name: 'search' }]);
    const projects: Project[] = await client(org).getGroupProjects('payments');
    expect(projects).toEqual([
      { id: '111', name: 'Production' },
      { id: '222', name: 'Staging' },
    ]);
    const byCategory = await t.newOrganization();
    await t.insertRows(byCategory.organizationId, [row('2026-05-01', '1', undefined, { cost_categories: { Team: 'Core' } })]);
    expect(await client(byCategory, { groups: { costCategory: 'Team' } }).getUserGroups('x')).toEqual([{ id: 'Core', name: 'Core' }]);
  });

  it('getGroupDailyCost: every day of both intervals, change between them, the trendline and breakdowns by service and account', async () => {
    const cost: Cost = await client(org).getGroupDailyCost('payments', INTERVALS);
    const rows = estate.filter(team('payments'));
    expect(cost.id).toBe('payments');
    expectAggregation(cost.aggregation, expectedDaily(rows, FIRST.start, SECOND.end));
    expect(cost.aggregation).toHaveLength(60);
    const [before, after] = [total(rows.filter(inRange(FIRST))), total(rows.filter(inRange(SECOND)))];
    expect(cost.change!.amount).toBeCloseTo(after - before, 8);
    expect(cost.change!.ratio).toBeCloseTo((after - before) / before, 12);
    const trend = expectedTrend(cost.aggregation);
    for (const date of [FIRST.start, '2026-05-10', SECOND.end]) {
      expect(cost.trendline!.slope * (Date.parse(date) / 1000) + cost.trendline!.intercept).toBeCloseTo(trend(date), 6);
    }
    expect(Object.keys(cost.groupedCosts!)).toEqual(['service', 'account']);
    const services = cost.groupedCosts!.service;
    const window = rows.filter(inRange({ start: FIRST.start, end: SECOND.end }));
    const byService = ['Amazon EC2', 'Amazon S3', 'Amazon RDS']
      .map((service) => ({ service, rows: window.filter((r) => (r.service ?? 'Amazon EC2') === service) }))
      .sort((a, b) => total(b.rows) - total(a.rows));
    expect(services.map((s) => s.id)).toEqual(byService.map((s) => s.service));
    services.forEach((s, i) => expectAggregation(s.aggregation, expectedDaily(byService[i].rows, FIRST.start, SECOND.end)));
    const s3 = services.find((s) => s.id === 'Amazon S3')!;
    expect(s3.change).toEqual({ amount: -20.25 }); // nothing in the second interval: no ratio (the plugin shows −∞)
    expect(cost.groupedCosts!.account.map((a) => a.id)).toEqual(['111', '222']);
  });

  it('getProjectDailyCost and getCatalogEntityDailyCost: one account, one tagged component', async () => {
    const project = await client(org).getProjectDailyCost('222', INTERVALS);
    const rows = estate.filter((r) => r.account_id === '222');
    expectAggregation(project.aggregation, expectedDaily(rows, FIRST.start, SECOND.end));
    expect(Object.keys(project.groupedCosts!)).toEqual(['service']);
    expect(project.change!.amount).toBeCloseTo(total(rows.filter(inRange(SECOND))) - total(rows.filter(inRange(FIRST))), 8);

    const entity = await client(org, { catalogEntity: { tag: 'component' } }).getCatalogEntityDailyCost(
      'component:default/indexer',
      INTERVALS,
    );
    expectAggregation(entity.aggregation, expectedDaily(estate.filter(team('search')), FIRST.start, SECOND.end));
    await expect(client(org).getCatalogEntityDailyCost('component:default/indexer', INTERVALS)).rejects.toThrow(
      'needs the catalogEntity option',
    );
  });

  it('quarters: R2/P3M compares the two last complete quarters', async () => {
    const cost = await client(org).getGroupDailyCost('payments', 'R2/P3M/2026-04-01');
    expect(cost.aggregation[0].date).toBe('2025-10-01');
    expect(cost.aggregation[cost.aggregation.length - 1].date).toBe('2026-03-31');
    expect(cost.aggregation).toHaveLength(182);
    const rows = estate.filter(team('payments'));
    const [q4, q1] = [
      total(rows.filter(inRange({ start: '2025-10-01', end: '2025-12-31' }))),
      total(rows.filter(inRange({ start: '2026-01-01', end: '2026-03-31' }))),
    ];
    expect([q4, q1]).toEqual([300, 450.5]);
    expect(cost.change).toEqual({ ratio: (q1 - q4) / q4, amount: q1 - q4 });
  });

  it('getProductInsights: a product’s two periods from /compare, broken down as configured', async () => {
    const rows = estate.filter(team('payments')).filter((r) => (r.service ?? 'Amazon EC2') === 'Amazon EC2');
    const entity: Entity = await client(org).getProductInsights({
      product: 'Amazon EC2',
      group: 'payments',
      intervals: INTERVALS,
      project: null,
    });
    expect(entity.id).toBe('Amazon EC2');
    expect(entity.aggregation[0]).toBeCloseTo(total(rows.filter(inRange(FIRST))), 8);
    expect(entity.aggregation[1]).toBeCloseTo(total(rows.filter(inRange(SECOND))), 8);
    expect(entity.change.amount).toBeCloseTo(entity.aggregation[1] - entity.aggregation[0], 8);
    expect(Object.keys(entity.entities)).toEqual(['account']);
    const accounts = Object.fromEntries(entity.entities.account.map((e) => [e.id, e.aggregation]));
    expect(accounts['111'][1]).toBeCloseTo(70, 8);
    expect(accounts['222'][0]).toBeCloseTo(5.0000000001, 8);

    const compute = client(org, { products: { computeEngine: { filters: { services: ['Amazon EC2'] }, breakdown: 'region' } } });
    const byRegion = await compute.getProductInsights({
      product: 'computeEngine',
      group: 'payments',
      intervals: INTERVALS,
      project: '111',
    });
    expect(byRegion.entities.region.map((e) => [e.id, e.aggregation])).toEqual([
      ['eu-west-1', [0, 40]],
      ['us-east-1', [10.5, 30]],
    ]);
    const database = await client(org).getProductInsights({
      product: 'Amazon RDS',
      group: 'payments',
      intervals: INTERVALS,
      project: '222',
    });
    expect(database.entities.usageType.map((e) => e.id)).toEqual(['InstanceUsage:db.r6g']);
  });

  it('getProductInsights: a product’s cost per unit of its business metric in both periods, none where a period had no units', async () => {
    const shop = await t.newOrganization();
    const ec2 = (usage_date: string, amount: string, group: string, account_id: string) =>
      row(usage_date, amount, group, { service: 'Amazon EC2', account_id });
    const rows: RowInput[] = [
      ec2('2026-04-06', '1000', 'payments', '111'), // the day before the first period
      ec2('2026-04-10', '10.5', 'payments', '111'),
      ec2('2026-04-30', '2.0000000001', 'payments', '222'),
      row('2026-04-15', '500', 'payments', { service: 'Amazon S3', account_id: '111' }), // not the product
      ec2('2026-04-15', '300', 'search', '333'), // not the group
      ec2('2026-05-08', '33', 'payments', '111'),
      ec2('2026-06-01', '7.25', 'payments', '222'),
      ec2(TODAY, '999', 'payments', '111'), // after the second period
    ];
    await t.insertRows(shop.organizationId, rows);
    // Orders per team, per thousand; visits of the organisation, counted in the second period only.
    await t.http
      .put('/v1/admin/business-metrics/orders')
      .set(shop.auth)
      .send({ unit: 'order', unitScale: 1000, dimension: 'tag:team' })
      .expect(200);
    await t.http.put('/v1/admin/business-metrics/visits').set(shop.auth).send({ unit: 'visit' }).expect(200);
    const orders = [
      { date: '2026-04-06', value: '50', dimensionValue: 'payments' },
      { date: '2026-04-07', value: '300', dimensionValue: 'payments' },
      { date: '2026-04-20', value: '10000', dimensionValue: 'search' },
      { date: '2026-05-06', value: '0.5', dimensionValue: 'payments' },
      { date: '2026-05-07', value: '1234.5', dimensionValue: 'payments' },
      { date: '2026-06-05', value: '3', dimensionValue: 'payments' },
      { date: '2026-06-06', value: '77', dimensionValue: 'payments' },
    ];
    const visits = [{ date: '2026-05-20', value: '40' }];
    await t.http.post('/v1/admin/business-metrics/orders/values').set(shop.auth).send({ values: orders }).expect(200);
    await t.http.post('/v1/admin/business-metrics/visits/values').set(shop.auth).send({ values: visits }).expect(200);

    type Sent = { filters: { inclusions: { dateRange?: { start: string } } }; [field: string]: unknown };
    const sent: Array<{ route: string; body: Sent }> = [];
    const products = (metric: string) => ({
      compute: { filters: { services: ['Amazon EC2'] }, unitCost: { metric } },
      plain: { filters: { services: ['Amazon EC2'] } },
    });
    const shopClient = (metric: string) =>
      client(shop, {
        currency: 'USD',
        products: products(metric),
        fetch: (input, init) => {
          sent.push({ route: input.slice(input.lastIndexOf('/') + 1), body: JSON.parse(String(init?.body)) });
          return proxyFetch(shop.key)(input, init);
        },
      });
    const insights = (metric: string, product: string, project: string | null = null) =>
      shopClient(metric).getProductInsights({ product, group: 'payments', intervals: INTERVALS, project });

    // Expected from the rows and values: payments' EC2 cost (of the project's account, when one) over payments' orders.
    const product = (range: { start: string; end: string }, account?: string) =>
      rows
        .filter((r) => team('payments')(r) && r.service === 'Amazon EC2' && (!account || r.account_id === account))
        .filter(inRange(range))
        .map((r) => r.amortized_cost!);
    const ordersIn = (range: { start: string; end: string }) =>
      orders.filter((v) => v.dimensionValue === 'payments' && v.date >= range.start && v.date <= range.end).map((v) => v.value);
    const unitCosts = (account?: string) =>
      [FIRST, SECOND].map((range) => expectedUnitCost(product(range, account), ordersIn(range), 1000)!);
    expect(unitCosts()).toEqual([41.5973377707, 32.5252525253]); // 12.5000000001 × 1000 ÷ 300.5, 40.25 × 1000 ÷ 1237.5

    const entity: Entity = await insights('orders', 'compute');
    expect(Object.keys(entity.entities)).toEqual(['account', 'cost per 1,000 orders']); // the cost breakdown first: the plugin draws it
    expect(entity.aggregation[0]).toBeCloseTo(sumDecimals(product(FIRST)), 8);
    expect(entity.aggregation[1]).toBeCloseTo(sumDecimals(product(SECOND)), 8);
    const [before, after] = unitCosts();
    expect(entity.entities['cost per 1,000 orders']).toEqual([
      { id: 'compute', aggregation: [before, after], change: { ratio: (after - before) / before, amount: after - before }, entities: {} },
    ]);
    // Asked as /compare was: its inclusions, each period its dateRange, in the client's metric and currency.
    const compare = sent.find((request) => request.route === 'compare')!.body;
    const asked = sent.filter((request) => request.route === 'unit-costs').map((request) => request.body);
    const start = (body: Sent) => body.filters.inclusions.dateRange!.start;
    expect(asked.sort((a, b) => start(a).localeCompare(start(b)))).toEqual(
      [compare.baselinePeriod, compare.comparisonPeriod].map((dateRange) => ({
        metric: 'orders',
        costMetric: 'amortized_cost',
        currency: 'USD',
        filters: { inclusions: { ...compare.filters.inclusions, dateRange } },
        groupBy: { dateGrouping: 'monthly' },
      })),
    );

    // One project: its account's cost over the team's orders (the orders are per team, not per account).
    const [ofProject] = (await insights('orders', 'compute', '111')).entities['cost per 1,000 orders'];
    expect(ofProject.aggregation).toEqual(unitCosts('111'));
    expect(ofProject.aggregation).toEqual([34.9417637271, 26.6666666667]);

    // No visits in the first period: no unit cost to compare (0 would read as free), so no breakdown; the cost stays.
    const visitsIn = (range: { start: string; end: string }) =>
      visits.filter((v) => v.date >= range.start && v.date <= range.end).map((v) => v.value);
    expect([FIRST, SECOND].map((range) => expectedUnitCost(product(range), visitsIn(range), 1))).toEqual([null, 40.25 / 40]);
    const withoutUnits = await insights('visits', 'compute');
    expect(Object.keys(withoutUnits.entities)).toEqual(['account']);
    expect(withoutUnits).toEqual({ ...entity, entities: { account: entity.entities.account } });
    // A metric the API does not know: no breakdown either; a product without unitCost asks no /unit-costs.
    expect(Object.keys((await insights('no_such_metric', 'compute')).entities)).toEqual(['account']);
    sent.length = 0;
    expect(Object.keys((await insights('orders', 'plain')).entities)).toEqual(['account']);
    expect(sent.map((request) => request.route)).toEqual(['compare']);
  });

  it('getDailyMetricData: an API money metric organisation-wide; business metrics are an empty series; alerts without a forecast', async () => {
    const metric: MetricData = await client(org).getDailyMetricData('on_demand_cost', INTERVALS);
    const window = estate.filter(inRange({ start: FIRST.start, end: SECOND.end }));
    expect(metric.format).toBe('currency');
    expectAggregation(
      metric.aggregation,
      days(FIRST.start, SECOND.end).map((date) => ({ date, amount: 100 * window.filter((r) => r.usage_date === date).length })),
    );
    expect(await client(org).getDailyMetricData('dau', INTERVALS)).toEqual({
      id: 'dau',
      format: 'number',
      aggregation: [],
      change: { amount: 0 },
    });
    // No growth alert (a month of 2026 that is over has no forecast); in the week before TODAY, payments' EC2 cost of
    // 2026-06-03 came after 28 days of mostly nothing (EC2 of payments only on 05-06, 05-07 and 05-20): an anomaly.
    const ec2 = estate.filter((r) => team('payments')(r) && r.service === 'Amazon EC2');
    const spike = total(ec2.filter((r) => r.usage_date === '2026-06-03'));
    const scanned = await t.http
      .post('/v1/cost-insights/anomalies')
      .set(org.auth)
      .send({
        dateRange: { start: '2026-05-30', end: '2026-06-05' },
        filters: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } },
      });
    expect(scanned.body.data.anomalies).toHaveLength(1);
    const [alert, ...more] = await client(org).getAlerts('payments');
    expect(more).toEqual([]);
    expect(alert).toEqual({
      title: `payments: service Amazon EC2 cost ${spike.toFixed(2)} USD above expected on 2026-06-03`,
      subtitle: expect.stringMatching(
        new RegExp(
          `^${spike.toFixed(2)} USD where nothing was expected\\. What moved: .+\\. Anomaly ${scanned.body.data.anomalies[0].id}\\.$`,
        ),
      ),
    });
    // Its two largest rises (region eu-west-1 and account 111 each carried all 40: neither had payments' EC2 cost on
    // the Wednesdays before) are named with their amounts; how causes that tie are ranked is the API's
    // (anomalies.e2e-spec.ts).
    const causes = rootCausesOf(ec2, '2026-06-03');
    expect(causes.slice(0, 2).map(causeText).sort()).toEqual(['account 111 +40.00 USD', 'region eu-west-1 +40.00 USD']);
    for (const cause of causes.slice(0, 2)) expect(alert.subtitle).toContain(causeText(cause));
  });

  it('getDailyMetricData: a business metric by name, its daily units over both intervals; an unknown one an empty series', async () => {
    const shop = await t.newOrganization();
    const defined = await t.http.put('/v1/admin/business-metrics/orders').set(shop.auth).send({ unit: 'order', dimension: 'tag:team' });
    expect(defined.status).toBe(200);
    // Per team, so a day's units are its teams' sum; 2026-04-06 and 2026-06-06 lie just outside the window.
    const values = [
      { date: '2026-04-06', value: '1000', dimensionValue: 'payments' },
      { date: '2026-04-07', value: '12.5', dimensionValue: 'payments' },
      { date: '2026-04-07', value: '0.0000000001', dimensionValue: 'search' },
      { date: '2026-05-06', value: '40', dimensionValue: 'search' },
      { date: '2026-05-07', value: '7.25', dimensionValue: 'payments' },
      { date: '2026-06-05', value: '100', dimensionValue: 'payments' },
      { date: '2026-06-05', value: '3', dimensionValue: 'search' },
      { date: '2026-06-06', value: '5000', dimensionValue: 'payments' },
    ];
    expect((await t.http.post('/v1/admin/business-metrics/orders/values').set(shop.auth).send({ values })).status).toBe(200);

    const metric: MetricData = await client(shop).getDailyMetricData('orders', INTERVALS);
    const unitsOf = (range: { start: string; end: string }) =>
      sumDecimals(values.filter((v) => v.date >= range.start && v.date <= range.end).map((v) => v.value));
    expect(metric.id).toBe('orders');
    expect(metric.format).toBe('number');
    expectAggregation(
      metric.aggregation,
      days(FIRST.start, SECOND.end).map((date) => ({ date, amount: unitsOf({ start: date, end: date }) })),
    );
    const [before, after] = [unitsOf(FIRST), unitsOf(SECOND)];
    expect([before, after]).toEqual([52.5000000001, 110.25]);
    expect(metric.change.amount).toBeCloseTo(after - before, 8);
    expect(metric.change.ratio).toBeCloseTo((after - before) / before, 12);

    const empty = (id: string) => ({ id, format: 'number', aggregation: [], change: { amount: 0 } });
    expect(await client(shop).getDailyMetricData('visitors', INTERVALS)).toEqual(empty('visitors'));
    expect(await client(shop).getDailyMetricData('Daily-Users', INTERVALS)).toEqual(empty('Daily-Users'));
    // An API older than /unit-costs (404) has no business metric; any other failure is the error it was.
    const answering = (status: number) =>
      client(shop, {
        fetch: async (input, init) =>
          input.endsWith('/cost-insights/unit-costs')
            ? new Response(JSON.stringify({ success: false, error: { message: 'not here' } }), { status })
            : proxyFetch(shop.key)(input, init),
      });
    expect(await answering(404).getDailyMetricData('orders', INTERVALS)).toEqual(empty('orders'));
    await expect(answering(503).getDailyMetricData('orders', INTERVALS)).rejects.toThrow(
      'POST /cost-insights/unit-costs answered 503: not here',
    );
  });

  it('getAlerts: a growth alert when this month is forecast well above last month, none for a steady team', async () => {
    const realToday = new Date().toISOString().slice(0, 10);
    const dayBefore = (back: number) => new Date(Date.parse(`${realToday}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);
    const growing = await t.newOrganization();
    // 60 days up to yesterday: the "rising" team grows by 2 a day from 10, the "steady" team costs 50 a day.
    const rows = Array.from({ length: 60 }, (_, i) => dayBefore(60 - i)).flatMap((day, i) => [
      row(day, String(10 + 2 * i), 'rising'),
      row(day, '50', 'steady'),
    ]);
    await t.insertRows(growing.organizationId, rows);
    const now = client(growing, { today: () => realToday });
    expect(await now.getAlerts('steady')).toEqual([]);
    const [alert, ...more] = await now.getAlerts('rising');
    expect(more).toEqual([]);
    // Expected independently: last month's rows, and this month's rows so far plus the line continued to its end.
    const month = `${realToday.slice(0, 7)}-01`;
    const previousMonth = `${dayBefore(Number(realToday.slice(8, 10))).slice(0, 7)}-01`;
    const rising = rows.filter(team('rising'));
    const last = total(rising.filter(inRange({ start: previousMonth, end: dayBefore(Number(realToday.slice(8, 10))) })));
    const monthEnd = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
    let expected = total(rising.filter((r) => r.usage_date >= month));
    for (
      let i = 0, day = realToday;
      day <= monthEnd;
      i++, day = new Date(Date.parse(`${realToday}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10)
    ) {
      expected += 10 + 2 * (60 + i);
    }
    const daysIn = (first: string) => new Date(Date.UTC(Number(first.slice(0, 4)), Number(first.slice(5, 7)), 0)).getUTCDate();
    const lastPerDay = last / daysIn(previousMonth);
    expect(alert.title).toBe(
      `rising: ${realToday.slice(0, 7)} is forecast ${Math.round((expected / (lastPerDay * daysIn(month)) - 1) * 100)} % above last month, day for day`,
    );
    expect(alert.subtitle).toContain(
      `Expected ${expected.toFixed(2)} USD (80 % interval ${expected.toFixed(2)} USD to ${expected.toFixed(2)} USD), ${last.toFixed(2)} USD last month.`,
    );
  });

  it('getAlerts: the group’s anomalies of the last 7 complete days, with their amounts and what moved, its feedback', async () => {
    const realToday = new Date().toISOString().slice(0, 10);
    const daysAgo = (back: number) => shift(realToday, -back);
    const estateOf = await t.newOrganization();
    // 60 days up to yesterday: platform's Compute 100 and Storage 2,000 a day, search's Storage 1,000 a day. Spikes:
    // platform's Compute +250 3 days ago (spot usage in another account and region) and +300 17 days ago (older than
    // the alerts' week, on the first's weekday: in its root causes' baseline), search's Storage +500 2 days ago (+280
    // 23 days ago, likewise), untagged Compute +5,000 yesterday (no group's).
    const usual = { account_id: 'acct-1', region: 'us-east-1' };
    const rows: RowInput[] = [
      ...Array.from({ length: 60 }, (_, i) => daysAgo(60 - i)).flatMap((day) => [
        row(day, '100', 'platform', { service: 'Compute', ...usual }),
        row(day, '2000', 'platform', { service: 'Storage', ...usual }),
        row(day, '1000', 'search', { service: 'Storage', ...usual }),
      ]),
      row(daysAgo(3), '250', 'platform', {
        service: 'Compute',
        account_id: 'acct-2',
        region: 'eu-west-1',
        usage_type: 'SpotUsage:m6i.large',
      }),
      row(daysAgo(17), '300', 'platform', { service: 'Compute', account_id: 'acct-3', region: 'ap-south-1' }),
      row(daysAgo(2), '500', 'search', { service: 'Storage', account_id: 'acct-9', region: 'eu-west-1', usage_type: 'TimedStorage-INT' }),
      row(daysAgo(23), '280', 'search', { service: 'Storage', account_id: 'acct-8', region: 'ap-south-1' }),
      row(daysAgo(1), '5000', undefined, { service: 'Compute', ...usual }),
    ];
    await t.insertRows(estateOf.organizationId, rows);
    const now = client(estateOf, { today: () => realToday });
    const scan = async (group: string) =>
      (
        await t.http
          .post('/v1/cost-insights/anomalies')
          .set(estateOf.auth)
          .send({
            dateRange: { start: daysAgo(7), end: daysAgo(1) },
            filters: { inclusions: { resourceTag: 'team', resourceTagValues: [group] } },
          })
      ).body.data.anomalies as Array<{ id: string }>;

    // Expected from the rows: a flat series expects its level; its scale is 2 % of it (no deviation), so the score
    // is the impact over 2 % of the level.
    const compute = rows.filter((r) => team('platform')(r) && r.service === 'Compute');
    const platformSpike = total(compute.filter((r) => r.usage_date === daysAgo(3)));
    const [platformAnomaly] = await scan('platform');
    const platformAlert = {
      title: `platform: service Compute cost ${(platformSpike - 100).toFixed(2)} USD above expected on ${daysAgo(3)}`,
      subtitle:
        `${platformSpike.toFixed(2)} USD against 100.00 USD expected (+${platformSpike - 100} %, robust z-score ${(platformSpike - 100) / 2}). ` +
        `What moved: ${rootCauseText(compute, daysAgo(3))}. Anomaly ${platformAnomaly.id}.`,
    };
    expect(platformAlert.subtitle).toContain(
      'What moved: account acct-2 +250.00 USD, region eu-west-1 +250.00 USD, usageType SpotUsage:m6i.large +250.00 USD.',
    );
    expect(await now.getAlerts('platform')).toEqual([platformAlert]);

    const storage = rows.filter((r) => team('search')(r) && r.service === 'Storage');
    const searchSpike = total(storage.filter((r) => r.usage_date === daysAgo(2)));
    const [searchAnomaly] = await scan('search');
    expect(rootCauseText(storage, daysAgo(2))).toBe(
      'account acct-9 +500.00 USD, region eu-west-1 +500.00 USD, usageType TimedStorage-INT +500.00 USD',
    );
    expect(await now.getAlerts('search')).toEqual([
      {
        title: `search: service Storage cost ${(searchSpike - 1000).toFixed(2)} USD above expected on ${daysAgo(2)}`,
        subtitle:
          `${searchSpike.toFixed(2)} USD against 1000.00 USD expected (+${((searchSpike - 1000) / 1000) * 100} %, robust z-score ${(searchSpike - 1000) / 20}). ` +
          `What moved: ${rootCauseText(storage, daysAgo(2))}. Anomaly ${searchAnomaly.id}.`,
      },
    ]);

    // Feedback given over the API comes back in the alert; the link can point elsewhere.
    const writer = await t.keyFor(estateOf.organizationId, ['anomalies:write']);
    const given = await t.http
      .post(`/v1/cost-insights/anomalies/${platformAnomaly.id}/feedback`)
      .set(writer.auth)
      .send({ reason: 'expected' });
    expect(given.status).toBe(200);
    const linked = client(estateOf, {
      today: () => realToday,
      anomalyUrl: (anomaly, group) => `https://backstage.example/${group}/${anomaly.id}`,
    });
    expect(await linked.getAlerts('platform')).toEqual([
      {
        ...platformAlert,
        subtitle: platformAlert.subtitle.replace(' Anomaly ', ' Feedback: expected. Anomaly '),
        url: `https://backstage.example/platform/${platformAnomaly.id}`,
      },
    ]);
    // An API older than /anomalies (404) has no anomaly alerts; any other failure is the error it was.
    const answering = (status: number) =>
      client(estateOf, {
        today: () => realToday,
        fetch: async (input, init) =>
          input.endsWith('/cost-insights/anomalies')
            ? new Response(JSON.stringify({ success: false, error: { message: 'not here' } }), { status })
            : proxyFetch(estateOf.key)(input, init),
      });
    expect(await answering(404).getAlerts('platform')).toEqual([]);
    await expect(answering(503).getAlerts('platform')).rejects.toThrow('POST /cost-insights/anomalies answered 503: not here');
    // The week before 8 days ago had no anomaly (the older spike is before it): none.
    expect(await client(estateOf, { today: () => daysAgo(8) }).getAlerts('platform')).toEqual([]);
  });

  it('getAlerts: a commitment the team’s usage receives, used below 80 % by the organisation over the last 7 days', async () => {
    const realToday = new Date().toISOString().slice(0, 10);
    const daysAgo = (back: number) => shift(realToday, -back);
    const estateOf = await t.newOrganization();
    const plan = {
      commitment_discount_id: 'arn:sp-1',
      commitment_discount_name: 'Compute SP',
      commitment_discount_type: 'Savings Plan',
      charge_category: 'Usage',
    };
    const reservation = {
      ...plan,
      commitment_discount_id: 'ri-1',
      commitment_discount_name: 'db.r6g',
      commitment_discount_type: 'Reserved Instance',
    };
    // payments used the plan for 12 a day for 5 days (60), 40 of it went unused (untagged): 60 %. search used the
    // reservation fully; platform used the plan 8 days ago only, before the window.
    await t.insertRows(estateOf.organizationId, [
      ...[1, 2, 3, 4, 5].map((back) => row(daysAgo(back), '12', 'payments', { ...plan, commitment_discount_status: 'Used' })),
      row(daysAgo(1), '40', undefined, { ...plan, commitment_discount_status: 'Unused', on_demand_cost: '0' }),
      row(daysAgo(2), '10', 'search', { ...reservation, commitment_discount_status: 'Used' }),
      row(daysAgo(8), '30', 'platform', { ...plan, commitment_discount_status: 'Used' }),
    ]);
    const now = client(estateOf, { today: () => realToday });
    expect(await now.getAlerts('payments')).toEqual([
      {
        title: 'payments: Compute SP was used 60.0 % over the last 7 days',
        subtitle: '40.00 USD of 100.00 USD committed went unused (below 80.0 %). Savings Plan arn:sp-1 (AWS) discounts usage of payments.',
      },
    ]);
    expect(await now.getAlerts('search')).toEqual([]);
    expect(await now.getAlerts('platform')).toEqual([]);
    // The threshold is the option's: at 50 % the plan is used enough.
    expect(await client(estateOf, { today: () => realToday, utilizationAlertThreshold: 0.5 }).getAlerts('payments')).toEqual([]);
  });

  it('getAlerts: each threshold a budget of the team passed, with the budget’s standing', async () => {
    const realToday = new Date().toISOString().slice(0, 10);
    const monthStart = `${realToday.slice(0, 7)}-01`;
    const monthDays = days(monthStart, shift(`${shift(monthStart, 32).slice(0, 7)}-01`, -1)).length;
    const dayOfMonth = days(monthStart, realToday).length;
    const estateOf = await t.newOrganization();
    await t.insertRows(estateOf.organizationId, [row(realToday, '60', 'payments'), row(realToday, '500', 'search')]);
    const made = await t.http
      .post('/v1/admin/budgets')
      .set(estateOf.auth)
      .send({
        name: 'Payments',
        filters: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } },
        period: 'monthly',
        amounts: { default: '100' },
        thresholds: [
          { kind: 'actual', percent: 50 },
          { kind: 'actual', percent: 90 },
        ],
      });
    expect(made.status).toBe(201);
    const onTrack = ((100 * dayOfMonth) / monthDays).toFixed(2);
    expect(await client(estateOf, { today: () => realToday }).getAlerts('payments')).toEqual([
      {
        title: `payments: budget Payments passed 50 % (50.00 USD) in ${realToday.slice(0, 7)}`,
        subtitle: `60.00 USD of 100.00 USD spent from ${monthStart} to date (60 %; on track at ${onTrack} USD).`,
      },
    ]);
    expect(await client(estateOf, { today: () => realToday }).getAlerts('search')).toEqual([]); // no budget of its own
  });

  it('getAlerts: the team’s cost per order rose more than 10 % week over week while orders grew', async () => {
    const realToday = new Date().toISOString().slice(0, 10);
    const estateOf = await t.newOrganization();
    // The 7 days before: payments 10 a day over 100 orders; the last 7: 15 a day over 110. search: 5 a day throughout.
    const days = Array.from({ length: 14 }, (_, i) => shift(realToday, -14 + i));
    await t.insertRows(estateOf.organizationId, [
      ...days.map((day, i) => row(day, i < 7 ? '10' : '15', 'payments')),
      ...days.map((day) => row(day, '5', 'search')),
    ]);
    await t.http.put('/v1/admin/business-metrics/orders').set(estateOf.auth).send({ unit: 'order' }).expect(200);
    await t.http
      .post('/v1/admin/business-metrics/orders/values')
      .set(estateOf.auth)
      .send({ values: days.map((date, i) => ({ date, value: i < 7 ? '100' : '110' })) })
      .expect(200);
    const watching = client(estateOf, { today: () => realToday, unitCostMetrics: ['orders', 'no_such_metric'] });
    const unitCostAlerts = async (group: string) => (await watching.getAlerts(group)).filter((alert) => alert.title.includes('cost per'));
    // 70 over 700 orders (0.10 each) → 105 over 770 (0.1364 each): +36 % while orders grew 10 %.
    expect(await unitCostAlerts('payments')).toEqual([
      {
        title: 'payments: cost per order rose 36 % week over week while orders grew 10 %',
        subtitle: `0.14 USD per order in the last 7 days (${days[7]} to ${days[13]}), 0.10 USD the 7 before: the cost grew faster than the business.`,
      },
    ]);
    expect(await unitCostAlerts('search')).toEqual([]); // 35 over 700 → 35 over 770: cheaper per order
  });

  it('never sends an API key itself (the proxy adds it), and reports API errors with their message', async () => {
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.every((request) => request.authorization === null && request.url.startsWith(`${base}/v1/cost-insights/`))).toBe(true);
    await expect(client(org).getGroupDailyCost('payments', 'R2/P30D/2100-02-01')).rejects.toThrow(
      /answered 400: Invalid request\. Please see message details\. filters\.inclusions\.dateRange\.end: "2100-01-31" is outside the supported dates/,
    );
    await expect(client(org).getGroupDailyCost('payments', 'R2/P30D')).rejects.toThrow('Invalid intervals');
    const unauthorized = new CostInsightsApiClient({ baseUrl: `${base}/v1`, groups: { tag: 'team' } });
    await expect(unauthorized.getUserGroups('x')).rejects.toThrow('answered 401: Unauthorized');
  });
});
