// modes: embedded server cluster — units and costs summed by the store's SQL
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * Business metrics and POST /v1/cost-insights/unit-costs: a per-team metric loaded as CSV (a day re-loaded), a metric
 * of the whole organisation loaded as JSON, and unit costs by day, by team, for a scoped key. Every expected figure is
 * worked out by hand beside it from the rows and values below.
 */
const DAY_1 = '2026-10-01';
const DAY_2 = '2026-10-02';
const WINDOW = { start: DAY_1, end: DAY_2 };
const row = (usage_date: string, amount: string, team?: string): RowInput => ({
  usage_date,
  service: 'Amazon EC2',
  amortized_cost: amount,
  resource_tags: team ? { team } : {},
});
const ROWS: RowInput[] = [row(DAY_1, '10', 'payments'), row(DAY_1, '4', 'search'), row(DAY_1, '100'), row(DAY_2, '11.5', 'payments')];

describe('unit costs', () => {
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await TestApp.start();
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, ROWS);
  });
  afterAll(async () => {
    await t?.close();
  });

  const define = (who: TestOrganization, name: string, body: object) =>
    t.http.put(`/v1/admin/business-metrics/${name}`).set(who.auth).send(body);
  const loadCsv = (who: TestOrganization, name: string, csv: string) =>
    t.http.post(`/v1/admin/business-metrics/${name}/values`).set(who.auth).set('Content-Type', 'text/csv').send(csv);
  const ask = (who: TestOrganization, body: object) => t.http.post('/v1/cost-insights/unit-costs').set(who.auth).send(body);

  it('defines metrics and loads their values; a re-loaded day replaces that day whole', async () => {
    expect((await define(org, 'orders', { unit: 'order', unitScale: 1000, dimension: 'tag:team' })).status).toBe(200);
    expect((await define(org, 'customers', { unit: 'customer' })).status).toBe(200);
    // Day 1 first with a value for `data` too; re-loaded without it, `data` is gone from that day.
    expect((await loadCsv(org, 'orders', `date,value,team\n${DAY_1},9,payments\n${DAY_1},1,data\n`)).status).toBe(200);
    const loaded = await loadCsv(
      org,
      'orders',
      `date,value,team\n${DAY_1},3,payments\n${DAY_1},2,search\n${DAY_2},0,payments\n${DAY_2},5,search\n`,
    );
    expect(loaded.body.data).toEqual({ name: 'orders', values: 4, days: 2, first: DAY_1, last: DAY_2 });
    const json = await t.http
      .post('/v1/admin/business-metrics/customers/values')
      .set(org.auth)
      .send({
        values: [
          { date: DAY_1, value: '4' },
          { date: DAY_2, value: 6 },
        ],
      });
    expect(json.status).toBe(200);
    const listed = (await t.http.get('/v1/admin/business-metrics').set(org.auth)).body.data.metrics;
    expect(
      listed.map((metric: { name: string; unitScale: number; dimension: string | null }) => [
        metric.name,
        metric.unitScale,
        metric.dimension,
      ]),
    ).toEqual([
      ['customers', 1, null],
      ['orders', 1000, 'tag:team'],
    ]);
  });

  it('per day and team: cost ÷ units × 1000, exact, null where there are no units', async () => {
    const response = await ask(org, {
      metric: 'orders',
      filters: { inclusions: { dateRange: WINDOW } },
      groupBy: { dateGrouping: 'daily', dimension: 'tag:team' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['x-currency']).toBe('USD');
    expect(response.body.data).toMatchObject({
      metric: 'orders',
      unit: 'order',
      unit_scale: 1000,
      currency: 'USD',
      units_basis: 'every value of tag:team: the organisation’s units',
    });
    expect(response.body.data.items).toEqual([
      { usage_date: DAY_1, dimension_value: '(not set)', cost: '100', units: '0', unit_cost: null, unit_cost_change: null },
      { usage_date: DAY_1, dimension_value: 'payments', cost: '10', units: '3', unit_cost: '3333.3333333333', unit_cost_change: null }, // 10 ÷ 3 × 1000
      { usage_date: DAY_1, dimension_value: 'search', cost: '4', units: '2', unit_cost: '2000', unit_cost_change: null },
      { usage_date: DAY_2, dimension_value: 'payments', cost: '11.5', units: '0', unit_cost: null, unit_cost_change: null },
      { usage_date: DAY_2, dimension_value: 'search', cost: '0', units: '5', unit_cost: '0', unit_cost_change: -1 }, // 2000 → 0
    ]);
    // 125.5 over 10 units, per thousand.
    expect(response.body.data.summary).toEqual({ cost: '125.5', units: '10', unit_cost: '12550' });
  });

  it('without a dimension: the day’s cost over all its units; a metric of the organisation', async () => {
    const response = await ask(org, { metric: 'customers', filters: { inclusions: { dateRange: WINDOW } } });
    expect(response.body.data.items).toEqual([
      { usage_date: DAY_1, cost: '114', units: '4', unit_cost: '28.5', unit_cost_change: null },
      { usage_date: DAY_2, cost: '11.5', units: '6', unit_cost: '1.9166666667', unit_cost_change: -0.932749 }, // (1.9166666667 − 28.5) ÷ 28.5
    ]);
    const monthly = await ask(org, {
      metric: 'orders',
      filters: { inclusions: { dateRange: WINDOW } },
      groupBy: { dateGrouping: 'monthly' },
    });
    expect(monthly.body.data.items).toEqual([
      { usage_date: DAY_1, cost: '125.5', units: '10', unit_cost: '12550', unit_cost_change: null },
    ]);
  });

  it('a key scoped to a team: its cost against its team’s units only', async () => {
    const payments = await t.keyFor(org.organizationId, ['cost:read'], {
      inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] },
    });
    const response = await ask(payments, { metric: 'orders', filters: { inclusions: { dateRange: WINDOW } } });
    expect(response.body.data.units_basis).toBe('tag:team in (payments)');
    expect(response.body.data.items).toEqual([
      { usage_date: DAY_1, cost: '10', units: '3', unit_cost: '3333.3333333333', unit_cost_change: null },
      { usage_date: DAY_2, cost: '11.5', units: '0', unit_cost: null, unit_cost_change: null },
    ]);
  });

  it('in the answer’s currency: costs billed in EUR converted at their day’s rate before dividing', async () => {
    const billed = await t.newOrganization();
    await t.insertRows(billed.organizationId, [
      { usage_date: DAY_1, amortized_cost: '10', billing_currency: 'USD' },
      { usage_date: DAY_1, amortized_cost: '4', billing_currency: 'EUR' },
    ]);
    const rates = await t.http
      .post('/v1/admin/exchange-rates?source=test')
      .set(billed.auth)
      .set('Content-Type', 'text/csv')
      .send(`date,from,to,rate\n${DAY_1},EUR,USD,1.25\n`);
    expect(rates.status).toBe(200);
    await define(billed, 'orders', { unit: 'order' }).expect(200);
    await loadCsv(billed, 'orders', `${DAY_1},3\n`).expect(200);
    const response = await ask(billed, {
      metric: 'orders',
      currency: 'USD',
      filters: { inclusions: { dateRange: { start: DAY_1, end: DAY_1 } } },
    });
    expect(response.headers['x-currency']).toBe('USD');
    // 10 + 4 × 1.25 = 15 USD over 3 orders.
    expect(response.body.data.items).toEqual([{ usage_date: DAY_1, cost: '15', units: '3', unit_cost: '5', unit_cost_change: null }]);
  });

  it('refuses what it cannot answer, naming the field, and bad files whole', async () => {
    const refusals: Array<[object, string]> = [
      [{ metric: 'nothing_here' }, 'metric: no business metric named "nothing_here"'],
      [
        { metric: 'orders', groupBy: { dateGrouping: 'daily', dimension: 'service' } },
        'groupBy.dimension: the metric orders has its units per tag:team',
      ],
      [{ metric: 'customers', groupBy: { dateGrouping: 'daily', dimension: 'tag:team' } }, 'has no dimension'],
      [{ metric: 'orders', filters: { inclusions: { billingPeriods: ['2026-10'] } } }, 'filters.inclusions.billingPeriods'],
      [{ metric: 'orders', costMetric: 'profit' }, 'costMetric'],
    ];
    for (const [body, message] of refusals) {
      const response = await ask(org, body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.body.error.message).toContain(message);
    }
    const bad = await loadCsv(org, 'orders', `${DAY_1},7,payments\n${DAY_2},-1,search\n2026-13-01,1,search\n`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('line 2, value: units are never negative');
    expect(bad.body.error.message).toContain('line 3, date:');
    expect((await ask(org, { metric: 'customers', filters: { inclusions: { dateRange: WINDOW } } })).body.data.summary.units).toBe('10'); // unchanged
    expect((await define(org, 'Orders', { unit: 'x' })).status).toBe(400);
    expect((await define(org, 'orders', { unit: 'order', dimension: 'service' })).status).toBe(400); // its dimension stays
    const scopedAdmin = await t.keyFor(org.organizationId, ['metrics:admin'], { inclusions: { services: ['Amazon EC2'] } });
    expect((await loadCsv(scopedAdmin, 'orders', `${DAY_1},1,payments\n`)).status).toBe(400);
    const stranger = await t.newOrganization();
    expect((await ask(stranger, { metric: 'orders' })).status).toBe(400); // another organisation's metric does not exist here
  });

  it('never reads a load cut short: its values count only once the load completed', async () => {
    const who = await t.newOrganization();
    await t.insertRows(who.organizationId, [row(DAY_1, '12'), row(DAY_2, '12')]);
    expect((await define(who, 'visits', { unit: 'visit' })).status).toBe(200);
    expect((await loadCsv(who, 'visits', `${DAY_1},4\n${DAY_2},6\n`)).status).toBe(200);
    const units = async () =>
      (await ask(who, { metric: 'visits', filters: { inclusions: { dateRange: WINDOW } } })).body.data.items.map(
        (item: { units: string }) => item.units,
      );
    expect(await units()).toEqual(['4', '6']);
    // A load that wrote its mark and one of its days, then stopped (the process died): as if it never began.
    const cut = '2030-01-01 00:00:00.000000';
    await t.clickhouse.insert('business_metric_loads', [
      { organization_id: who.organizationId, name: 'visits', loaded_at: cut, state: 'started' },
    ]);
    await t.clickhouse.insert('business_metric_values', [
      { organization_id: who.organizationId, name: 'visits', date: DAY_1, dimension_value: '', value: '100', loaded_at: cut },
    ]);
    expect(await units()).toEqual(['4', '6']);
    // Completed, the same load is read (its day 1 replaces the earlier one's).
    await t.clickhouse.insert('business_metric_loads', [
      { organization_id: who.organizationId, name: 'visits', loaded_at: cut, state: 'complete' },
    ]);
    expect(await units()).toEqual(['100', '6']);
  });
});
