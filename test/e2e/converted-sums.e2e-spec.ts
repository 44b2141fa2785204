// modes: embedded server cluster — currency: converted sums built in the store
import { clickhouseTimestamp } from '../../src/common/dates/clickhouse-time';
import { MoneySql } from '../../src/cost-query/currency-conversion';
import { SqlParameters } from '../../src/cost-query/sql-parameters';
import { asNumber, Exact, exact, rounded, sum, times } from '../support/money';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * Converted sums (issue 29, migration 0021): a converting /data question is answered from the cost rows until a
 * build of the organisation's converted sums exists, then from the build — with the same bytes. Expectations are
 * computed here from the inserted amounts and the loaded rates (exact BigInt arithmetic: each EUR amount × its day's
 * rate, the latest earlier within 7 days, the answer rounded once to 10 places), never by the service's code; which
 * path answered is read from the service's metrics. The answer cache is off, so every question is computed.
 */
const DATA = '/v1/cost-insights/data';
const RATES = '/v1/admin/exchange-rates';
const CURRENCY = '/v1/admin/currency';

const DAY_MS = 86_400_000;
const dayAfter = (start: string, days: number) => new Date(Date.parse(`${start}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const isWeekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());

/** EUR→USD on business days from 25 Aug to `last` (weekends take Friday's), 4 places, varying by day. */
function eurUsdRates(last: string): Record<string, string> {
  const rates: Record<string, string> = {};
  for (let i = 0, day = '2026-08-25'; day <= last; day = dayAfter('2026-08-25', ++i)) {
    if (!isWeekend(day)) rates[day] = (1.07 + (i % 9) * 0.0013).toFixed(4);
  }
  return rates;
}
const ratesFile = (rates: Record<string, string>) =>
  `date,from,to,rate\n${Object.entries(rates)
    .map(([day, rate]) => `${day},EUR,USD,${rate}`)
    .join('\n')}\n`;

function rateOn(rates: Record<string, string>, day: string): string {
  for (let back = 0; back <= 7; back++) {
    const rate = rates[dayAfter(day, -back)];
    if (rate) return rate;
  }
  throw new Error(`no rate for ${day}`);
}

/** Two USD rows (AWS) and two EUR rows (Azure) a day, 10-place amounts, 1 Sep – 10 Oct 2026. */
function estate(): RowInput[] {
  const rows: RowInput[] = [];
  for (let i = 0; i < 40; i++) {
    const day = dayAfter('2026-09-01', i);
    const amount = (base: number) => `${base + i}.${String(1234567891 + i * 7919).padStart(10, '0')}`;
    const row = (currency: string, service: string, base: number, tags: Record<string, string>): RowInput => ({
      usage_date: day,
      amortized_cost: amount(base),
      billed_cost: amount(base + 1),
      billing_currency: currency,
      service,
      ...(currency === 'EUR' ? { cloud: 'Azure', account_id: 'azure-sub-1', integration_id: 'azure-ea' } : {}),
      resource_tags: tags,
    });
    rows.push(row('USD', 'Amazon EC2', 10, { team: 'web' }), row('USD', 'Amazon S3', 3, {}));
    rows.push(row('EUR', 'Virtual Machines', 20, { team: 'web' }), row('EUR', 'Storage', 5, { team: 'data' }));
  }
  return rows;
}

/** Per item key, the amount in USD: Σ USD + Σ EUR × its day's rate, rounded once. */
function expectedItems(
  rows: RowInput[],
  rates: Record<string, string>,
  keyOf: (row: RowInput) => string,
  metric: 'amortized_cost' | 'billed_cost',
  policy: 'usage_date' | 'period_end' = 'usage_date',
): Map<string, Exact> {
  const parts = new Map<string, Exact[]>();
  for (const row of rows) {
    const amount = exact(row[metric]!);
    const rateDay = policy === 'usage_date' ? row.usage_date : lastDayOf(row.usage_date);
    const inUsd = row.billing_currency === 'EUR' ? times(amount, exact(rateOn(rates, rateDay))) : amount;
    parts.set(keyOf(row), [...(parts.get(keyOf(row)) ?? []), inUsd]);
  }
  return new Map([...parts].map(([key, amounts]) => [key, rounded(sum(amounts))]));
}
/** The last day of the day's month: the day before the first of the next. */
const lastDayOf = (day: string) => dayAfter(`${dayAfter(`${day.slice(0, 8)}01`, 32).slice(0, 8)}01`, -1);

interface Item {
  usage_date: string;
  dimension_value?: string;
  amortized_cost: number;
  billed_cost: number;
}

describe('converted sums: converted answers read a build, with the same bytes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ settings: { RESULT_CACHE_MAX_MB: '0' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (who: TestOrganization, body: object, accept = 'application/json') =>
    t.http.post(DATA).set(who.auth).set('Accept', accept).send(body);
  const loadRates = async (who: TestOrganization, rates: Record<string, string>) =>
    expect(
      (await t.http.post(`${RATES}?source=treasury`).set(who.auth).set('Content-Type', 'text/csv').send(ratesFile(rates))).status,
    ).toBe(200);

  async function counters() {
    const text = (await t.http.get('/metrics')).text;
    const value = (pattern: string) => Number(new RegExp(`^${pattern} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    return {
      fromSums: value('cost_insights_converted_answers_total\\{read="converted_sums"\\}'),
      fromRows: value('cost_insights_converted_answers_total\\{read="cost_rows"\\}'),
      built: value('cost_insights_converted_sum_builds_total\\{outcome="built"\\}'),
      missingRates: value('cost_insights_converted_sum_builds_total\\{outcome="missing_rates"\\}'),
    };
  }

  /** Asks `body` until an answer comes from a build (at most ~60 s); returns that answer. */
  async function fromBuild(who: TestOrganization, body: object, accept?: string) {
    for (let attempt = 0; attempt < 120; attempt++) {
      const before = await counters();
      const response = await post(who, body, accept);
      if ((await counters()).fromSums > before.fromSums) return response;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('no answer came from converted sums');
  }

  const DAILY_BY_SERVICE = {
    filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-10' } } },
    groupBy: { dateGrouping: 'daily', dimension: 'service' },
  };
  const MONTHLY_BY_ACCOUNT = {
    filters: { inclusions: { dateRange: { start: '2026-09-01', end: '2026-10-31' } } },
    groupBy: { dateGrouping: 'monthly', dimension: 'account' },
  };
  const month = (day: string) => `${day.slice(0, 7)}-01`;

  function expectItems(
    items: Item[],
    rows: RowInput[],
    rates: Record<string, string>,
    keyOf: (row: RowInput) => string,
    policy?: 'period_end',
  ) {
    const amortized = expectedItems(rows, rates, keyOf, 'amortized_cost', policy);
    const billed = expectedItems(rows, rates, keyOf, 'billed_cost', policy);
    expect(items.map((item) => [item.usage_date, item.dimension_value, item.amortized_cost, item.billed_cost])).toEqual(
      [...amortized.keys()].sort().map((key) => [...key.split('|'), asNumber(amortized.get(key)!), asNumber(billed.get(key)!)]),
    );
  }

  it('answers from the cost rows first, then from the build: the same bytes, JSON and CSV, exact to 10 places', async () => {
    // One organisation per question: only an organisation's first converted question is certain to be answered
    // before its build (started by that question) completes.
    const rows = estate();
    const rates = eurUsdRates('2026-10-10');
    const questions: [object, string?][] = [[DAILY_BY_SERVICE], [MONTHLY_BY_ACCOUNT], [MONTHLY_BY_ACCOUNT, 'text/csv']];
    const orgs = await Promise.all(
      questions.map(async () => {
        const org = await t.newOrganization();
        await t.insertRows(org.organizationId, rows);
        await loadRates(org, rates);
        return org;
      }),
    );

    const before = await counters();
    const direct = [];
    for (const [i, [body, accept]] of questions.entries()) {
      const ahead = await counters();
      direct.push(await post(orgs[i], body, accept));
      const behind = await counters();
      expect([behind.fromRows - ahead.fromRows, behind.fromSums - ahead.fromSums]).toEqual([1, 0]);
    }
    expect(direct.map((response) => response.status)).toEqual([200, 200, 200]);

    const october = rows.filter((row) => row.usage_date >= '2026-10-01');
    expectItems(direct[0].body.data.items as Item[], october, rates, (row) => `${row.usage_date}|${row.service}`);
    expectItems(direct[1].body.data.items as Item[], rows, rates, (row) => `${month(row.usage_date)}|${row.account_id ?? '111111111111'}`);

    const built = [];
    for (const [i, [body, accept]] of questions.entries()) built.push(await fromBuild(orgs[i], body, accept));
    expect((await counters()).built).toBeGreaterThan(before.built);
    expect(built.map((response) => response.text)).toEqual(direct.map((response) => response.text));
    expect(built[1].body.data.summary).toEqual(direct[1].body.data.summary);
    expect(built[1].body.data.summary.exchange_rates[0]).toMatchObject({
      from: 'EUR',
      to: 'USD',
      first_date: '2026-09-01',
      last_date: '2026-10-10',
    });
  });

  it('a rate loaded or a cost imported later counts at once; the build of the earlier inputs is never read again', async () => {
    const org = await t.newOrganization();
    const rows = estate();
    await t.insertRows(org.organizationId, rows);
    const rates = eurUsdRates('2026-10-10');
    await loadRates(org, rates);
    await post(org, DAILY_BY_SERVICE);
    await fromBuild(org, DAILY_BY_SERVICE);

    const changed = { ...rates, '2026-10-05': '1.2345', '2026-10-09': '0.9876' };
    await loadRates(org, changed);
    const october = rows.filter((row) => row.usage_date >= '2026-10-01');
    const key = (row: RowInput) => `${row.usage_date}|${row.service}`;
    const before = await counters();
    expectItems((await post(org, DAILY_BY_SERVICE)).body.data.items as Item[], october, changed, key);
    expect((await counters()).fromSums).toBe(before.fromSums);
    expectItems((await fromBuild(org, DAILY_BY_SERVICE)).body.data.items as Item[], october, changed, key);

    const late: RowInput = {
      usage_date: '2026-10-07',
      amortized_cost: '1000.0000000001',
      billed_cost: '3',
      billing_currency: 'EUR',
      service: 'Storage',
      cloud: 'Azure',
      account_id: 'azure-sub-1',
      integration_id: 'azure-ea',
    };
    await t.insertRows(org.organizationId, [late]);
    expectItems((await post(org, DAILY_BY_SERVICE)).body.data.items as Item[], [...october, late], changed, key);
    expectItems((await fromBuild(org, DAILY_BY_SERVICE)).body.data.items as Item[], [...october, late], changed, key);
  });

  it('converts tag questions from the cost rows (a build keeps no tags), with the same numbers', async () => {
    const org = await t.newOrganization();
    const rows = estate();
    await t.insertRows(org.organizationId, rows);
    const rates = eurUsdRates('2026-10-10');
    await loadRates(org, rates);
    await fromBuild(org, MONTHLY_BY_ACCOUNT);
    const byTeam = { ...MONTHLY_BY_ACCOUNT, groupBy: { dateGrouping: 'monthly', dimension: 'tag:team' } };
    const before = await counters();
    const response = await post(org, byTeam);
    expect((await counters()).fromSums).toBe(before.fromSums);
    expectItems(
      response.body.data.items as Item[],
      rows,
      rates,
      (row) => `${month(row.usage_date)}|${row.resource_tags?.team ?? '(not set)'}`,
    );
  });

  it('builds by billing period when the organisation converts at the period’s last rate', async () => {
    const org = await t.newOrganization();
    const rows = estate();
    await t.insertRows(org.organizationId, rows);
    const rates = eurUsdRates('2026-10-31');
    await loadRates(org, rates);
    expect((await t.http.put(CURRENCY).set(org.auth).send({ conversionPolicy: 'period_end' })).status).toBe(200);
    const key = (row: RowInput) => `${month(row.usage_date)}|${row.account_id ?? '111111111111'}`;
    const direct = await post(org, MONTHLY_BY_ACCOUNT);
    expectItems(direct.body.data.items as Item[], rows, rates, key, 'period_end');
    expect((await fromBuild(org, MONTHLY_BY_ACCOUNT)).text).toBe(direct.text);
  });

  it('builds nothing while a day of the costs has no rate: answers whose window has rates still convert, from the cost rows', async () => {
    const org = await t.newOrganization();
    const rows = estate();
    await t.insertRows(org.organizationId, rows);
    // September has no rate (August's end up to 31 Aug only covers up to 7 Sep).
    const rates = Object.fromEntries(
      Object.entries(eurUsdRates('2026-10-10')).filter(([day]) => day < '2026-09-01' || day >= '2026-10-01'),
    );
    await loadRates(org, rates);
    const before = await counters();
    const october = rows.filter((row) => row.usage_date >= '2026-10-01');
    const key = (row: RowInput) => `${row.usage_date}|${row.service}`;
    expectItems((await post(org, DAILY_BY_SERVICE)).body.data.items as Item[], october, rates, key);
    for (let attempt = 0; attempt < 60 && (await counters()).missingRates === before.missingRates; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect((await counters()).missingRates).toBe(before.missingRates + 1);
    expectItems((await post(org, DAILY_BY_SERVICE)).body.data.items as Item[], october, rates, key);
    expect((await counters()).fromSums).toBe(before.fromSums);
    const refused = await post(org, MONTHLY_BY_ACCOUNT);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('no exchange rate from EUR to USD for 2026-09-08 to 2026-09-30');
  });

  it('never applies a rate stored before rates were bounded (the finding’s ~1e20): no build, an answer meeting it is the 400 naming pair and day', async () => {
    const org = await t.newOrganization();
    const rows = estate();
    await t.insertRows(org.organizationId, rows);
    const rates = eurUsdRates('2026-10-10');
    await loadRates(org, rates);
    // As an import could store it before the bounds (20 integer digits: what Decimal(38, 18) holds); it replaces
    // the file's rate of that Monday (loaded later).
    await t.clickhouse.insert('exchange_rates', [
      {
        organization_id: org.organizationId,
        rate_date: '2026-10-05',
        base_currency: 'EUR',
        quote_currency: 'USD',
        rate: '99999999999999999999',
        source: 'legacy',
        loaded_at: clickhouseTimestamp(Date.now() + 1000),
      },
    ]);
    const before = await counters();
    const afterIt = { ...DAILY_BY_SERVICE, filters: { inclusions: { dateRange: { start: '2026-10-06', end: '2026-10-10' } } } };
    const key = (row: RowInput) => `${row.usage_date}|${row.service}`;
    const later = rows.filter((row) => row.usage_date >= '2026-10-06' && row.usage_date <= '2026-10-10');
    expectItems((await post(org, afterIt)).body.data.items as Item[], later, rates, key);
    for (let attempt = 0; attempt < 60 && (await counters()).missingRates === before.missingRates; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect((await counters()).missingRates).toBe(before.missingRates + 1);
    expectItems((await post(org, afterIt)).body.data.items as Item[], later, rates, key);
    expect((await counters()).fromSums).toBe(before.fromSums);
    const refused = await post(org, DAILY_BY_SERVICE);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(
      'currency: no usable exchange rate from EUR to USD for 2026-10-05 (the direct rate of 2026-10-05 is 99999999999999999999, outside 1e-12 to 1e12); load rates with',
    );
  });

  it('rounds each converted number as the exact Decimal256 sum rounds, half away from zero (ties and negatives too)', async () => {
    const answer = new MoneySql(
      { target: 'USD', policy: 'usage_date', rates: new Map(), missing: new Map(), unusable: new Map() },
      new SqlParameters(),
    ).total('x');
    // 28 places: random digits, or an exact tie at the 11th place (every tenth value); half of them negative.
    const [row] = await t.clickhouse.query<{ values: string; ties: string; mismatches: string }>(
      `SELECT toString(count()) AS values, toString(countIf(number % 10 = 0)) AS ties,
              toString(countIf(${answer} != toDecimal128(round(x, 10), 10))) AS mismatches
       FROM (
         SELECT number, toDecimal256(concat(if(number % 2 = 1, '-', ''), toString(cityHash64(number, 1) % 1000000), '.',
                  if(number % 10 = 0,
                     concat(leftPad(toString(cityHash64(number, 2) % 10000000000), 10, '0'), '5', repeat('0', 17)),
                     concat(leftPad(toString(cityHash64(number, 3)), 20, '0'), leftPad(toString(cityHash64(number, 4) % 100000000), 8, '0')))), 28) AS x
         FROM numbers(200000)
       )`,
    );
    expect(row).toEqual({ values: '200000', ties: '20000', mismatches: '0' });
  });
});
