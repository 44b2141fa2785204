// modes: embedded server cluster — rows and bytes read by ClickHouse SQL
import { toScaled, scaledToNumber } from '../support/decimals';
import { HttpAnswer, listen, send, startAppWithEnv } from '../support/app-with-env';
import { measureResults, StatementResult } from '../support/statement-interceptor';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 35 §1, the paging part: MCP get_cost_data used to compute the whole /data answer and cut the page out of it
 * (a 60-call batch of daily-by-usageType parsed 17.7 MB per call to return one item). Now the page and the top
 * values are cut in the statement. Proved by counts: the rows and bytes ClickHouse sends back for a limit of 1,
 * against those of the full answer's statement (what the tool ran before), and by answers equal to the ones
 * computed here from the full /data answer (REST, computed afresh), currency conversion included.
 */
const ACCEPT = 'application/json, text/event-stream';
const DATA = '/v1/cost-insights/data';
const TOP_VALUES = 10;
const WINDOW = { start: '2026-08-01', end: '2026-10-31' }; // 92 days
const USAGE_TYPES = 120;
const DAYS = 92;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const toolCall = (name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

/** A JSON number of the answers as an exact decimal (at most 10 places). */
const exact = (value: number): bigint => toScaled(value.toFixed(10).replace(/\.?0+$/, '') || '0');

/**
 * The top values and their count as the tool documents them, from the full answer's items: per dimension value, the
 * sum of its items' amortized and billed cost; highest amortized first, ties in order of first appearance.
 */
function expectedTopValues(items: Json[]) {
  const totals = new Map<string, { value: Json; amortized: bigint; billed: bigint }>();
  for (const item of items) {
    const value = item.dimension_values ?? item.dimension_value;
    if (value === undefined) continue;
    const key = JSON.stringify(value);
    const entry = totals.get(key) ?? { value, amortized: 0n, billed: 0n };
    entry.amortized += exact(item.amortized_cost);
    entry.billed += exact(item.billed_cost);
    totals.set(key, entry);
  }
  const ranked = [...totals.values()].sort((a, b) => (a.amortized === b.amortized ? 0 : a.amortized < b.amortized ? 1 : -1));
  return {
    distinct: ranked.length,
    top: ranked.slice(0, TOP_VALUES).map(({ value, amortized, billed }) => ({
      [typeof value === 'string' ? 'dimension_value' : 'dimension_values']: value,
      amortized_cost: scaledToNumber(amortized),
      billed_cost: scaledToNumber(billed),
    })),
  };
}

describe('MCP get_cost_data: the page is cut in the statement', () => {
  let t: TestApp;
  let base: string;
  let org: TestOrganization;
  let converting: TestOrganization;
  let results: StatementResult[] = [];

  beforeAll(async () => {
    t = await startAppWithEnv({ RATE_LIMIT_PER_MINUTE: '100000', ORGANIZATION_RATE_LIMIT_PER_MINUTE: '400000', MAX_RESULT_ROWS: '20000' });
    base = await listen(t);
    org = await t.newOrganization();
    // Two rows (two regions) per day and usage type: daily by usageType is 11,040 items, by usageType and region 22,080.
    await t.generate(
      `INSERT INTO ${t.clickhouse.table('cost_line_items')}
         (organization_id, usage_date, billing_period, cloud, service, usage_type, region, account_id, resource_tags,
          amortized_cost, billed_cost)
       SELECT {org:UUID}, toDate({start:String}) + (intDiv(number, 2) % {days:UInt32}) AS day, formatDateTime(day, '%Y-%m'),
              'AWS', concat('svc-', toString(intDiv(number, 2 * {days:UInt32}) % 7)),
              concat('usage-', toString(intDiv(number, 2 * {days:UInt32}))), concat('r', toString(number % 2)),
              toString(number % 5), map('team', concat('t', toString(number % 13))),
              toDecimal128(number % 997, 10) / 7, toDecimal128(number % 389, 10) / 3
       FROM numbers({rows:UInt64})`,
      { org: org.organizationId, start: WINDOW.start, days: DAYS, rows: 2 * DAYS * USAGE_TYPES },
    );
    // Billed in USD and EUR, answered in USD: the page statement converts like /data.
    converting = await t.newOrganization();
    const rows = [];
    for (let day = 1; day <= 20; day += 1) {
      const date = `2026-10-${String(day).padStart(2, '0')}`;
      rows.push({ usage_date: date, amortized_cost: `${day}.25`, billed_cost: `${day}.5`, billing_currency: 'USD', cloud: 'AWS' });
      rows.push({ usage_date: date, amortized_cost: `${day * 3}.1234567891`, billed_cost: '2', billing_currency: 'EUR', cloud: 'Azure' });
    }
    await t.insertRows(converting.organizationId, rows);
    const rates = 'date,from,to,rate\n2026-10-01,EUR,USD,1.05\n2026-10-08,EUR,USD,1.0912345\n2026-10-15,EUR,USD,1.2\n';
    const loaded = await t.http
      .post('/v1/admin/exchange-rates?source=treasury')
      .set(converting.auth)
      .set('Content-Type', 'text/csv')
      .send(rates);
    expect([loaded.status, loaded.body.error?.message]).toEqual([200, undefined]);
    measureResults(t.clickhouse, (result) => results.push(result));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const mcp = async (who: TestOrganization, args: unknown): Promise<{ isError?: boolean; text: string }> => {
    const answer: HttpAnswer = await send(`${base}/v1/mcp`, {
      method: 'POST',
      headers: { ...who.auth, 'Content-Type': 'application/json', Accept: ACCEPT },
      body: toolCall('get_cost_data', args),
    });
    expect(answer.status).toBe(200);
    const result = JSON.parse(answer.text).result;
    return { isError: result.isError, text: result.content[0].text };
  };
  const tool = async (who: TestOrganization, args: unknown): Promise<Json> => {
    const result = await mcp(who, args);
    expect([result.isError ?? false, result.text.slice(0, 200)]).toEqual([false, expect.any(String)]);
    return JSON.parse(result.text);
  };
  /** The full /data answer, computed afresh (not from the answer cache). */
  const full = async (who: TestOrganization, body: object): Promise<Json> => {
    const response = await t.http.post(DATA).set(who.auth).set('Cache-Control', 'no-cache').send(body);
    expect(response.status).toBe(200);
    return response.body.data;
  };
  /** The cost statements (those reading cost rows) run while `action` ran, with what each sent back. */
  async function costStatements<T>(action: () => Promise<T>): Promise<{ value: T; statements: StatementResult[] }> {
    results = [];
    const value = await action();
    return { value, statements: results.filter((result) => /\bcost_line_items/.test(result.sql) && /formatRowNoNewline/.test(result.sql)) };
  }

  const dailyByUsageType = { filters: { inclusions: { dateRange: WINDOW } }, groupBy: { dateGrouping: 'daily', dimension: 'usageType' } };

  it('answers a limit of 1 with 12 rows from ClickHouse instead of every item of the window (counts, not time)', async () => {
    const before = await costStatements(() => full(org, dailyByUsageType));
    expect(before.value.items).toHaveLength(DAYS * USAGE_TYPES);
    expect(before.statements).toHaveLength(1);
    const after = await costStatements(() => tool(org, { ...dailyByUsageType, limit: 1 }));
    expect(after.statements).toHaveLength(1);
    const [old, paged] = [before.statements[0], after.statements[0]];
    // Before, the tool ran the full answer's statement: a totals line and 11,040 item lines.
    expect(old.rows).toBe(1 + DAYS * USAGE_TYPES);
    // Now: the totals, the 10 top values and the 1 item.
    expect(paged.rows).toBe(1 + TOP_VALUES + 1);
    expect(paged.bytes * 200).toBeLessThan(old.bytes);
    expect(after.value.items).toHaveLength(1);
    expect(after.value.page).toEqual({ offset: 0, limit: 1, returned: 1, total: DAYS * USAGE_TYPES, remaining: DAYS * USAGE_TYPES - 1 });
    if (process.env.MCP_PAGING_FIGURES) {
      process.stdout.write(`limit 1: ${paged.rows} rows / ${paged.bytes} bytes; full answer: ${old.rows} rows / ${old.bytes} bytes\n`);
    }
  });

  const bodies: Array<[string, object]> = [
    ['daily by usageType', dailyByUsageType],
    ['monthly by service', { filters: { inclusions: { dateRange: WINDOW } }, groupBy: { dateGrouping: 'monthly', dimension: 'service' } }],
    [
      'weekly by service and region (dimensions)',
      { filters: { inclusions: { dateRange: WINDOW } }, groupBy: { dateGrouping: 'weekly', dimensions: ['service', 'region'] } },
    ],
    [
      'weekly by tag, filtered',
      { filters: { inclusions: { dateRange: WINDOW, regions: ['r1'] } }, groupBy: { dateGrouping: 'weekly', dimension: 'tag:team' } },
    ],
    ['monthly without a dimension', { filters: { inclusions: { dateRange: WINDOW } }, groupBy: { dateGrouping: 'monthly' } }],
    [
      'nothing matches',
      { filters: { inclusions: { dateRange: WINDOW, clouds: ['GCP'] } }, groupBy: { dateGrouping: 'daily', dimension: 'service' } },
    ],
  ];
  const pages: Array<[number, number]> = [
    [0, 1],
    [0, 100],
    [37, 5],
    [1_000_000, 3],
  ];

  it.each(bodies)('%s: the summary, page, items and top values of the full /data answer, for every page', async (_name, body) => {
    const expected = await full(org, body);
    const top = expectedTopValues(expected.items);
    for (const [offset, limit] of pages) {
      const answer = await tool(org, { ...body, offset, limit });
      const items = expected.items.slice(offset, offset + limit);
      const where = `${offset}+${limit}`;
      expect([where, answer.summary]).toEqual([where, expected.summary]);
      expect([where, answer.page]).toEqual([
        where,
        {
          offset,
          limit,
          returned: items.length,
          total: expected.items.length,
          remaining: Math.max(0, expected.items.length - offset - items.length),
        },
      ]);
      expect([where, answer.items]).toEqual([where, items]);
      if (top.distinct === 0) {
        expect(answer).not.toHaveProperty('topValues');
        expect(answer).not.toHaveProperty('distinctValues');
      } else {
        expect([where, answer.distinctValues]).toEqual([where, top.distinct]);
        expect([where, answer.topValues]).toEqual([where, top.top]);
      }
      expect([where, 'note' in answer]).toEqual([where, items.length === 0 || expected.items.length - offset - items.length > 0]);
    }
  });

  it('converts currencies like /data: the same items, summary and applied rates', async () => {
    for (const groupBy of [
      { dateGrouping: 'monthly', dimension: 'cloud' },
      { dateGrouping: 'daily', dimension: 'cloud' },
      { dateGrouping: 'weekly' },
    ]) {
      const body = { filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } }, groupBy };
      const expected = await full(converting, body);
      expect(expected.summary.exchange_rates).toHaveLength(1); // the conversion is in play
      const answer = await tool(converting, { ...body, limit: 3, offset: 1 });
      expect(answer.summary).toEqual(expected.summary);
      expect(answer.items).toEqual(expected.items.slice(1, 4));
      expect(answer.page.total).toBe(expected.items.length);
      const top = expectedTopValues(expected.items);
      if (top.distinct) {
        expect(answer.topValues.map((value: Json) => value.dimension_value)).toEqual(top.top.map((value) => value.dimension_value));
        answer.topValues.forEach((value: Json, i: number) => expect(value.amortized_cost).toBeCloseTo(top.top[i].amortized_cost, 8));
      }
    }
  });

  it('refuses a question over MAX_RESULT_ROWS with the same message as /data', async () => {
    const body = {
      filters: { inclusions: { dateRange: WINDOW } },
      groupBy: { dateGrouping: 'daily', dimensions: ['usageType', 'region'] },
    };
    const rest = await t.http.post(DATA).set(org.auth).set('Cache-Control', 'no-cache').send(body);
    expect(rest.status).toBe(400);
    const result = await mcp(org, { ...body, limit: 1 });
    expect(result).toEqual({ isError: true, text: rest.body.error.message });
    expect(result.text).toContain(`${2 * DAYS * USAGE_TYPES} items, more than 20000 (MAX_RESULT_ROWS)`);
  });
});
