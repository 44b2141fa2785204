// modes: embedded server cluster — answers computed by the store's SQL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BUILT } from '../support/built-dist';
import { sumDecimals } from '../support/decimals';
import { listen, send, startAppWithEnv } from '../support/app-with-env';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * The MCP endpoint (POST /v1/mcp) and the stdio relay (`npm run mcp`), driven by the official SDK's client
 * against the real server. Expected values are computed here from the inserted rows (exact decimal sums).
 */

const estate: RowInput[] = [
  row('2026-09-03', '120.1000000001', {
    service: 'Amazon EC2',
    account_id: '111',
    account_name: 'Production',
    resource_tags: { team: 'payments', env: 'prod' },
    cost_categories: { 'Business Unit': 'Retail' },
  }),
  row('2026-09-15', '40.25', {
    service: 'Amazon S3',
    region: 'eu-west-1',
    account_id: '222',
    account_name: 'Staging',
    resource_tags: { team: 'search', env: 'dev' },
  }),
  row('2026-10-02', '150.5', {
    service: 'Amazon EC2',
    account_id: '111',
    account_name: 'Production',
    resource_tags: { team: 'payments', env: 'prod' },
    cost_categories: { 'Business Unit': 'Retail' },
  }),
  row('2026-10-09', '33.3333333333', {
    service: 'AWS Lambda',
    region: 'eu-west-1',
    account_id: '222',
    account_name: 'Staging',
    resource_tags: { team: 'search', env: 'prod-eu' },
    cost_categories: { 'Business Unit': 'Wholesale' },
  }),
  row('2026-10-20', '60.75', { service: 'Amazon S3', account_id: '111', account_name: 'Production', resource_tags: { team: 'payments' } }),
  row('2026-10-28', '210', { service: 'Amazon RDS', account_id: '333', account_name: 'Data', resource_tags: { env: 'staging' } }),
];

function row(usage_date: string, amortized: string, extra: Partial<RowInput>): RowInput {
  return { usage_date, amortized_cost: amortized, billed_cost: amortized, on_demand_cost: '300', commitment_savings: '1.5', ...extra };
}

const SEPTEMBER = { start: '2026-09-01', end: '2026-09-30' };
const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };
const inRange = (range: { start: string; end: string }) => (r: RowInput) => r.usage_date >= range.start && r.usage_date <= range.end;
const amortized = (rows: RowInput[]) => sumDecimals(rows.map((r) => r.amortized_cost ?? '0'));

