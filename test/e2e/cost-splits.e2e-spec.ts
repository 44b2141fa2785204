// modes: embedded server cluster — moved cost computed from the store's rows and added by its SQL (parameters a server limits)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parse } from 'csv-parse/sync';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { listen } from '../support/app-with-env';
import { FocusLine, focusLinesCsv } from '../support/focus-lines';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Shared-cost splits of a rule-defined category in answers: ordered splits (a value moved onto another, that value
 * split in proportion to its targets' own cost, rows chosen by filters split by fixed percentages), exact to the last
 * stored decimal with leftover units by the largest remainder, a day without weights keeping its value, `split_in` and
 * `split_out`, the category's filters applied after the splits, and every other answer unchanged. Every expected
 * amount below is worked out by hand from the rows (the arithmetic is written beside it).
 */
const TEAM = {
  effectiveFrom: '2026-10',
  defaultValue: 'Unallocated',
  rules: [{ when: { inclusions: { services: ['AWS Support'] } }, value: 'Shared' }, { inheritTag: 'team' }],
  splits: [
    { source: { value: 'Unallocated' }, targets: ['Shared'], method: 'even' },
    { source: { value: 'Shared' }, targets: ['data', 'payments'], method: 'proportional' },
    {
      source: { filters: { inclusions: { services: ['Amazon CloudWatch'] } } },
      targets: ['data', 'payments', 'search'],
      method: 'fixed',
      percentages: [50, 30, 20],
    },
  ],
};

const LINES: FocusLine[] = [
  { day: '2026-10-05', account: '111111111111', service: 'Amazon EC2', tags: { team: 'data' }, cost: '30' },
  { day: '2026-10-05', account: '111111111111', service: 'Amazon EC2', tags: { team: 'payments' }, cost: '10' },
  { day: '2026-10-05', account: '111111111111', service: 'AWS Support', cost: '7' },
  { day: '2026-10-05', account: '111111111111', service: 'AWS Lambda', cost: '1.0000000001' },
  { day: '2026-10-05', account: '111111111111', service: 'Amazon CloudWatch', tags: { team: 'search' }, cost: '10' },
  // No data or payments cost this day: Shared has no weights and keeps its value.
  { day: '2026-10-06', account: '111111111111', service: 'AWS Support', cost: '5' },
  { day: '2026-10-06', account: '111111111111', service: 'Amazon CloudWatch', tags: { team: 'search' }, cost: '0.0000000003' },
];
const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };
/** Σ of the lines: 30 + 10 + 7 + 1.0000000001 + 10 + 5 + 0.0000000003. */
const TOTAL = '63.0000000004';

