// modes: embedded server cluster — insights read from the store
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * POST /v1/cost-insights/forecast (issue 32, first part). The estates are made of the patterns the model is built
 * for — a level, a trend, weekends and the first of the month — with no noise, so the continuation is known exactly
 * here, from the formula that made the rows, and every interval must be empty; the other expectations (top values,
 * one-off charges, data scopes, refusals) come from the inserted rows.
 */
const FORECAST = '/v1/cost-insights/forecast';
const DAY_MS = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const dayAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const yesterday = dayAfter(today, -1);

/** The day's amount of a series of `scale`: 100 + 0.5 per day since `origin`, +20 on weekends, +300 on the first. */
function formula(day: string, origin: string, scale = 1): number {
  const date = new Date(`${day}T00:00:00Z`);
  const index = (Date.parse(`${day}T00:00:00Z`) - Date.parse(`${origin}T00:00:00Z`)) / DAY_MS;
  return scale * (100 + 0.5 * index + ([0, 6].includes(date.getUTCDay()) ? 20 : 0) + (date.getUTCDate() === 1 ? 300 : 0));
}

/**
 * Days of history that always hold a first of the month (no month is longer than 31 days): a model that never saw
 * one cannot forecast the first's +300, which a forecast starting today meets on the first of every month.
 */
const A_MONTH = 31;

/** `days` days of a series up to yesterday, one row a day. */
function history(days: number, scale = 1, extra: Partial<RowInput> = {}): RowInput[] {
  const origin = dayAfter(yesterday, -(days - 1));
  return Array.from({ length: days }, (_, i) => {
    const day = dayAfter(origin, i);
    const amount = formula(day, origin, scale).toFixed(2);
    return { usage_date: day, amortized_cost: amount, billed_cost: amount, ...extra };
  });
}