/** Tool answers are JSON, read as loosely as supertest's `body`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

function answer<T = Record<string, Json>>(result: ToolResult): T {
  expect([result.isError ?? false, result.content[0].text.slice(0, 300)]).toEqual([false, expect.any(String)]);
  return JSON.parse(result.content[0].text) as T;
}

function toolError(result: ToolResult): string {
  expect(result.isError).toBe(true);
  return result.content[0].text;
}

async function connect(base: string, key: string | undefined, onRequest?: () => void): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp`), {
    requestInit: key ? { headers: { Authorization: `Bearer ${key}` } } : {},
    fetch: (url, init) => {
      onRequest?.();
      return fetch(url, init);
    },
  });
  await client.connect(transport);
  return client;
}

describe('MCP over Streamable HTTP (POST /v1/mcp)', () => {
  let t: TestApp;
  let base: string;
  let full: TestOrganization;
  let costOnly: TestOrganization;
  let sharedOnly: TestOrganization;
  let other: TestOrganization;
  let client: Client;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    base = await listen(t);
    full = await t.newOrganization();
    costOnly = await t.keyFor(full.organizationId, ['cost:read']);
    sharedOnly = await t.keyFor(full.organizationId, ['shared-filters:read']);
    other = await t.newOrganization();
    await t.insertRows(full.organizationId, estate);
    await t.insertRows(other.organizationId, [
      row('2026-10-02', '9999', { service: 'Other Org Service', resource_tags: { team: 'other-team' } }),
    ]);
    client = await connect(base, full.key);
    clients.push(client);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t.close();
  });

  it('lists thirteen read-only tools whose input schemas are the endpoints’ request schemas from the OpenAPI document, plus paging and search', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'compare_costs',
      'find_anomalies',
      'forecast_costs',
      'get_allocation',
      'get_commitments',
      'get_contracts',
      'get_cost_category_values',
      'get_cost_data',
      'get_filter_values',
      'get_shared_filter',
      'get_tag_values',
      'get_unit_costs',
      'list_budgets',
    ]);
    const document = JSON.parse((await send(`${base}/docs-json`, {})).text);
    const schemas = document.components.schemas;
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));

    const data = byName.get_cost_data.inputSchema as Record<string, Json>;
    expect(Object.keys(data.properties).sort()).toEqual([...Object.keys(schemas.CostDataRequestDto.properties), 'limit', 'offset'].sort());
    expect(data.required).toEqual(['groupBy']);
    expect(data.additionalProperties).toBe(false);
    expect(data.properties.groupBy.description).toBe(schemas.CostDataRequestDto.properties.groupBy.description);
    expect(data.properties.groupBy.properties.dateGrouping.enum).toEqual(schemas.CostDataGroupByDto.properties.dateGrouping.enum);
    const dateRange = data.properties.filters.properties.inclusions.properties.dateRange;
    expect(dateRange.properties.start.pattern).toBe(schemas.DateRangeDto.properties.start.pattern);
    expect(dateRange.required).toEqual(['start', 'end']);
    expect(Object.keys(data.properties.filters.properties.exclusions.properties).sort()).toEqual(
      Object.keys(schemas.FilterFieldsDto.properties).sort(),
    );
    expect(JSON.stringify(data)).not.toContain('$ref');

    const compare = byName.compare_costs.inputSchema as Record<string, Json>;
    expect(compare.required).toEqual(schemas.CompareRequestDto.required);
    expect(compare.properties.metric.enum).toEqual(schemas.CompareRequestDto.properties.metric.enum);
    expect(Object.keys(compare.properties.filters.properties.inclusions.properties)).not.toContain('dateRange');
    expect(Object.keys(compare.properties).sort()).toEqual(
      [...Object.keys(schemas.CompareRequestDto.properties), 'includeByDate', 'limit', 'offset'].sort(),
    );
    expect((byName.get_filter_values.inputSchema as Json).properties.fields.items.enum).toEqual(
      schemas.AvailableFiltersRequestDto.properties.fields.items.enum,
    );
    expect((byName.get_filter_values.inputSchema as Json).properties.search.type).toBe('string');
    expect((byName.get_tag_values.inputSchema as Json).properties.tagKey.maxLength).toBe(
      schemas.TagValuesRequestDto.properties.tagKey.maxLength,
    );
    expect((byName.get_cost_category_values.inputSchema as Json).required).toEqual(['categoryKey']);
    expect((byName.get_shared_filter.inputSchema as Json).required).toEqual(['filterId']);
    const anomalies = byName.find_anomalies.inputSchema as Record<string, Json>;
    expect(Object.keys(anomalies.properties).sort()).toEqual(
      [...Object.keys(schemas.AnomaliesRequestDto.properties), 'includeAllRootCauses'].sort(),
    );
    expect(anomalies.properties.dimension.default).toBe(schemas.AnomaliesRequestDto.properties.dimension.default);
    expect(byName.find_anomalies.description).toContain('score = robust z-score');
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.description).toMatch(/Needs the API key scope (cost:read|shared-filters:read)\.$/);
    }
    expect(byName.get_cost_data.description).toContain('last 30 days');
  });

  it('get_cost_data: the summary, the top values and a page of items, computed from the same rows', async () => {
    const october = estate.filter(inRange(OCTOBER));
    const result = answer(
      await call(client, 'get_cost_data', {
        filters: { inclusions: { dateRange: OCTOBER } },
        groupBy: { dateGrouping: 'daily', dimension: 'service' },
        limit: 2,
      }),
    );
    expect(result.summary.total_amortized_cost).toBeCloseTo(amortized(october), 8);
    expect(result.summary.total_on_demand_cost).toBeCloseTo(300 * october.length, 8);
    expect(result.summary.total_savings).toBeCloseTo(1.5 * october.length, 8);
    expect(result.page).toEqual({ offset: 0, limit: 2, returned: 2, total: october.length, remaining: october.length - 2 });
    expect(result.items.map((item: Json) => [item.usage_date, item.dimension_value])).toEqual([
      ['2026-10-02', 'Amazon EC2'],
      ['2026-10-09', 'AWS Lambda'],
    ]);
    expect(result.note).toBe(
      `Showing items 1–2 of ${october.length}. Call again with offset=2 for the next 2, or narrow the question: a coarser groupBy.dateGrouping (weekly, monthly), fewer groupBy.dimensions, or filters. topValues already ranks the dimension values over the whole window.`,
    );
    const byService = new Map<string, RowInput[]>();
    for (const r of october) byService.set(r.service!, [...(byService.get(r.service!) ?? []), r]);
    const expectedTop = [...byService.entries()]
      .map(([service, rows]) => [service, amortized(rows)])
      .sort((a, b) => (b[1] as number) - (a[1] as number));
    expect(result.topValues.map((v: Json) => [v.dimension_value, v.amortized_cost])).toEqual(expectedTop);
    expect(result.distinctValues).toBe(byService.size);

    const next = answer(
      await call(client, 'get_cost_data', {
        filters: { inclusions: { dateRange: OCTOBER } },
        groupBy: { dateGrouping: 'daily', dimension: 'service' },
        limit: 2,
        offset: 2,
      }),
    );
    expect(next.items.map((item: Json) => item.usage_date)).toEqual(['2026-10-20', '2026-10-28']);
    expect(next.page.remaining).toBe(0);
    expect(next).not.toHaveProperty('note'); // nothing left after this page
  });

  it('get_cost_data: the key’s organisation only, whatever the filters', async () => {
    const mine = answer(
      await call(client, 'get_cost_data', { filters: { inclusions: { dateRange: OCTOBER } }, groupBy: { dateGrouping: 'monthly' } }),
    );
    expect(mine.summary.total_amortized_cost).toBeCloseTo(amortized(estate.filter(inRange(OCTOBER))), 8);
    const theirs = await connect(base, other.key);
    clients.push(theirs);
    const result = answer(
      await call(theirs, 'get_cost_data', {
        filters: { inclusions: { dateRange: OCTOBER } },
        groupBy: { dateGrouping: 'monthly', dimension: 'service' },
      }),
    );
    expect(result.items.map((item: Json) => item.dimension_value)).toEqual(['Other Org Service']);
    expect(result.summary.total_amortized_cost).toBe(9999);
  });

  it('compare_costs: totals and movers between two months, series only on request', async () => {
    const body = {
      baselinePeriod: SEPTEMBER,
      comparisonPeriod: OCTOBER,
      metric: 'amortized_cost',
      groupBy: { dimension: 'service', dateGrouping: 'weekly' },
    };
    const result = answer(await call(client, 'compare_costs', body));
    const september = estate.filter(inRange(SEPTEMBER));
    const october = estate.filter(inRange(OCTOBER));
    expect(result.totals.baseline).toBeCloseTo(amortized(september), 8);
    expect(result.totals.comparison).toBeCloseTo(amortized(october), 8);
    expect(result.metadata.comparison_label).toBe('October 2026');
    const services = [...new Set(estate.map((r) => r.service!))];
    const expected = services
      .map((service) => {
        const before = amortized(september.filter((r) => r.service === service));
        const after = amortized(october.filter((r) => r.service === service));
        return { dimension_value: service, baseline: before, comparison: after, delta: after - before };
      })
      .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || (a.dimension_value < b.dimension_value ? -1 : 1));
    expect(result.rows.map((r: Json) => r.dimension_value)).toEqual(expected.map((e) => e.dimension_value));
    result.rows.forEach((r: Json, i: number) => {
      expect(r.baseline).toBeCloseTo(expected[i].baseline, 8);
      expect(r.comparison).toBeCloseTo(expected[i].comparison, 8);
      expect(r.delta.absolute).toBeCloseTo(expected[i].delta, 8);
    });
    expect(result.note).toBe('Per-bucket series (by_date) are left out; set includeByDate=true to get them.');

    const withSeries = answer(await call(client, 'compare_costs', { ...body, includeByDate: true, limit: 1 }));
    expect(withSeries.rows).toHaveLength(1);
    expect(withSeries.rows[0].comparison.by_date.map((p: Json) => p.date)).toEqual([
      '2026-09-28',
      '2026-10-05',
      '2026-10-12',
      '2026-10-19',
      '2026-10-26',
    ]);
    expect(withSeries.page).toEqual({ offset: 0, limit: 1, returned: 1, total: services.length, remaining: services.length - 1 });
    expect(withSeries.note).toContain('Call again with offset=1');
  });

  it('get_filter_values: values ranked by cost, with search, account names and cross-filtering', async () => {
    const all = answer(
      await call(client, 'get_filter_values', {
        fields: ['services', 'accounts', 'resourceTags'],
        filters: { inclusions: { dateRange: OCTOBER } },
      }),
    );
    const october = estate.filter(inRange(OCTOBER));
    expect(all.fields.services.values.map((v: Json) => [v.value, v.amortized_cost])).toEqual(
      ['Amazon RDS', 'Amazon EC2', 'Amazon S3', 'AWS Lambda'].map((service) => [
        service,
        amortized(october.filter((r) => r.service === service)),
      ]),
    );
    expect(all.fields.accounts.values.find((v: Json) => v.value === '333')).toEqual({ value: '333', name: 'Data', amortized_cost: 210 });
    expect(all.fields.resourceTags.values.map((v: Json) => v.value).sort()).toEqual(['env', 'team']);
    expect(all.tagValues.team).toEqual({ count: 2, values: ['payments', 'search'] });
    expect(Object.keys(all.fields).sort()).toEqual(['accounts', 'resourceTags', 'services']);

    const searched = answer(
      await call(client, 'get_filter_values', {
        fields: ['services'],
        search: 'AMAZON',
        limitPerField: 1,
        filters: { inclusions: { dateRange: OCTOBER, accountIds: ['111'] } },
      }),
    );
    // Cross-filtering: account 111 only; its own field would still list every service of that account.
    expect(searched.fields.services).toEqual({ count: 2, remaining: 1, values: [{ value: 'Amazon EC2', amortized_cost: 150.5 }] });
    expect(searched.note).toContain('at most 1 values');
    const byName = answer(
      await call(client, 'get_filter_values', { fields: ['accounts'], search: 'stag', filters: { inclusions: { dateRange: OCTOBER } } }),
    );
    expect(byName.fields.accounts.values.map((v: Json) => v.value)).toEqual(['222']);
  });

  it('get_tag_values and get_cost_category_values: all-time values, search and paging', async () => {
    const env = answer(await call(client, 'get_tag_values', { tagKey: 'env' }));
    expect(env).toEqual({
      key: 'env',
      page: { offset: 0, limit: 100, returned: 4, total: 4, remaining: 0 },
      values: ['dev', 'prod', 'prod-eu', 'staging'],
    });
    const prod = answer(await call(client, 'get_tag_values', { tagKey: 'env', search: 'PROD', limit: 1 }));
    expect(prod.values).toEqual(['prod']);
    expect(prod.page).toEqual({ offset: 0, limit: 1, returned: 1, total: 2, remaining: 1 });
    expect(prod.note).toBe(
      'Showing values 1–1 of 2. Call again with offset=1 for the next 1, or pass search to find values by part of their text.',
    );
    const units = answer(await call(client, 'get_cost_category_values', { categoryKey: 'Business Unit' }));
    expect(units.values).toEqual(['Retail', 'Wholesale']);
    expect(answer(await call(client, 'get_tag_values', { tagKey: 'no-such-key' })).values).toEqual([]);
  });

  it('forecast_costs: the /forecast answer, its daily history only when asked', async () => {
    const org = await t.newOrganization();
    const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    await t.insertRows(
      org.organizationId,
      Array.from({ length: 30 }, (_, i) => ({ usage_date: day(i + 1), amortized_cost: `${100 + (i % 7)}` })),
    );
    const client = await connect(base, org.key);
    clients.push(client);
    const body = { forecastEnd: day(-10), groupBy: { dimension: 'service' } };
    const overHttp = await t.http.post('/v1/cost-insights/forecast').set(org.auth).send(body);
    expect(overHttp.status).toBe(200);
    const compact = answer(await call(client, 'forecast_costs', body));
    const withoutActuals = overHttp.body.data.series.map(({ actuals, ...series }: Json) => ({ ...series, history_days: actuals.length }));
    expect(compact).toEqual({ ...overHttp.body.data, series: withoutActuals });
    expect(answer(await call(client, 'forecast_costs', { ...body, includeActuals: true }))).toEqual(overHttp.body.data);
    expect(toolError(await call(client, 'forecast_costs', { forecastEnd: day(1) }))).toContain(
      'forecastEnd: expected a day after the last complete day',
    );
  });

  it('get_allocation: the /allocation answer, and its 400 as a tool error', async () => {
    const body = { category: 'Business Unit', dateRange: { start: '2026-10-01', end: '2026-10-31' } };
    const overHttp = await t.http.post('/v1/cost-insights/allocation').set(full.auth).send(body);
    expect(overHttp.status).toBe(200);
    expect(overHttp.body.data.total.amortized_cost).toBeGreaterThan(0);
    expect(answer(await call(client, 'get_allocation', body))).toEqual(overHttp.body.data);
    expect(toolError(await call(client, 'get_allocation', { dateRange: body.dateRange }))).toContain('category');
  });

  it('get_commitments: the /commitments answer, and its 400 as a tool error', async () => {
    const body = { filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } }, dateGrouping: 'monthly' };
    const overHttp = await t.http.post('/v1/cost-insights/commitments').set(full.auth).send(body);
    expect(overHttp.status).toBe(200);
    expect(answer(await call(client, 'get_commitments', body))).toEqual(overHttp.body.data);
    expect(toolError(await call(client, 'get_commitments', { dateGrouping: 'hourly' }))).toContain('dateGrouping');
  });

  it('get_contracts: the /contracts answer, and its 400 as a tool error', async () => {
    const body = { asOf: '2026-10-31', level: 90 };
    const overHttp = await t.http.post('/v1/cost-insights/contracts').set(full.auth).send(body);
    expect(overHttp.status).toBe(200);
    expect(answer(await call(client, 'get_contracts', body))).toEqual(overHttp.body.data);
    expect(toolError(await call(client, 'get_contracts', { level: 120 }))).toContain('level');
  });

  it('list_budgets: the /budgets answer, and its 400 as a tool error', async () => {
    const made = await t.http
      .post('/v1/admin/budgets')
      .set(full.auth)
      .send({ name: 'All', period: 'monthly', amounts: { default: '100' }, thresholds: [{ kind: 'actual', percent: 80 }] });
    expect(made.status).toBe(201);
    const overHttp = await t.http.post('/v1/cost-insights/budgets').set(full.auth).send({});
    expect(overHttp.status).toBe(200);
    expect(overHttp.body.data.budgets.map((budget: { name: string }) => budget.name)).toEqual(['All']);
    expect(answer(await call(client, 'list_budgets', {}))).toEqual(overHttp.body.data);
    expect(toolError(await call(client, 'list_budgets', { budgetIds: ['not-a-uuid'] }))).toContain('budgetIds');
  });

  it('get_unit_costs: the /unit-costs answer, and its 400 as a tool error', async () => {
    await t.http.put('/v1/admin/business-metrics/orders').set(full.auth).send({ unit: 'order' }).expect(200);
    await t.http
      .post('/v1/admin/business-metrics/orders/values')
      .set(full.auth)
      .send({ values: [{ date: '2026-10-01', value: '4' }] })
      .expect(200);
    const body = {
      metric: 'orders',
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
      groupBy: { dateGrouping: 'monthly' },
    };
    const overHttp = await t.http.post('/v1/cost-insights/unit-costs').set(full.auth).send(body);
    expect(overHttp.status).toBe(200);
    expect(overHttp.body.data.items).toHaveLength(1);
    expect(answer(await call(client, 'get_unit_costs', body))).toEqual(overHttp.body.data);
    expect(toolError(await call(client, 'get_unit_costs', { metric: 'unknown_one' }))).toContain('metric: no business metric');
  });

  it('find_anomalies: the spike of a flat estate on its day, its impact and root causes (3 unless all are asked for)', async () => {
    const org = await t.newOrganization();
    const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    const usual = { account_id: 'acct-1', region: 'us-east-1', usage_type: 'BoxUsage:c7g.xlarge' };
    // 60 days up to yesterday: Compute 100 and Storage 50 a day; 4 days ago Compute gains 450 of spot usage in
    // acct-2 and eu-west-1, 50 of it tagged team=data.
    const spikeDay = day(4);
    const spot = { account_id: 'acct-2', region: 'eu-west-1', usage_type: 'SpotUsage:c7g.xlarge' };
    const rows: RowInput[] = [
      ...Array.from({ length: 60 }, (_, i) => [
        { usage_date: day(i + 1), service: 'Compute', amortized_cost: '100', ...usual },
        { usage_date: day(i + 1), service: 'Storage', amortized_cost: '50', ...usual },
      ]).flat(),
      { usage_date: spikeDay, service: 'Compute', amortized_cost: '400', ...spot },
      { usage_date: spikeDay, service: 'Compute', amortized_cost: '50', ...spot, resource_tags: { team: 'data' } },
    ];
    await t.insertRows(org.organizationId, rows);
    // Expected from the rows: each value's amount on the spike day less its mean on the same weekday of the 4 weeks
    // before (Compute's rows), the rises largest first (equal ones here in the order account, region, usage type).
    const compute = rows.filter((r) => r.service === 'Compute');
    const causesOf = (r: RowInput): Array<[string, string]> => [
      ['account', r.account_id!],
      ['region', r.region!],
      ['usageType', r.usage_type!],
      ...Object.entries(r.resource_tags ?? {}).map(([key, value]): [string, string] => [`tag:${key}`, value]),
    ];
    const sums = new Map<string, { dimension: string; value: string; actual: number; baseline: number }>();
    for (const r of compute) {
      const inBaseline = [7, 14, 21, 28].some((back) => r.usage_date === day(4 + back));
      if (r.usage_date !== spikeDay && !inBaseline) continue;
      for (const [dimension, value] of causesOf(r)) {
        const sum = sums.get(`${dimension}=${value}`) ?? { dimension, value, actual: 0, baseline: 0 };
        sums.set(`${dimension}=${value}`, sum);
        if (inBaseline) sum.baseline += Number(r.amortized_cost);
        else sum.actual += Number(r.amortized_cost);
      }
    }
    const rootCauses = [...sums.values()]
      .map(({ dimension, value, actual, baseline }) => ({ dimension, value, contribution: actual - baseline / 4 }))
      .filter((cause) => cause.contribution > 0)
      .sort((a, b) => b.contribution - a.contribution || a.dimension.localeCompare(b.dimension) || a.value.localeCompare(b.value))
      .slice(0, 5); // the API's root causes per anomaly
    const spikeTotal = sumDecimals(compute.filter((r) => r.usage_date === spikeDay).map((r) => r.amortized_cost!));
    expect(rootCauses[0]).toEqual({ dimension: 'account', value: 'acct-2', contribution: 450 });
    expect(rootCauses).toHaveLength(4);

    const client = await connect(base, org.key);
    clients.push(client);
    const compact = answer(await call(client, 'find_anomalies', {}));
    expect(compact).toMatchObject({ currency: 'USD', dimension: 'service', last_complete_day: day(1) });
    expect(compact.anomalies).toHaveLength(1);
    const [anomaly] = compact.anomalies;
    expect(anomaly).toMatchObject({
      start: spikeDay,
      end: spikeDay,
      dimension_value: 'Compute',
      expected: 100,
      actual: spikeTotal,
      impact: spikeTotal - 100,
      impactPercentage: spikeTotal - 100, // percent of 100
      feedback: null,
      rootCauses: rootCauses.slice(0, 3),
      more_root_causes: 1,
    });
    expect(anomaly.score).toBeGreaterThanOrEqual(compact.thresholds.score);
    expect(compact.note).toBe(
      'Each anomaly lists its first 3 root causes; more_root_causes counts the rest. Set includeAllRootCauses=true to get them.',
    );
    // The REST answer, with the root causes cut; whole with includeAllRootCauses.
    const overHttp = await t.http.post('/v1/cost-insights/anomalies').set(org.auth).send({});
    expect(overHttp.status).toBe(200);
    expect(overHttp.body.data.anomalies[0].rootCauses).toEqual(rootCauses);
    const { rootCauses: all, ...rest } = overHttp.body.data.anomalies[0];
    expect(compact).toEqual({
      ...overHttp.body.data,
      anomalies: [{ ...rest, rootCauses: all.slice(0, 3), more_root_causes: 1 }],
      note: compact.note,
    });
    expect(answer(await call(client, 'find_anomalies', { includeAllRootCauses: true }))).toEqual(overHttp.body.data);
    // The DTO's options: another dimension, thresholds, and the 400 message as a tool error.
    const byAccount = answer(await call(client, 'find_anomalies', { dimension: 'account', minImpact: 50 }));
    // acct-2 had nothing before its spike; acct-1 did not move.
    expect(byAccount.anomalies.map((a: Json) => [a.dimension_value, a.start, a.expected, a.impact])).toEqual([
      ['acct-2', spikeDay, 0, spikeTotal - 100],
    ]);
    expect(answer(await call(client, 'find_anomalies', { minImpact: spikeTotal - 99 })).anomalies).toEqual([]);
    expect(toolError(await call(client, 'find_anomalies', { dateRange: { start: day(0), end: day(0) } }))).toContain(
      'dateRange: anomalies are found in complete days',
    );
    expect(toolError(await call(client, 'find_anomalies', { includeAllRootCauses: 'yes' }))).toBe(
      'Invalid request. Please see message details. includeAllRootCauses: Expected boolean, received string',
    );
  });

  it('get_shared_filter: reads what the HTTP API stored, with the shared-filters:read scope', async () => {
    const configuration = {
      filters: { inclusions: { services: ['Amazon EC2'] } },
      groupBy: { dateGrouping: 'monthly', dimension: 'account' },
    };
    const created = await t.http
      .post('/v1/cost-insights/shared-filters')
      .set(full.auth)
      .send({ organizationId: full.organizationId, filterConfiguration: configuration });
    expect(created.status).toBe(201);
    const filterId = created.body.data.filterId as string;
    const overHttp = await t.http.get(`/v1/cost-insights/shared-filters/${filterId}`).set(full.auth);
    const reader = await connect(base, sharedOnly.key);
    clients.push(reader);
    expect(answer(await call(reader, 'get_shared_filter', { filterId }))).toEqual(overHttp.body.data);
    // What it read can be asked as it is.
    const { filters, groupBy } = overHttp.body.data.filterConfiguration;
    expect(answer(await call(client, 'get_cost_data', { filters, groupBy })).summary).toBeDefined();
    expect(toolError(await call(reader, 'get_shared_filter', { filterId: 'sf_AAAAAAAAAAAAAAAAAAAAAAAA' }))).toBe(
      'Shared filter not found or has expired.',
    );
    expect(toolError(await call(reader, 'get_shared_filter', { filterId: 'nope' }))).toMatch(
      /^Invalid request\. Please see message details\. filterId: /,
    );
  });

  it('checks each tool’s scope: a tool error with the 403 message', async () => {
    const reader = await connect(base, sharedOnly.key);
    const costReader = await connect(base, costOnly.key);
    clients.push(reader, costReader);
    for (const name of [
      'get_cost_data',
      'compare_costs',
      'get_filter_values',
      'get_tag_values',
      'get_cost_category_values',
      'forecast_costs',
      'find_anomalies',
      'get_allocation',
      'get_commitments',
      'get_contracts',
      'list_budgets',
      'get_unit_costs',
    ]) {
      expect(toolError(await call(reader, name, {}))).toBe('This API key lacks the scope required for this operation: cost:read.');
    }
    expect(toolError(await call(costReader, 'get_shared_filter', { filterId: 'sf_AAAAAAAAAAAAAAAAAAAAAAAA' }))).toBe(
      'This API key lacks the scope required for this operation: shared-filters:read.',
    );
    // The list is the same for every key: a tool is refused when called, with the reason.
    expect((await reader.listTools()).tools).toHaveLength(13);
  });

  it('validates arguments with the endpoints’ validation: the 400 message as a tool error', async () => {
    expect(toolError(await call(client, 'get_cost_data', {}))).toBe(
      'Invalid request. Please see message details. groupBy: Expected object, received undefined',
    );
    expect(
      toolError(await call(client, 'get_cost_data', { groupBy: { dateGrouping: 'daily' }, filters: { inclusions: { service: ['x'] } } })),
    ).toBe('Invalid request. Please see message details. filters.inclusions.service: unknown field');
    expect(toolError(await call(client, 'get_cost_data', { groupBy: { dateGrouping: 'daily' }, limit: 501 }))).toBe(
      'Invalid request. Please see message details. limit: Expected an integer from 1 to 500, received 501',
    );
    expect(
      toolError(
        await call(client, 'compare_costs', {
          baselinePeriod: SEPTEMBER,
          comparisonPeriod: OCTOBER,
          metric: 'amortized_cost',
          filters: { inclusions: { dateRange: OCTOBER } },
        }),
      ),
    ).toContain('filters.inclusions.dateRange: not allowed in /compare');
    expect(toolError(await call(client, 'no_such_tool', {}))).toContain('Unknown tool "no_such_tool"');
  });

  it('is behind the API key: no key is the 401 body, GET and DELETE are 405 (stateless)', async () => {
    await expect(connect(base, undefined)).rejects.toThrow('{"message":"Unauthorized"}');
    await expect(connect(base, 'cik_notakey')).rejects.toThrow('{"message":"Unauthorized"}');
    const get = await send(`${base}/v1/mcp`, { headers: full.auth });
    expect([get.status, get.headers.get('allow'), JSON.parse(get.text).error.code]).toEqual([405, 'POST', -32000]);
    expect((await send(`${base}/v1/mcp`, { method: 'DELETE', headers: full.auth })).status).toBe(405);
    const unauthenticated = await send(`${base}/v1/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect([unauthenticated.status, unauthenticated.text]).toEqual([401, '{"message":"Unauthorized"}']);
  });
});

describe('MCP: the rate limit is the API key’s, shared with the HTTP API', () => {
  const LIMIT = 12;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startAppWithEnv({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    base = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts every MCP request against the key’s budget and refuses the one past it', async () => {
    const org = await t.newOrganization();
    const data = () =>
      send(`${base}/v1/cost-insights/data`, {
        method: 'POST',
        headers: { ...org.auth, 'Content-Type': 'application/json' },
        body: '{"groupBy":{"dateGrouping":"monthly"}}',
      });
    expect((await data()).headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
    let mcpRequests = 0;
    const client = await connect(base, org.key, () => mcpRequests++);
    try {
      const args = { groupBy: { dateGrouping: 'monthly' } };
      answer(await call(client, 'get_cost_data', args));
      await new Promise((r) => setTimeout(r, 100)); // the client's optional GET (405) may still be on its way
      const http = await data();
      const left = LIMIT - 2 - mcpRequests; // two /data requests and the MCP client's requests so far
      expect(mcpRequests).toBeGreaterThanOrEqual(3); // initialize, initialized, tools/call (and maybe its GET, 405)
      expect(http.headers.get('x-ratelimit-remaining')).toBe(String(left));
      let answered = 0;
      let refusal: unknown;
      while (!refusal && answered < LIMIT) {
        try {
          answer(await call(client, 'get_cost_data', args));
          answered++;
        } catch (error) {
          refusal = error;
        }
      }
      expect(answered).toBe(left);
      expect(String(refusal)).toContain('Rate limit exceeded. Please retry after');
      expect((await data()).status).toBe(429);
    } finally {
      await client.close();
    }
  });
});

describe('MCP: no API key in Json log line', () => {
  let t: TestApp;
  const captured: string[] = [];
  const restore: Array<() => void> = [];

  beforeAll(async () => {
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write.bind(stream);
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
        (rest.find((arg) => typeof arg === 'function') as (() => void) | undefined)?.();
        return true;
      }) as typeof stream.write;
      restore.push(() => (stream.write = original as typeof stream.write));
    }
    t = await startAppWithEnv({ LOG_LEVEL: 'trace' }, { logs: true });
  });
  afterAll(async () => {
    await t.close();
    for (const undo of restore.reverse()) undo();
  });

  it('logs the MCP requests, tool errors included, without the key', async () => {
    const base = await listen(t);
    const org = await t.newOrganization();
    const client = await connect(base, org.key);
    answer(await call(client, 'get_cost_data', { groupBy: { dateGrouping: 'monthly' } }));
    toolError(await call(client, 'get_shared_filter', { filterId: `sf_${org.key.slice(4, 28)}` }));
    toolError(await call(client, 'get_cost_data', { groupBy: { dateGrouping: org.key } }));
    await client.close();
    await new Promise((r) => setTimeout(r, 200));
    const logText = captured.join('');
    expect(logText).toContain('/v1/mcp');
    expect(logText).not.toContain(org.key);
    expect(logText).not.toContain(org.key.slice(17, 60)); // the secret
    expect(/cik_(?!\[redacted\])/i.test(logText)).toBe(false);
    expect(/Bearer\s+(?!\[redacted\])\S/i.test(logText)).toBe(false);
  });
});

describe('MCP over stdio (npm run mcp: the relay to /v1/mcp)', () => {
  let t: TestApp;
  let base: string;
  let org: TestOrganization;
  let entry: string;

  beforeAll(async () => {
    // The relay as `npm run mcp` runs it: the built dist/mcp/stdio.js.
    entry = BUILT.mcpStdio;
    t = await TestApp.start();
    base = await listen(t);
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, estate);
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  function stdioClient(env: Record<string, string>): {
    client: Client;
    transport: StdioClientTransport;
    stderr: () => string;
    errors: Error[];
  } {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [entry],
      env: { PATH: process.env.PATH ?? '', ...env },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'e2e-stdio', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    return { client, transport, stderr: () => stderr, errors };
  }

  it('answers like the HTTP endpoint, with only protocol on stdout and no key on stderr', async () => {
    const stdio = stdioClient({ COST_INSIGHTS_URL: `${base}/v1`, COST_INSIGHTS_API_KEY: org.key });
    await stdio.client.connect(stdio.transport);
    const http = await connect(base, org.key);
    try {
      expect((await stdio.client.listTools()).tools).toEqual((await http.listTools()).tools);
      const args = { filters: { inclusions: { dateRange: OCTOBER } }, groupBy: { dateGrouping: 'monthly', dimension: 'service' } };
      const overStdio = answer(await call(stdio.client, 'get_cost_data', args));
      expect(overStdio).toEqual(answer(await call(http, 'get_cost_data', args)));
      expect(overStdio.summary.total_amortized_cost).toBeCloseTo(amortized(estate.filter(inRange(OCTOBER))), 8);
      expect(toolError(await call(stdio.client, 'get_cost_data', {}))).toContain('groupBy: Expected object, received undefined');
    } finally {
      await stdio.client.close();
      await http.close();
    }
    // Every line the relay wrote to stdout was a JSON-RPC message (anything else is reported as a client error).
    expect(stdio.errors).toEqual([]);
    expect(stdio.stderr()).toContain('relaying to http://127.0.0.1:');
    expect(stdio.stderr()).not.toContain(org.key.slice(17, 60));
    expect(stdio.stderr()).not.toContain('cik_');
  });

  it('says why when the key is refused, without echoing it', async () => {
    const wrongKey = `${org.key.slice(0, -3)}xyz`;
    const stdio = stdioClient({ COST_INSIGHTS_URL: base, COST_INSIGHTS_API_KEY: wrongKey });
    await expect(stdio.client.connect(stdio.transport)).rejects.toThrow(
      'Unauthorized: COST_INSIGHTS_API_KEY is missing, malformed, unknown or revoked.',
    );
    await stdio.client.close();
    expect(stdio.stderr()).not.toContain(wrongKey.slice(17, 60));
  });
});
