// modes: embedded server cluster — currency conversion in ClickHouse SQL
import { parse } from 'csv-parse/sync';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { listen, startAppWithEnv } from '../support/app-with-env';
import { CostInsightsApiClient } from '../../clients/backstage-cost-insights/src';
import { asNumber, dividedBy, Exact, exact, rounded, sum, text, times } from '../support/money';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * Money that adds up (issue 29): no answer adds two currencies. Every expectation is computed here from the inserted
 * amounts and the loaded rates with exact BigInt arithmetic (test/support/money.ts), never by the service's code:
 * a day's sum per currency × that day's rate (the latest earlier one within 7 days), inverse and cross rates to 18
 * places (half to even), the answer rounded once to 10 places.
 */
const DATA = '/v1/cost-insights/data';
const COMPARE = '/v1/cost-insights/compare';
const FILTERS = '/v1/cost-insights/filters';
const CURRENCY = '/v1/admin/currency';
const RATES = '/v1/admin/exchange-rates';
const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };

/** ECB-style rates: business days only (3–4 Oct 2026 are a weekend, so is 10–11). */
const ECB_FILE = [
  'Date,USD,GBP,',
  '2026-10-01,1.0823,0.8312,',
  '2026-10-02,1.0850,0.8301,',
  '2026-10-05,1.0790,0.8333,',
  '2026-10-09,1.1000,0.8400,',
].join('\n');
const EUR_USD: Record<string, string> = { '2026-10-01': '1.0823', '2026-10-02': '1.0850', '2026-10-05': '1.0790', '2026-10-09': '1.1000' };
const EUR_GBP: Record<string, string> = { '2026-10-01': '0.8312', '2026-10-02': '0.8301', '2026-10-05': '0.8333', '2026-10-09': '0.8400' };