describe('POST /v1/cost-insights/forecast', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t?.close();
  });
  const ask = (who: TestOrganization, body: object) => t.http.post(FORECAST).set(who.auth).send(body);

  it('continues an exactly patterned history day by day, with empty intervals and a perfect backtest', async () => {
    const org = await t.newOrganization();
    const rows = history(100);
    await t.insertRows(org.organizationId, rows);
    const origin = rows[0].usage_date;
    const end = dayAfter(yesterday, 20);
    const response = await ask(org, { forecastEnd: end });
    expect(response.status).toBe(200);
    expect(response.headers['x-currency']).toBe('USD');
    const data = response.body.data;
    expect(data).toMatchObject({
      currency: 'USD',
      metric: 'amortized_cost',
      date_grouping: 'daily',
      prediction_interval_level: 80,
      last_complete_day: yesterday,
      forecast_end: end,
    });
    expect(data.series).toHaveLength(1);
    const [series] = data.series;
    expect(series).not.toHaveProperty('dimension_value');
    expect(series.actuals).toEqual(rows.map((row) => ({ date: row.usage_date, amount: Number(row.amortized_cost) })));
    expect(series.points).toHaveLength(20);
    let total = 0;
    series.points.forEach((point: { date: string; mean: number; lower: number; upper: number }, i: number) => {
      const expected = formula(dayAfter(yesterday, i + 1), origin);
      total += expected;
      expect(point.date).toBe(dayAfter(yesterday, i + 1));
      expect(point.mean).toBeCloseTo(expected, 3);
      expect(point.lower).toBeCloseTo(expected, 3);
      expect(point.upper).toBeCloseTo(expected, 3);
    });
    expect(series.total.mean).toBeCloseTo(total, 2);
    expect(series.total.upper - series.total.lower).toBeCloseTo(0, 2);
    // This month: its actual days so far, and the formula for the rest of it.
    const month = `${today.slice(0, 7)}-01`;
    const monthEnd = dayAfter(`${dayAfter(month, 32).slice(0, 7)}-01`, -1);
    const actual = rows.filter((row) => row.usage_date >= month).reduce((sum, row) => sum + Number(row.amortized_cost), 0);
    let rest = 0;
    for (let day = today; day <= monthEnd; day = dayAfter(day, 1)) rest += formula(day, origin);
    expect(series.current_month.month).toBe(today.slice(0, 7));
    expect(series.current_month.actual).toBeCloseTo(actual, 2);
    expect(series.current_month.mean).toBeCloseTo(actual + rest, 2);
    expect(series.accuracy).toMatchObject({ training_days: 91, backtest: { origins: 4, horizon_days: 7, interval_coverage: 1 } });
    expect(series.accuracy.backtest.mape).toBeCloseTo(0, 4);
    expect(series.one_off_total).toBe(0);
  });

  it('sums the forecast days of each month with monthly points', async () => {
    const org = await t.newOrganization();
    const rows = history(60);
    await t.insertRows(org.organizationId, rows);
    const end = dayAfter(yesterday, 70);
    const response = await ask(org, { forecastEnd: end, dateGrouping: 'monthly', metric: 'billed_cost', predictionIntervalLevel: 95 });
    expect(response.status).toBe(200);
    const expected = new Map<string, number>();
    for (let day = today; day <= end; day = dayAfter(day, 1)) {
      const month = `${day.slice(0, 7)}-01`;
      expected.set(month, (expected.get(month) ?? 0) + formula(day, rows[0].usage_date));
    }
    const points = response.body.data.series[0].points as Array<{ date: string; mean: number }>;
    expect(points.map((point) => point.date)).toEqual([...expected.keys()]);
    points.forEach((point) => expect(point.mean).toBeCloseTo(expected.get(point.date)!, 2));
    expect(response.body.data).toMatchObject({ metric: 'billed_cost', prediction_interval_level: 95, date_grouping: 'monthly' });
  });

  it('forecasts the top values of a dimension on their own and the rest together; a data-scoped key sees its slice', async () => {
    const org = await t.newOrganization();
    const services = ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7'];
    await t.insertRows(
      org.organizationId,
      services.flatMap((service, i) => history(A_MONTH, 7 - i, { service })),
    );
    const end = dayAfter(yesterday, 7);
    const response = await ask(org, { forecastEnd: end, groupBy: { dimension: 'service' } });
    expect(response.status).toBe(200);
    const series = response.body.data.series as Array<{ dimension_value: string; points: Array<{ mean: number }> }>;
    expect(series.map((s) => s.dimension_value)).toEqual(['S1', 'S2', 'S3', 'S4', 'S5', '(other)']);
    const origin = dayAfter(yesterday, -(A_MONTH - 1));
    // (other): S6 and S7 together, scales 2 + 1.
    expect(series[5].points[0].mean).toBeCloseTo(formula(today, origin, 3), 2);
    expect(series[0].points[0].mean).toBeCloseTo(formula(today, origin, 7), 2);

    const scoped = await t.keyFor(org.organizationId, ['cost:read'], { inclusions: { services: ['S6'] } });
    const slice = await ask(scoped, { forecastEnd: end, groupBy: { dimension: 'service' } });
    expect(slice.body.data.series.map((s: { dimension_value: string }) => s.dimension_value)).toEqual(['S6']);
    expect(slice.body.data.series[0].points[0].mean).toBeCloseTo(formula(today, origin, 2), 2);
  });

  it('leaves tax, credits and adjustments out of the model and reports them', async () => {
    const org = await t.newOrganization();
    const rows = history(A_MONTH);
    await t.insertRows(org.organizationId, [
      ...rows,
      {
        usage_date: dayAfter(yesterday, -3),
        amortized_cost: '-250.5',
        billed_cost: '-250.5',
        charge_category: 'Credit',
        cost_type: 'Credit',
      },
      { usage_date: dayAfter(yesterday, -10), amortized_cost: '40.25', billed_cost: '40.25', charge_category: 'Tax', cost_type: 'Tax' },
    ]);
    const response = await ask(org, { forecastEnd: dayAfter(yesterday, 3) });
    expect(response.status).toBe(200);
    const [series] = response.body.data.series;
    expect(series.one_off_total).toBe(-210.25);
    expect(series.actuals).toEqual(rows.map((row) => ({ date: row.usage_date, amount: Number(row.amortized_cost) })));
    expect(series.points[0].mean).toBeCloseTo(formula(today, rows[0].usage_date), 2);
  });

  it('forecasts in the answer’s currency: costs billed in EUR converted at each day’s rate, or not at all in EUR', async () => {
    const org = await t.newOrganization();
    const rows = history(A_MONTH, 1, { billing_currency: 'EUR', cloud: 'Azure' });
    await t.insertRows(org.organizationId, rows);
    const rates = ['date,from,to,rate', ...rows.map((row) => `${row.usage_date},EUR,USD,1.25`)].join('\n');
    const loaded = await t.http.post('/v1/admin/exchange-rates?source=test').set(org.auth).set('Content-Type', 'text/csv').send(rates);
    expect(loaded.status).toBe(200);
    const end = dayAfter(yesterday, 3);
    const inUsd = await ask(org, { forecastEnd: end });
    expect(inUsd.headers['x-currency']).toBe('USD');
    expect(inUsd.body.data.series[0].actuals).toEqual(
      rows.map((row) => ({ date: row.usage_date, amount: Number(row.amortized_cost) * 1.25 })),
    );
    expect(inUsd.body.data.series[0].points[0].mean).toBeCloseTo(1.25 * formula(today, rows[0].usage_date), 2);
    const inEur = await ask(org, { forecastEnd: end, currency: 'EUR' });
    expect(inEur.headers['x-currency']).toBe('EUR');
    expect(inEur.body.data.series[0].points[0].mean).toBeCloseTo(formula(today, rows[0].usage_date), 2);
  });

  it('refuses what it cannot forecast, saying why', async () => {
    const org = await t.newOrganization();
    await t.insertRows(org.organizationId, history(10));
    const refused = async (body: object, text: string) => {
      const response = await ask(org, body);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain(text);
    };
    await refused({ forecastEnd: dayAfter(yesterday, 5) }, 'a forecast needs at least 14 days of history up to');
    await refused({ forecastEnd: dayAfter(yesterday, 5) }, 'has 10');
    await refused({ forecastEnd: yesterday }, `forecastEnd: expected a day after the last complete day ${yesterday}`);
    await refused({ forecastEnd: dayAfter(yesterday, 93) }, 'at most 92 days later');
    await refused({ forecastEnd: dayAfter(yesterday, 30), metric: 'total_savings' }, 'metric');
    await refused({ forecastEnd: dayAfter(yesterday, 30), predictionIntervalLevel: 100 }, 'predictionIntervalLevel');
    await refused({ forecastEnd: '2026-02-30' }, 'forecastEnd');
    await refused(
      { forecastEnd: dayAfter(yesterday, 30), filters: { inclusions: { dateRange: { start: '2026-01-01', end: '2026-01-31' } } } },
      'filters.inclusions.dateRange: not allowed in /forecast filters: forecastEnd sets the end',
    );
    expect((await t.http.post(FORECAST).send({ forecastEnd: dayAfter(yesterday, 5) })).status).toBe(401);
  });
});