describe('shared-cost splits in answers', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let org: TestOrganization;
  let dir: string;

  beforeAll(async () => {
    t = await TestApp.start();
    org = await t.newOrganization();
    dir = mkdtempSync(join(tmpdir(), 'cost-splits-'));
    const file = join(dir, 'estate.csv');
    writeFileSync(file, focusLinesCsv(LINES));
    await ingestFocus(t.clickhouse, { paths: [file], organizationId: org.organizationId, integrationId: 'aws' });
    const saved = await t.http.put('/v1/admin/cost-categories/Team').set(org.auth).send(TEAM);
    expect([saved.status, saved.body.success]).toEqual([200, true]);
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const data = (body: object, accept = 'application/json') =>
    t.http.post('/v1/cost-insights/data').set(org.auth).set('Accept', accept).send(body);
  /** The CSV answer's records keyed by their dimension cells: exact decimal text. */
  async function csvCells(body: object, fields: string[]): Promise<Record<string, string[]>> {
    const response = await data(body, 'text/csv');
    expect(response.status).toBe(200);
    const records = parse(response.text, { columns: true }) as Array<Record<string, string>>;
    return Object.fromEntries(
      records.map((record) => [
        Object.keys(record)
          .filter((column) => column === 'usage_date' || column.includes(':') || column === 'service')
          .map((column) => record[column])
          .join(' '),
        fields.map((field) => record[field]),
      ]),
    );
  }

  it('moves cost in order, exactly: Unallocated onto Shared, Shared by its targets’ own cost, CloudWatch rows by fixed shares', async () => {
    const cells = await csvCells(
      { filters: { inclusions: { dateRange: OCTOBER } }, groupBy: { dateGrouping: 'monthly', dimension: 'costCategory:Team' } },
      ['amortized_cost', 'billed_cost', 'split_in', 'split_out'],
    );
    expect(cells).toEqual({
      // 30 + 7 × 30/40 + 1.0000000001 × 30/40 (7500000000.75 units: the leftover unit, its remainder .75 the largest)
      // + 10 × 50 % on the 5th; on the 6th 3 units × 50 % = 1.5 → 1.
      '2026-10-01 data': ['41.0000000002', '41.0000000002', '11.0000000002', '0'],
      // 10 + 1.75 + 0.25 + 3, and 0.9 → 1 unit of the 3 (remainders .9 and .6 take the two leftover units).
      '2026-10-01 payments': ['15.0000000001', '15.0000000001', '5.0000000001', '0'],
      // 10.0000000003 of its own, all moved out; 20 % of the 5th's 10, and 0.6 → 1 unit of the 6th's 3.
      '2026-10-01 search': ['2.0000000001', '2.0000000001', '2.0000000001', '10.0000000003'],
      // 7 + 5 of its own and 1.0000000001 moved in; the 5th's 8.0000000001 split, the 6th's 5 kept (no weights).
      '2026-10-01 Shared': ['5', '5', '1.0000000001', '8.0000000001'],
      '2026-10-01 Unallocated': ['0', '0', '0', '1.0000000001'],
    });
    const json = await data({
      filters: { inclusions: { dateRange: OCTOBER } },
      groupBy: { dateGrouping: 'monthly', dimension: 'costCategory:Team' },
    });
    expect(json.body.data.summary.total_amortized_cost).toBe(Number(TOTAL));
  });

  it('keeps a day’s source without weights, and shows cost moved onto a value with no rows of its own that day', async () => {
    const cells = await csvCells(
      {
        filters: { inclusions: { dateRange: { start: '2026-10-06', end: '2026-10-06' } } },
        groupBy: { dateGrouping: 'daily', dimension: 'costCategory:Team' },
      },
      ['amortized_cost', 'split_in', 'split_out'],
    );
    expect(cells).toEqual({
      '2026-10-06 data': ['0.0000000001', '0.0000000001', '0'],
      '2026-10-06 payments': ['0.0000000001', '0.0000000001', '0'],
      '2026-10-06 search': ['0.0000000001', '0.0000000001', '0.0000000003'],
      '2026-10-06 Shared': ['5', '0', '0'],
    });
  });

  it('filters by the value after the splits; moved cost keeps its other keys (the service it was spent on)', async () => {
    const cells = await csvCells(
      {
        filters: { inclusions: { dateRange: OCTOBER, costCategory: 'Team', costCategoryValues: ['data'] } },
        groupBy: { dateGrouping: 'monthly', dimension: 'service' },
      },
      ['amortized_cost'],
    );
    expect(cells).toEqual({
      '2026-10-01 Amazon EC2': ['30'],
      '2026-10-01 AWS Support': ['5.25'],
      // Lambda's cost went Unallocated → Shared → data.
      '2026-10-01 AWS Lambda': ['0.7500000001'],
      '2026-10-01 Amazon CloudWatch': ['5.0000000001'],
    });
    const excluded = await data({
      filters: { inclusions: { dateRange: OCTOBER }, exclusions: { costCategory: 'Team', costCategoryValues: ['Shared'] } },
      groupBy: { dateGrouping: 'monthly' },
    });
    // Everything but Shared's 5 left after the splits.
    expect(excluded.body.data.summary.total_amortized_cost).toBe(58.0000000004);
  });

  it('weighs a target by its own cost in the same currency, and converts moved cost at its day’s rate like any row', async () => {
    const other = await t.newOrganization();
    const row = (service: string, currency: string, cost: string, tags: Record<string, string> = {}) => ({
      usage_date: '2026-10-05',
      service,
      billing_currency: currency,
      resource_tags: tags,
      amortized_cost: cost,
      billed_cost: cost,
    });
    await t.insertRows(other.organizationId, [
      row('Amazon EC2', 'USD', '30', { team: 'data' }),
      row('Amazon EC2', 'EUR', '10', { team: 'payments' }),
      row('AWS Support', 'EUR', '7'),
    ]);
    const rates = await t.http
      .post('/v1/admin/exchange-rates?source=treasury')
      .set(other.auth)
      .set('Content-Type', 'text/csv')
      .send('date,from,to,rate\n2026-10-05,EUR,USD,1.1\n');
    expect(rates.status).toBe(200);
    expect((await t.http.put('/v1/admin/cost-categories/Team').set(other.auth).send(TEAM)).status).toBe(200);
    const response = await t.http
      .post('/v1/cost-insights/data')
      .set(other.auth)
      .set('Accept', 'text/csv')
      .send({
        currency: 'USD',
        filters: { inclusions: { dateRange: OCTOBER } },
        groupBy: { dateGrouping: 'monthly', dimension: 'costCategory:Team' },
      });
    expect(response.status).toBe(200);
    const records = parse(response.text, { columns: true }) as Array<Record<string, string>>;
    // Support's 7 EUR have one weight in EUR that day (payments' 10; data's cost is in USD): all of it to payments,
    // (10 + 7) × 1.1 = 18.7 USD; split_in 7 × 1.1.
    expect(records.map((record) => [record['costCategory:Team'], record.amortized_cost, record.split_in, record.split_out])).toEqual([
      ['Shared', '0', '0', '7.7'],
      ['data', '30', '0', '0'],
      ['payments', '18.7', '7.7', '0'],
    ]);
  });

  it('answers MCP get_cost_data the same: a page of the split items, the top values ranked after the splits', async () => {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${await listen(t)}/v1/mcp`), {
        requestInit: { headers: { Authorization: org.auth.Authorization } },
      }),
    );
    try {
      const result = (await client.callTool({
        name: 'get_cost_data',
        arguments: {
          filters: { inclusions: { dateRange: OCTOBER } },
          groupBy: { dateGrouping: 'monthly', dimension: 'costCategory:Team' },
          limit: 2,
        },
      })) as { content: Array<{ text: string }> };
      const page = JSON.parse(result.content[0].text);
      // Items in /data's order (the byte order of values: Shared and Unallocated after the lower-case teams).
      expect(
        page.items.map((item: Record<string, unknown>) => [item.dimension_value, item.amortized_cost, item.split_in, item.split_out]),
      ).toEqual([
        ['Shared', 5, 1.0000000001, 8.0000000001],
        ['Unallocated', 0, 0, 1.0000000001],
      ]);
      expect(page.topValues.map((value: Record<string, unknown>) => [value.dimension_value, value.amortized_cost])).toEqual([
        ['data', 41.0000000002],
        ['payments', 15.0000000001],
        ['Shared', 5],
        ['search', 2.0000000001],
        ['Unallocated', 0],
      ]);
      expect(page.summary.total_amortized_cost).toBe(Number(TOTAL));
    } finally {
      await client.close();
    }
  });

  it('measures the allocation KPI after the splits and lists what moved between values', async () => {
    const response = await t.http.post('/v1/cost-insights/allocation').set(org.auth).send({ category: 'Team', dateRange: OCTOBER });
    expect(response.status).toBe(200);
    const { total, months, unallocated_services, split_flows } = response.body.data;
    // Lambda's 1.0000000001, the only default-valued cost, went to Shared and on: nothing is left unallocated.
    expect(total).toEqual({ amortized_cost: Number(TOTAL), allocated_cost: Number(TOTAL), unallocated_cost: 0, allocated_share: 1 });
    expect(months).toEqual([{ month: '2026-10', ...total }]);
    expect(unallocated_services).toEqual([]);
    expect(split_flows).toEqual([
      // 7 × 3/4 + 0.7500000001 (Lambda's share via Shared).
      { source: 'Shared', target: 'data', amount: 6.0000000001 },
      // 50 % of the 5th's 10, and 1 unit of the 6th's 3.
      { source: 'search', target: 'data', amount: 5.0000000001 },
      { source: 'search', target: 'payments', amount: 3.0000000001 },
      { source: 'Shared', target: 'payments', amount: 2 },
      { source: 'Unallocated', target: 'Shared', amount: 1.0000000001 },
    ]);
  });

  it('previews a definition with its splits: each value’s cost after them, its rows those the rules give it', async () => {
    const response = await t.http
      .put('/v1/admin/cost-categories/Team')
      .query({ dryRun: 'true', from: OCTOBER.start, to: OCTOBER.end })
      .set(org.auth)
      .send(TEAM);
    expect(response.status).toBe(200);
    expect(response.body.data.values).toEqual([
      { value: 'data', amortizedCost: 41.0000000002, rows: 1 },
      { value: 'payments', amortizedCost: 15.0000000001, rows: 1 },
      { value: 'Shared', amortizedCost: 5, rows: 2 },
      { value: 'search', amortizedCost: 2.0000000001, rows: 2 },
      { value: 'Unallocated', amortizedCost: 0, rows: 1 },
    ]);
    expect(response.body.data.unallocatedShare).toEqual({ before: 0, after: 0 });
  });

  it('compares two periods after each one’s splits', async () => {
    const response = await t.http
      .post('/v1/cost-insights/compare')
      .set(org.auth)
      .send({
        baselinePeriod: { start: '2026-10-05', end: '2026-10-05' },
        comparisonPeriod: { start: '2026-10-06', end: '2026-10-06' },
        metric: 'amortized_cost',
        groupBy: { dimension: 'costCategory:Team', dateGrouping: 'daily' },
      });
    expect(response.status).toBe(200);
    const sides = Object.fromEntries(
      response.body.data.comparisons.map((row: { dimension_value: string; baseline: { total: number }; comparison: { total: number } }) => [
        row.dimension_value,
        [row.baseline.total, row.comparison.total],
      ]),
    );
    // The 5th as worked out above (30 + 5.25 + 0.7500000001 + 5 for data …), the 6th's units and Shared's kept 5.
    expect(sides).toEqual({
      data: [41.0000000001, 0.0000000001],
      payments: [15, 0.0000000001],
      search: [2, 0.0000000001],
      Shared: [0, 5],
      Unallocated: [0, 0],
    });
    expect(response.body.data.totals).toMatchObject({ baseline: 58.0000000001, comparison: 5.0000000003 });
  });

  it('changes no answer that neither groups nor filters by the category', async () => {
    const cells = await csvCells(
      { filters: { inclusions: { dateRange: OCTOBER } }, groupBy: { dateGrouping: 'monthly', dimension: 'service' } },
      ['amortized_cost'],
    );
    expect(cells).toEqual({
      '2026-10-01 Amazon EC2': ['40'],
      '2026-10-01 AWS Support': ['12'],
      '2026-10-01 AWS Lambda': ['1.0000000001'],
      '2026-10-01 Amazon CloudWatch': ['10.0000000003'],
    });
    const plain = await data({
      filters: { inclusions: { dateRange: OCTOBER } },
      groupBy: { dateGrouping: 'monthly', dimension: 'service' },
    });
    expect(plain.body.data.items.every((item: object) => !('split_in' in item))).toBe(true);
  });
});

/**
 * Category sums (migration 0038): once an organisation's build of its categories' values is registered, questions
 * by a rule-defined category read it instead of evaluating the rules — with the same bytes, splits included; a
 * later import or saved version is never answered from the older build. Which path answered is read from the
 * service's metrics; the answer cache is off, so every question is computed.
 */
describe('shared-cost splits read from category sums', () => {
  jest.setTimeout(180_000);
  let t: TestApp;
  /** The same store, answering every question by the rules. */
  let byRules: TestApp;
  let org: TestOrganization;
  let dir: string;

  beforeAll(async () => {
    t = await TestApp.start({ settings: { RESULT_CACHE_MAX_MB: '0' } });
    byRules = await TestApp.start({ settings: { RESULT_CACHE_MAX_MB: '0', CATEGORY_SUMS: 'false' } });
    org = await t.newOrganization();
    dir = mkdtempSync(join(tmpdir(), 'category-sums-'));
    await importLines(LINES);
    expect((await t.http.put('/v1/admin/cost-categories/Team').set(org.auth).send(TEAM)).status).toBe(200);
  });
  afterAll(async () => {
    await byRules?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function importLines(lines: FocusLine[]) {
    const file = join(dir, `estate-${lines.length}.csv`);
    writeFileSync(file, focusLinesCsv(lines));
    await ingestFocus(t.clickhouse, { paths: [file], organizationId: org.organizationId, integrationId: 'aws' });
  }
  async function readCounters() {
    const text = (await t.http.get('/metrics')).text;
    const value = (read: string) =>
      Number(new RegExp(`^cost_insights_category_answers_total\\{read="${read}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    return { fromBuild: value('category_sums'), fromRules: value('rules') };
  }
  /** The answer's data and which path computed it. */
  async function ask(body: object, who = org): Promise<{ data: unknown; read: 'category_sums' | 'rules' }> {
    const before = await readCounters();
    const response = await t.http.post('/v1/cost-insights/data').set(who.auth).send(body);
    expect(response.status).toBe(200);
    const after = await readCounters();
    expect(after.fromBuild + after.fromRules).toBe(before.fromBuild + before.fromRules + 1);
    return { data: response.body.data, read: after.fromBuild > before.fromBuild ? 'category_sums' : 'rules' };
  }
  /** The answer's data computed by the rules. */
  async function askRules(body: object, who = org): Promise<unknown> {
    const response = await byRules.http.post('/v1/cost-insights/data').set(who.auth).send(body);
    expect(response.status).toBe(200);
    return response.body.data;
  }
  /** Asks `body` until a build answers it (a build is written in the background after a first question). */
  async function fromBuild(body: object, who = org): Promise<unknown> {
    for (let attempt = 0; attempt < 120; attempt++) {
      const answer = await ask(body, who);
      if (answer.read === 'category_sums') return answer.data;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('no answer came from category sums');
  }

  const MONTHLY = { filters: { inclusions: { dateRange: OCTOBER } }, groupBy: { dateGrouping: 'monthly', dimension: 'costCategory:Team' } };
  const QUESTIONS = [
    MONTHLY,
    { filters: { inclusions: { dateRange: OCTOBER } }, groupBy: { dateGrouping: 'daily', dimension: 'costCategory:Team' } },
    {
      filters: { inclusions: { dateRange: OCTOBER, costCategory: 'Team', costCategoryValues: ['data', 'Shared'] } },
      groupBy: { dateGrouping: 'daily', dimensions: ['service', 'costCategory:Team'] },
    },
    {
      filters: { inclusions: { dateRange: OCTOBER, services: ['Amazon EC2', 'AWS Support'] } },
      groupBy: { dateGrouping: 'monthly', dimensions: ['account', 'costCategory:Team'] },
    },
  ];

  it('answers every question from the build with the bytes the rules give, splits included', async () => {
    await fromBuild(MONTHLY);
    for (const body of QUESTIONS) expect(await ask(body)).toEqual({ data: await askRules(body), read: 'category_sums' });
    // As worked out in the first suite: data 30 + 5.25 + 0.7500000001 + 5 + 0.0000000001.
    const monthly = (await ask(MONTHLY)).data as { items: Array<{ dimension_value: string; amortized_cost: number; split_in: number }> };
    expect(monthly.items.find((item) => item.dimension_value === 'data')).toMatchObject({
      amortized_cost: 41.0000000002,
      split_in: 11.0000000002,
    });
  });

  it('a key scoped to a value reads the build too, and sees its share of moved cost', async () => {
    const scoped = await t.keyFor(org.organizationId, undefined, {
      inclusions: { costCategory: 'Team', costCategoryValues: ['payments'] },
    });
    const answer = await fromBuild(MONTHLY, scoped);
    expect(answer).toEqual(await askRules(MONTHLY, scoped));
    // payments' 10 of its own, 1.75 + 0.25 of Shared's, 3 of CloudWatch's and a unit of the 6th's: as worked out above.
    expect((answer as { items: Array<{ dimension_value: string; amortized_cost: number }> }).items).toEqual([
      expect.objectContaining({ dimension_value: 'payments', amortized_cost: 15.0000000001 }),
    ]);
    // Its other questions apply the splits too (its scope filters by the category): by service, the same total.
    const byService = await fromBuild({ ...MONTHLY, groupBy: { dateGrouping: 'monthly', dimension: 'service' } }, scoped);
    expect((byService as { summary: { total_amortized_cost: number } }).summary.total_amortized_cost).toBe(15.0000000001);
  });

  it('never answers a later import or a saved version from the older build', async () => {
    await fromBuild(MONTHLY);
    await importLines([
      ...LINES,
      { day: '2026-10-07', account: '111111111111', service: 'Amazon EC2', tags: { team: 'search' }, cost: '4.5' },
    ]);
    const afterImport = await ask(MONTHLY);
    expect(afterImport.read).toBe('rules');
    const search = (answer: unknown) =>
      (answer as { items: Array<{ dimension_value: string; amortized_cost: number }> }).items.find(
        (item) => item.dimension_value === 'search',
      );
    // search: its 2.0000000001 before, and the new 4.5 of its own (its team's rows are no split's source).
    expect(search(afterImport.data)?.amortized_cost).toBe(6.5000000001);
    expect(search(await fromBuild(MONTHLY))?.amortized_cost).toBe(6.5000000001);

    const renamed = { ...TEAM, rules: [{ when: { inclusions: { services: ['Amazon EC2'] } }, value: 'compute' }, ...TEAM.rules] };
    const { splits: _splits, ...withoutSplits } = renamed;
    expect((await t.http.put('/v1/admin/cost-categories/Team').set(org.auth).send(withoutSplits)).status).toBe(200);
    const afterSave = await ask(MONTHLY);
    expect(afterSave.read).toBe('rules');
    // EC2's 30 + 10 + 4.5 are compute's now; nothing is split.
    expect((afterSave.data as { items: Array<{ dimension_value: string; amortized_cost: number }> }).items).toContainEqual(
      expect.objectContaining({ dimension_value: 'compute', amortized_cost: 44.5 }),
    );
    expect(await fromBuild(MONTHLY)).toEqual(afterSave.data);
    expect(afterSave.data).toEqual(await askRules(MONTHLY));
  });
});