/** The rate of `day` from a table of loaded days: that day's, else the latest earlier within 7 days. */
function rateOn(table: Record<string, string>, day: string): string {
  for (let back = 0; back <= 7; back++) {
    const date = new Date(Date.parse(`${day}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);
    if (table[date]) return table[date];
  }
  throw new Error(`no rate for ${day}`);
}

const usd = (usage_date: string, amortized_cost: string, extra: Partial<RowInput> = {}): RowInput => ({
  usage_date,
  amortized_cost,
  billed_cost: amortized_cost,
  billing_currency: 'USD',
  cloud: 'AWS',
  service: 'Amazon EC2',
  ...extra,
});
const eur = (usage_date: string, amortized_cost: string, extra: Partial<RowInput> = {}): RowInput => ({
  ...usd(usage_date, amortized_cost, extra),
  billing_currency: 'EUR',
  cloud: 'Azure',
  service: 'Virtual Machines',
  integration_id: 'azure-ea',
  ...extra,
});

/** The estate: USD on AWS, EUR on Azure, on rate days, a weekend day and a day past the last rate. */
const ROWS: RowInput[] = [
  usd('2026-10-01', '100.5'),
  usd('2026-10-04', '20.25'),
  usd('2026-10-09', '7'),
  eur('2026-10-01', '10.0000000001'),
  eur('2026-10-01', '2.5'),
  eur('2026-10-03', '33.3333333333'), // Saturday: Friday's rate
  eur('2026-10-05', '0.0000000003'),
  eur('2026-10-09', '12.75'),
];

/** Σ per day of (that day's EUR sum × its rate) + the USD rows, rounded once. */
function inUsd(rows: RowInput[]): Exact {
  const byDay = new Map<string, Exact[]>();
  const own: Exact[] = [];
  for (const row of rows) {
    if (row.billing_currency === 'USD') own.push(exact(row.amortized_cost!));
    else byDay.set(row.usage_date, [...(byDay.get(row.usage_date) ?? []), exact(row.amortized_cost!)]);
  }
  const converted = [...byDay].map(([day, amounts]) => times(sum(amounts), exact(rateOn(EUR_USD, day))));
  return rounded(sum([...own, ...converted]));
}

describe('currencies: no answer adds two currencies', () => {
  let t: TestApp;
  let org: TestOrganization;

  const post = (who: TestOrganization, path: string, body: unknown) =>
    t.http
      .post(path)
      .set(who.auth)
      .send(body as object);
  const loadRates = (who: TestOrganization, file: string, source?: string) =>
    t.http
      .post(`${RATES}${source ? `?source=${encodeURIComponent(source)}` : ''}`)
      .set(who.auth)
      .set('Content-Type', 'text/csv')
      .send(file);
  const monthly = (extra: object = {}) => ({
    filters: { inclusions: { dateRange: OCTOBER } },
    groupBy: { dateGrouping: 'monthly' },
    ...extra,
  });

  beforeAll(async () => {
    t = await TestApp.start();
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, ROWS);
    const loaded = await loadRates(org, ECB_FILE);
    expect(loaded.status).toBe(200);
    expect(loaded.body.data).toEqual({
      format: 'ecb',
      rates: 8,
      pairs: [
        { pair: 'EUR/GBP', rates: 4, first: '2026-10-01', last: '2026-10-09' },
        { pair: 'EUR/USD', rates: 4, first: '2026-10-01', last: '2026-10-09' },
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers in the reporting currency (USD by default): each day of EUR at its rate, weekends at Friday’s', async () => {
    const response = await post(org, DATA, monthly());
    expect(response.status).toBe(200);
    expect(response.headers['x-currency']).toBe('USD');
    expect(response.body.data.currency).toBe('USD');
    const expected = inUsd(ROWS);
    expect(response.body.data.items).toHaveLength(1);
    expect(response.body.data.items[0].amortized_cost).toBe(asNumber(expected));
    // ClickHouse writes the exact digits.
    expect(response.text).toContain(`"amortized_cost":${text(expected)}`);
    expect(response.body.data.summary.total_amortized_cost).toBe(asNumber(expected));
    expect(response.body.data.summary.exchange_rates).toEqual([
      {
        from: 'EUR',
        to: 'USD',
        policy: 'usage_date',
        first_date: '2026-10-01',
        last_date: '2026-10-09',
        min_rate: '1.079',
        max_rate: '1.1',
        derivations: ['direct'],
        sources: ['ECB'],
      },
    ]);
  });

  it('converts the other way with the inverse rate (18 places), EUR rows unconverted', async () => {
    const response = await post(org, DATA, monthly({ currency: 'EUR', groupBy: { dateGrouping: 'daily' } }));
    expect(response.status).toBe(200);
    expect(response.headers['x-currency']).toBe('EUR');
    const byDay = Object.fromEntries(
      response.body.data.items.map((item: { usage_date: string; amortized_cost: number }) => [item.usage_date, item.amortized_cost]),
    );
    const inverse = (day: string) => dividedBy(exact('1'), exact(rateOn(EUR_USD, day)));
    const expected = (day: string) => {
      const rows = ROWS.filter((row) => row.usage_date === day);
      const own = rows.filter((row) => row.billing_currency === 'EUR').map((row) => exact(row.amortized_cost!));
      const foreign = rows.filter((row) => row.billing_currency === 'USD').map((row) => exact(row.amortized_cost!));
      return asNumber(rounded(sum([...own, ...(foreign.length ? [times(sum(foreign), inverse(day))] : [])])));
    };
    for (const day of ['2026-10-01', '2026-10-03', '2026-10-04', '2026-10-05', '2026-10-09'])
      expect({ day, cost: byDay[day] }).toEqual({ day, cost: expected(day) });
    expect(response.body.data.summary.exchange_rates[0]).toMatchObject({ from: 'USD', to: 'EUR', derivations: ['inverse'] });
  });

  it('filtered to one billing currency and asked in it: that currency’s amounts, unconverted, no rates stated', async () => {
    const response = await post(
      org,
      DATA,
      monthly({ currency: 'EUR', filters: { inclusions: { dateRange: OCTOBER, billingCurrencies: ['EUR'] } } }),
    );
    expect(response.status).toBe(200);
    const expected = sum(ROWS.filter((row) => row.billing_currency === 'EUR').map((row) => exact(row.amortized_cost!)));
    expect(response.text).toContain(`"amortized_cost":${text(expected)}`);
    expect(response.body.data.summary).not.toHaveProperty('exchange_rates');
  });

  it('counts the items, not the days converted, against MAX_RESULT_ROWS', async () => {
    const limited = await startAppWithEnv({ MAX_RESULT_ROWS: '2' });
    try {
      // One item per currency for the month: 2 items, though the EUR rows span 4 days (4 converted groups).
      const byCurrency = await limited.http
        .post(DATA)
        .set(org.auth)
        .send(monthly({ groupBy: { dateGrouping: 'monthly', dimension: 'billingCurrency' } }));
      expect(byCurrency.status).toBe(200);
      expect(byCurrency.body.data.items).toHaveLength(2);
      const daily = await limited.http
        .post(DATA)
        .set(org.auth)
        .send(monthly({ groupBy: { dateGrouping: 'daily' } }));
      expect(daily.status).toBe(400);
      expect(daily.body.error.message).toContain('the result would have 5 items, more than 2 (MAX_RESULT_ROWS)');
    } finally {
      await limited.close();
    }
  });

  it('grouped by billingCurrency: what each currency contributes to the converted total', async () => {
    const response = await post(org, DATA, monthly({ groupBy: { dateGrouping: 'monthly', dimension: 'billingCurrency' } }));
    const items = response.body.data.items as { dimension_value: string; amortized_cost: number }[];
    expect(items.map((item) => item.dimension_value)).toEqual(['EUR', 'USD']);
    expect(items[0].amortized_cost).toBe(asNumber(inUsd(ROWS.filter((row) => row.billing_currency === 'EUR'))));
    expect(items[1].amortized_cost).toBe(asNumber(inUsd(ROWS.filter((row) => row.billing_currency === 'USD'))));
    expect(response.body.data.summary.total_amortized_cost).toBe(asNumber(inUsd(ROWS)));
  });

  it('crosses through the common base (GBP in USD = USD ÷ GBP, both against EUR)', async () => {
    const other = await t.newOrganization();
    await t.insertRows(other.organizationId, [
      { ...usd('2026-10-02', '40'), billing_currency: 'GBP' },
      { ...usd('2026-10-05', '0.1234567891'), billing_currency: 'GBP' },
    ]);
    expect((await loadRates(other, ECB_FILE)).status).toBe(200);
    const response = await post(other, DATA, monthly());
    const cross = (day: string) => dividedBy(exact(rateOn(EUR_USD, day)), exact(rateOn(EUR_GBP, day)));
    const expected = rounded(sum([times(exact('40'), cross('2026-10-02')), times(exact('0.1234567891'), cross('2026-10-05'))]));
    expect(response.body.data.summary.total_amortized_cost).toBe(asNumber(expected));
    expect(response.body.data.summary.exchange_rates[0]).toMatchObject({ from: 'GBP', to: 'USD', derivations: ['cross via EUR'] });
  });

  it('refuses a day without a rate within 7 days, naming the pair and the first and last such dates; nothing 1:1', async () => {
    const other = await t.newOrganization();
    await t.insertRows(other.organizationId, [
      eur('2026-10-01', '1'),
      eur('2026-10-17', '1'),
      eur('2026-10-20', '1'),
      usd('2026-10-20', '5'),
    ]);
    expect((await loadRates(other, ECB_FILE)).status).toBe(200);
    const response = await post(other, DATA, monthly());
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe(
      'Invalid request. Please see message details. currency: no exchange rate from EUR to USD for 2026-10-17 to 2026-10-20 (a rate of that day or of up to 7 days before it); ' +
        'load rates with `npm run -s cli -- rates import <file> --org <organisation>` or POST /v1/admin/exchange-rates (ECB reference rates or date,from,to,rate)',
    );
    // Within the rates, the same organisation answers.
    const early = await post(other, DATA, {
      ...monthly(),
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-16' } } },
    });
    expect(early.status).toBe(200);
    expect(early.body.data.summary.total_amortized_cost).toBe(asNumber(rounded(exact('1.0823'))));
    // In its own currency, a filtered selection needs no rate.
    const own = await post(other, DATA, { ...monthly(), filters: { inclusions: { dateRange: OCTOBER, billingCurrencies: ['USD'] } } });
    expect(own.status).toBe(200);
    expect(own.body.data.summary.total_amortized_cost).toBe(5);
  });

  it('never applies a cross rate outside 1e-12 to 1e12 or rounding to 0: the answer is the 400 naming the pair and the day', async () => {
    // The finding: rates whose cross rate rounds to 0 converted the USD items to 0. Each file is accepted alone (its
    // one rate lies within the bounds, bounds included); together they cross USD→GBP at 1e-24 and GBP→USD at 1e24.
    const other = await t.newOrganization();
    await t.insertRows(other.organizationId, [
      usd('2026-10-05', '100'),
      usd('2026-10-06', '7'),
      { ...usd('2026-10-05', '3'), billing_currency: 'GBP' },
    ]);
    expect((await loadRates(other, 'date,from,to,rate\n2026-10-05,EUR,USD,1000000000000\n', 'treasury')).status).toBe(200);
    expect((await loadRates(other, 'date,from,to,rate\n2026-10-05,EUR,GBP,0.000000000001\n', 'treasury')).status).toBe(200);
    const load =
      'load rates with `npm run -s cli -- rates import <file> --org <organisation>` or POST /v1/admin/exchange-rates (ECB reference rates or date,from,to,rate)';
    const inGbp = await post(other, DATA, monthly({ currency: 'GBP' }));
    expect(inGbp.status).toBe(400);
    expect(inGbp.body.error.message).toBe(
      'Invalid request. Please see message details. currency: no usable exchange rate from USD to GBP for 2026-10-05 to 2026-10-06 ' +
        `(the cross rate via EUR of 2026-10-05 is 0 at 18 places, outside 1e-12 to 1e12); ${load}`,
    );
    const inUsd = await post(other, DATA, monthly({ currency: 'USD' }));
    expect(inUsd.status).toBe(400);
    expect(inUsd.body.error.message).toBe(
      'Invalid request. Please see message details. currency: no usable exchange rate from GBP to USD for 2026-10-05 ' +
        `(the cross rate via EUR of 2026-10-05 is 1000000000000000000000000, outside 1e-12 to 1e12); ${load}`,
    );
    // The inverse rates (1e-12 and 1e12) lie on the bounds: they apply.
    const inEur = await post(other, DATA, monthly({ currency: 'EUR' }));
    expect(inEur.status).toBe(200);
    const expected = rounded(sum([times(exact('107'), exact('0.000000000001')), times(exact('3'), exact('1000000000000'))]));
    expect(inEur.text).toContain(`"amortized_cost":${text(expected)}`);
  });

  it('converts at the billing period’s last rate when the organisation says so, and says the currency it reports in', async () => {
    const other = await t.newOrganization();
    await t.insertRows(other.organizationId, [eur('2026-09-10', '10'), eur('2026-10-02', '20'), eur('2026-10-09', '5')]);
    const rates = 'date,from,to,rate\n2026-09-30,EUR,USD,1.05\n2026-10-02,EUR,USD,1.09\n2026-10-29,EUR,USD,1.2\n';
    expect((await loadRates(other, rates, 'treasury')).status).toBe(200);
    const set = await t.http.put(CURRENCY).set(other.auth).send({ conversionPolicy: 'period_end' });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ reportingCurrency: 'USD', conversionPolicy: 'period_end', billingCurrencies: ['EUR'] });
    const response = await post(other, DATA, {
      filters: { inclusions: { dateRange: { start: '2026-09-01', end: '2026-10-31' } } },
      groupBy: { dateGrouping: 'monthly' },
    });
    const items = response.body.data.items as { usage_date: string; amortized_cost: number }[];
    // September at 30 Sep's rate; October's last day has none: 29 Oct's (2 days before) applies.
    expect(items.map((item) => [item.usage_date, item.amortized_cost])).toEqual([
      ['2026-09-01', asNumber(rounded(times(exact('10'), exact('1.05'))))],
      ['2026-10-01', asNumber(rounded(times(exact('25'), exact('1.2'))))],
    ]);
    expect(response.body.data.summary.exchange_rates[0]).toMatchObject({
      policy: 'period_end',
      first_date: '2026-09',
      last_date: '2026-10',
      sources: ['treasury'],
    });
    // The reporting currency changes every later answer (the answer cache included).
    expect((await t.http.put(CURRENCY).set(other.auth).send({ reportingCurrency: 'EUR' })).status).toBe(200);
    const inEur = await post(other, DATA, {
      filters: { inclusions: { dateRange: { start: '2026-09-01', end: '2026-10-31' } } },
      groupBy: { dateGrouping: 'monthly' },
    });
    expect(inEur.headers['x-currency']).toBe('EUR');
    expect(inEur.body.data.summary.total_amortized_cost).toBe(35);
    expect(inEur.body.data.summary).not.toHaveProperty('exchange_rates');
  });

  it('compares two periods across a rate change, each day at its own rate', async () => {
    const response = await post(org, COMPARE, {
      baselinePeriod: { start: '2026-10-01', end: '2026-10-02' },
      comparisonPeriod: { start: '2026-10-05', end: '2026-10-09' },
      metric: 'amortized_cost',
      groupBy: { dimension: 'billingCurrency' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['x-currency']).toBe('USD');
    expect(response.body.data.currency).toBe('USD');
    const euro = response.body.data.comparisons.find((row: { dimension_value: string }) => row.dimension_value === 'EUR');
    const eurIn = (start: string, end: string) =>
      inUsd(ROWS.filter((row) => row.billing_currency === 'EUR' && row.usage_date >= start && row.usage_date <= end));
    expect(euro.baseline.total).toBe(asNumber(eurIn('2026-10-01', '2026-10-02')));
    expect(euro.comparison.total).toBe(asNumber(eurIn('2026-10-05', '2026-10-09')));
  });

  it('ranks /filters options by converted cost and says the currency', async () => {
    const other = await t.newOrganization();
    // 100 EUR at 1.1 is 110 USD: more than 105 USD.
    await t.insertRows(other.organizationId, [
      eur('2026-10-09', '100', { service: 'Azure VMs' }),
      usd('2026-10-09', '105', { service: 'Amazon EC2' }),
    ]);
    expect((await loadRates(other, ECB_FILE)).status).toBe(200);
    const response = await post(other, FILTERS, {
      filters: { inclusions: { dateRange: OCTOBER } },
      fields: ['services', 'billingCurrencies'],
    });
    expect(response.status).toBe(200);
    expect(response.headers['x-currency']).toBe('USD');
    expect(response.body.data.currency).toBe('USD');
    expect(response.body.data.enriched.services).toEqual([
      { value: 'Azure VMs', amortized_cost: 110 },
      { value: 'Amazon EC2', amortized_cost: 105 },
    ]);
    expect(response.body.data.billingCurrencies).toEqual(['EUR', 'USD']);
  });

  it('answers CSV in the asked currency, saying it in X-Currency', async () => {
    const response = await t.http
      .post(DATA)
      .set(org.auth)
      .set('Accept', 'text/csv')
      .send(monthly({ currency: 'USD', groupBy: { dateGrouping: 'monthly', dimension: 'billingCurrency' } }));
    expect(response.status).toBe(200);
    expect(response.headers['x-currency']).toBe('USD');
    const records = parse(response.text, { columns: true }) as Record<string, string>[];
    expect(records.map((record) => [record.billingCurrency, record.amortized_cost])).toEqual([
      ['EUR', text(inUsd(ROWS.filter((row) => row.billing_currency === 'EUR')))],
      ['USD', text(inUsd(ROWS.filter((row) => row.billing_currency === 'USD')))],
    ]);
  });

  it('leaves single-currency answers as they were: no rates stated, X-Currency USD', async () => {
    const plain = await t.newOrganization();
    await t.insertRows(plain.organizationId, [usd('2026-10-03', '1.25'), usd('2026-10-04', '2.5')]);
    const response = await post(plain, DATA, monthly());
    expect(response.headers['x-currency']).toBe('USD');
    expect(response.body.data.summary.total_amortized_cost).toBe(3.75);
    expect(Object.keys(response.body.data.summary)).not.toContain('exchange_rates');
  });

  it('refuses an unknown currency code with a 400 naming the field', async () => {
    for (const [path, body] of [
      [DATA, monthly({ currency: 'EURO' })],
      [COMPARE, { baselinePeriod: OCTOBER, comparisonPeriod: OCTOBER, metric: 'amortized_cost', currency: 'usd' }],
      [FILTERS, { currency: 'XXX' }],
    ] as const) {
      const response = await post(org, path, body);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(
        /currency: Expected an ISO 4217 currency code in capitals \(e\.g\. USD, EUR, JPY\), received "/,
      );
    }
  });

  it('states and honours the currency in the MCP tools, and refuses an unknown code as a tool error', async () => {
    const base = await listen(t);
    const client = new Client({ name: 'currency-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp`), { requestInit: { headers: org.auth } }));
    try {
      type Result = { isError?: boolean; content: { text: string }[] };
      const call = async (name: string, args: object) =>
        (await client.callTool({ name, arguments: args as Record<string, unknown> })) as Result;
      const data = await call('get_cost_data', monthly({ currency: 'USD' }));
      expect(data.isError ?? false).toBe(false);
      const answer = JSON.parse(data.content[0].text);
      expect(answer.currency).toBe('USD');
      expect(answer.summary.total_amortized_cost).toBe(asNumber(inUsd(ROWS)));
      const compare = JSON.parse(
        (await call('compare_costs', { baselinePeriod: OCTOBER, comparisonPeriod: OCTOBER, metric: 'amortized_cost', currency: 'EUR' }))
          .content[0].text,
      );
      expect(compare.currency).toBe('EUR');
      const values = JSON.parse(
        (await call('get_filter_values', { filters: { inclusions: { dateRange: OCTOBER } }, fields: ['clouds'] })).content[0].text,
      );
      expect(values.currency).toBe('USD');
      const unknown = await call('get_cost_data', monthly({ currency: 'EURO' }));
      expect(unknown.isError).toBe(true);
      expect(unknown.content[0].text).toContain('currency: Expected an ISO 4217 currency code');
      const late = await call('get_cost_data', {
        ...monthly(),
        filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-11-30' } } },
      });
      expect(late.isError ?? false).toBe(false); // no EUR cost after 9 October: nothing lacks a rate
    } finally {
      await client.close();
    }
  });

  it("passes the Backstage app's currency: the client's daily costs are in it", async () => {
    const base = await listen(t);
    const client = (currency?: string) =>
      new CostInsightsApiClient({
        baseUrl: `${base}/v1`,
        fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...org.auth } }),
        groups: { tag: 'team' },
        today: () => '2026-10-10',
        ...(currency ? { currency } : {}),
      });
    const daily = async (currency?: string) =>
      Object.fromEntries(
        (await client(currency).getDailyMetricData('amortized_cost', 'R2/P5D/2026-10-10')).aggregation.map((day) => [day.date, day.amount]),
      );
    const inEur = await daily('EUR');
    const euros = (day: string) =>
      rounded(
        sum(
          ROWS.filter((row) => row.usage_date === day).map((row) =>
            row.billing_currency === 'EUR'
              ? exact(row.amortized_cost!)
              : times(exact(row.amortized_cost!), dividedBy(exact('1'), exact(rateOn(EUR_USD, day)))),
          ),
        ),
      );
    expect(inEur['2026-10-09']).toBe(asNumber(euros('2026-10-09')));
    expect((await daily())['2026-10-09']).toBe(asNumber(inUsd(ROWS.filter((row) => row.usage_date === '2026-10-09'))));
  });

  describe('the admin routes', () => {
    it('needs rates:admin and a key without a data scope', async () => {
      const reader = await t.keyFor(org.organizationId, ['cost:read']);
      expect((await t.http.get(CURRENCY).set(reader.auth)).status).toBe(403);
      expect((await loadRates(reader, ECB_FILE)).status).toBe(403);
      const scoped = await t.keyFor(org.organizationId, ['rates:admin'], { inclusions: { clouds: ['AWS'] } });
      const refused = await t.http.put(CURRENCY).set(scoped.auth).send({ reportingCurrency: 'EUR' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/needs a key without a data scope/);
    });

    it('lists what is loaded and the billing currencies', async () => {
      const response = await t.http.get(CURRENCY).set(org.auth);
      expect(response.body.data).toEqual({
        reportingCurrency: 'USD',
        conversionPolicy: 'usage_date',
        billingCurrencies: ['EUR', 'USD'],
        exchangeRates: [
          { base: 'EUR', quote: 'GBP', rates: 4, firstDate: '2026-10-01', lastDate: '2026-10-09', sources: ['ECB'] },
          { base: 'EUR', quote: 'USD', rates: 4, firstDate: '2026-10-01', lastDate: '2026-10-09', sources: ['ECB'] },
        ],
      });
    });

    it('refuses bad files whole, naming the lines, and stores nothing of them', async () => {
      const before = (await t.http.get(CURRENCY).set(org.auth)).body.data.exchangeRates;
      const cases: [string, string[]][] = [
        [
          'Datum,USD\n2026-10-01,1.1\n',
          [
            'body: line 1: expected the header of an ECB reference-rate file (Date,USD,JPY,…) or of a pairs file (date,from,to,rate or date,from,to,rate,source)',
          ],
        ],
        [
          'Date,USD,\n2026-10-12,1.1,\n2026-10-13,abc,\n2026-10-14,0,\n2026-10-15,-2,\n',
          [
            'body: line 3: the USD rate "abc" is not a decimal number',
            'body: line 4: the USD rate 0 is not positive',
            'body: line 5: the USD rate -2 is not positive',
          ],
        ],
        [
          'date,from,to,rate,source\n2026-10-12,EUR,USD,1.1,x\n2026-10-12,EUR,USD,1.2,x\n',
          ['body: lines 2 and 3: two rates for EUR/USD on 2026-10-12 (1.1 and 1.2)'],
        ],
        [
          'date,from,to,rate,source\n2101-01-01,EUR,USD,1.1,x\n',
          ['body: line 2: 2101-01-01 is outside the dates rates may have (1990-01-01 to 2099-12-31)'],
        ],
      ];
      for (const [file, problems] of cases) {
        const response = await loadRates(org, file);
        expect(response.status).toBe(400);
        expect(response.body.error.message).toBe(`Invalid request. Please see message details. ${problems.join('; ')}`);
      }
      const json = await t.http.post(RATES).set(org.auth).send({ csv: ECB_FILE });
      expect(json.status).toBe(400);
      expect(json.body.error.message).toBe(
        'Invalid request. Please see message details. body: send the rates file itself as the body, with Content-Type: text/csv',
      );
      expect((await t.http.get(CURRENCY).set(org.auth)).body.data.exchangeRates).toEqual(before);
      expect((await t.http.put(CURRENCY).set(org.auth).send({ reportingCurrency: 'EURO' })).status).toBe(400);
      expect((await t.http.put(CURRENCY).set(org.auth).send({ conversionPolicy: 'monthly' })).status).toBe(400);
    });

    it('refuses rates outside 1e-12 to 1e12, loaded or crossed within the file, and sources outside the rule, naming line and field', async () => {
      const before = (await t.http.get(CURRENCY).set(org.auth)).body.data.exchangeRates;
      const rule = 'must be 1 to 64 letters, digits, spaces or ._:/()+-, starting with a letter or digit';
      const cases: [string, string[], string?][] = [
        [
          // The finding: EUR→USD ~1e20 and EUR→GBP 1e-18 (their cross rate rounds to 0).
          'date,from,to,rate,source\n2026-10-12,EUR,USD,99999999999999999999,x\n2026-10-12,EUR,GBP,0.000000000000000001,x\n',
          [
            'body: line 2: the rate 99999999999999999999 is outside 1e-12 to 1e12',
            'body: line 3: the rate 0.000000000000000001 is outside 1e-12 to 1e12',
          ],
        ],
        [
          'Date,USD,GBP,\n2026-10-12,1000000000000.000000000001,0.8,\n',
          ['body: line 2: the USD rate 1000000000000.000000000001 is outside 1e-12 to 1e12'],
        ],
        [
          'Date,USD,JPY,\n2026-10-12,0.000001,10000000,\n',
          [
            'body: line 2: EUR/USD 0.000001 and EUR/JPY 10000000 of 2026-10-12 give the cross rate USD/JPY 10000000000000, outside 1e-12 to 1e12',
          ],
        ],
        [
          'date,from,to,rate,source\n2026-10-12,USD,CHF,0.5,x\n2026-10-13,EUR,CHF,1,x\n2026-10-12,USD,JPY,700000000000,x\n',
          [
            'body: lines 2 and 4: USD/CHF 0.5 and USD/JPY 700000000000 of 2026-10-12 give the cross rate CHF/JPY 1400000000000, outside 1e-12 to 1e12',
          ],
        ],
        [
          `date,from,to,rate,source\n2026-10-12,EUR,USD,1.1,${'a'.repeat(65)}\n2026-10-13,EUR,USD,1.1,=HYPERLINK(http://evil.example/x)\n2026-10-14,EUR,USD,1.1,+SUM(A1)\n`,
          [`body: line 2: the source ${rule}`, `body: line 3: the source ${rule}`, `body: line 4: the source ${rule}`],
        ],
        ['date,from,to,rate\n2026-10-12,EUR,USD,1.1\n', [`source: ${rule}`], 'a'.repeat(65)],
        ['date,from,to,rate\n2026-10-12,EUR,USD,1.1\n', [`source: ${rule}`], '=HYPERLINK(http://evil.example/x)'],
      ];
      for (const [file, problems, source] of cases) {
        const response = await loadRates(org, file, source);
        expect({ file, status: response.status }).toEqual({ file, status: 400 });
        expect(response.body.error.message).toBe(`Invalid request. Please see message details. ${problems.join('; ')}`);
      }
      expect((await t.http.get(CURRENCY).set(org.auth)).body.data.exchangeRates).toEqual(before);
    });
  });
});
