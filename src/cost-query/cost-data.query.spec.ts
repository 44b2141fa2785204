import { buildCostDataQuery, costDataCsvColumns, CostDataQuery, dimensionValueSql, readCostDataResult } from './cost-data.query';
import { MEASURE_COLUMNS, METRIC_CSV_HEADERS, METRICS, SAVINGS_SOURCES } from './metrics';
import { SqlParameters } from './sql-parameters';

const ORG = '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11';
const TABLE = 'cost_insights.cost_line_items';
/** Inner pre-aggregation of each measure column (the metrics table's), then the sums of those parts. */
const PARTS = MEASURE_COLUMNS.map((m) => `sum(${m}) AS part_${m}`).join(', ');
/** The item's metric fields, in the table's order: total_savings re-adds the savings sources' parts. */
const TOTAL_SAVINGS = `(${SAVINGS_SOURCES.map((m) => `sum(part_${m})`).join(' + ')})`;
const FIELDS = METRICS.map((m) => `${m.column === null ? TOTAL_SAVINGS : `sum(part_${m.column})`} AS ${m.name}`).join(', ');

function query(overrides: Partial<CostDataQuery> = {}): CostDataQuery {
  return {
    scope: { organizationId: ORG },
    filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-30' } } },
    dateGrouping: 'daily',
    dimensions: [],
    multiDimension: false,
    today: '2026-11-21',
    defaultWindowDays: 30,
    ...overrides,
  };
}

describe('dimensionValueSql', () => {
  it('reports an empty column as (not set)', () => {
    const params = new SqlParameters();
    expect(dimensionValueSql({ kind: 'column', name: 'account' }, params)).toBe('if(empty(account_id), {not_set:String}, account_id)');
    expect(params.toObject()).toEqual({ not_set: '(not set)' });
  });

  it('reads tag and category keys through parameters, absent keys included in (not set)', () => {
    const params = new SqlParameters();
    expect(dimensionValueSql({ kind: 'tag', key: "team's" }, params)).toBe(
      'if(empty(resource_tags[{p0:String}]), {not_set:String}, resource_tags[{p0:String}])',
    );
    expect(dimensionValueSql({ kind: 'costCategory', key: 'Business Unit' }, params)).toBe(
      'if(empty(cost_categories[{p1:String}]), {not_set:String}, cost_categories[{p1:String}])',
    );
    expect(params.toObject()).toEqual({ p0: "team's", not_set: '(not set)', p1: 'Business Unit' });
  });
});

describe('buildCostDataQuery', () => {
  it('pre-aggregates per bucket, then returns the items and the totals row in one statement', () => {
    const { sql, params } = buildCostDataQuery(TABLE, query(), 50_001);
    expect(sql).toBe(
      [
        'SELECT',
        '  if(grouping(bucket_start) = 1,',
        `    formatRowNoNewline('JSONEachRow', count() AS item_count, ${FIELDS}),`,
        `    concat(',', formatRowNoNewline('JSONEachRow', bucket_start AS usage_date, ${FIELDS}))) AS line`,
        'FROM (',
        `  SELECT usage_date AS bucket_start, ${PARTS}`,
        `  FROM ${TABLE}`,
        '  WHERE organization_id = {organization_id:UUID}',
        '    AND usage_date BETWEEN {p0:Date} AND {p1:Date}',
        '  GROUP BY bucket_start',
        ')',
        'GROUP BY GROUPING SETS ((bucket_start), ())',
        'ORDER BY grouping(bucket_start) = 1 DESC, bucket_start ASC',
        'LIMIT {p2:UInt64}',
        "SETTINGS preferred_optimize_projection_name = 'daily_dimension_sums'",
      ].join('\n'),
    );
    // One row more than the items limit: the totals row.
    expect(params).toEqual({ organization_id: ORG, p0: '2026-10-01', p1: '2026-10-30', p2: 50_002 });
  });

  it('groups and orders by bucket then every dimension, in request order', () => {
    const { sql, params } = buildCostDataQuery(
      TABLE,
      query({
        dateGrouping: 'weekly',
        dimensions: [
          { kind: 'column', name: 'service' },
          { kind: 'tag', key: 'env' },
        ],
        filters: { inclusions: { services: ['Amazon S3'] } },
        multiDimension: true,
      }),
      11,
    );
    expect(sql).toBe(
      [
        'SELECT',
        '  if(grouping(bucket_start) = 1,',
        `    formatRowNoNewline('JSONEachRow', count() AS item_count, ${FIELDS}),`,
        `    concat(',', formatRowNoNewline('JSONEachRow', bucket_start AS usage_date, map({p4:String}, dim_0, {p5:String}, dim_1) AS dimension_values, ${FIELDS}))) AS line`,
        'FROM (',
        `  SELECT ${[
          'toMonday(usage_date) AS bucket_start',
          'if(empty(service), {not_set:String}, service) AS dim_0',
          'if(empty(resource_tags[{p0:String}]), {not_set:String}, resource_tags[{p0:String}]) AS dim_1',
          PARTS,
        ].join(', ')}`,
        `  FROM ${TABLE}`,
        '  WHERE organization_id = {organization_id:UUID}',
        '    AND usage_date BETWEEN {p1:Date} AND {p2:Date}',
        '    AND service IN {p3:Array(String)}',
        '  GROUP BY bucket_start, dim_0, dim_1',
        ')',
        'GROUP BY GROUPING SETS ((bucket_start, dim_0, dim_1), ())',
        'ORDER BY grouping(bucket_start) = 1 DESC, bucket_start ASC, dim_0 ASC, dim_1 ASC',
        'LIMIT {p6:UInt64}',
        "SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'",
      ].join('\n'),
    );
    // Without a dateRange the default window (30 days up to today) applies.
    expect(params).toEqual({
      not_set: '(not set)',
      p0: 'env',
      organization_id: ORG,
      p1: '2026-10-23',
      p2: '2026-11-21',
      p3: ['Amazon S3'],
      p4: 'service',
      p5: 'tag:env',
      p6: 12,
    });
  });

  it('buckets months on their first day, and filters whole months on the month (monthly projection)', () => {
    const { sql } = buildCostDataQuery(
      TABLE,
      query({ dateGrouping: 'monthly', filters: { inclusions: { dateRange: { start: '2025-11-01', end: '2026-10-31' } } } }),
      2,
    );
    expect(sql).toContain('SELECT toStartOfMonth(usage_date) AS bucket_start');
    expect(sql).toContain('AND toStartOfMonth(usage_date) BETWEEN {p0:Date} AND {p1:Date}');
  });

  it('filters by billing period and exclusions inside the pre-aggregation', () => {
    const { sql, params } = buildCostDataQuery(
      TABLE,
      query({ filters: { inclusions: { billingPeriods: ['2026-09'] }, exclusions: { clouds: ['GCP'] } } }),
      2,
    );
    expect(sql).toContain(
      [
        '  WHERE organization_id = {organization_id:UUID}',
        '    AND billing_period IN {p0:Array(String)}',
        '    AND NOT (cloud IN {p1:Array(String)})',
        '  GROUP BY bucket_start',
      ].join('\n'),
    );
    expect(params).toEqual({ organization_id: ORG, p0: ['2026-09'], p1: ['GCP'], p2: 3 });
  });

  it('writes one dimension as dimension_value', () => {
    const { sql } = buildCostDataQuery(TABLE, query({ dimensions: [{ kind: 'column', name: 'service' }] }), 2);
    expect(sql).toContain(
      "formatRowNoNewline('JSONEachRow', bucket_start AS usage_date, dim_0 AS dimension_value, sum(part_amortized_cost) AS amortized_cost",
    );
  });

  it('never aliases an expression with a column name where the table is read', () => {
    const { sql } = buildCostDataQuery(TABLE, query({ dimensions: [{ kind: 'column', name: 'service' }] }), 2);
    const inner = sql.slice(sql.indexOf('FROM ('), sql.indexOf('\n)\n'));
    expect(inner).toContain(`FROM ${TABLE}`);
    expect(inner).not.toMatch(/AS (usage_date|service|amortized_cost)\b/);
  });

  it('keeps hostile keys and values out of the SQL text', () => {
    const hostile = "x') OR 1=1 --";
    const { sql } = buildCostDataQuery(
      TABLE,
      query({ dimensions: [{ kind: 'costCategory', key: hostile }], filters: { inclusions: { services: [hostile] } } }),
      2,
    );
    expect(sql).not.toContain(hostile);
    // The only literals: the output format, the item separator, the projection the statement prefers.
    const literals = [/'JSONEachRow'/g, "concat(','", /\nSETTINGS preferred_optimize_projection_name = '\w+'$/];
    expect(literals.reduce<string>((text, literal) => text.replace(literal, ''), sql)).not.toContain("'");
  });
});

describe('buildCostDataQuery for CSV', () => {
  const csvQuery = query({
    dateGrouping: 'monthly',
    dimensions: [
      { kind: 'tag', key: 'team' },
      { kind: 'column', name: 'service' },
    ],
    filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
    multiDimension: true,
  });

  it('writes each item as a CSV record (CRLF) with one field per dimension, after the same JSON totals line', () => {
    const lines = buildCostDataQuery(TABLE, csvQuery, 11, 'csv').sql.split('\n');
    const json = buildCostDataQuery(TABLE, csvQuery, 11, 'json').sql.split('\n');
    const safe = (column: string) =>
      `if(has({csv_formula_prefixes:Array(String)}, substring(${column}, 1, 1)), concat({csv_formula_guard:String}, ${column}), ${column})`;
    expect(lines[3]).toBe(
      `    concat(formatRowNoNewline('CSV', bucket_start, ${safe('dim_0')}, ${safe('dim_1')}, ${FIELDS}), '\\r')) AS line`,
    );
    // Everything else is the JSON answer's statement (whose dimension names take two parameters more).
    expect([...lines.slice(0, 3), ...lines.slice(4, -2), lines.at(-1)]).toEqual([...json.slice(0, 3), ...json.slice(4, -2), json.at(-1)]);
    expect([lines.at(-2), json.at(-2)]).toEqual(['LIMIT {p3:UInt64}', 'LIMIT {p5:UInt64}']);
    expect(lines.at(-1)).toBe("SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'"); // by month, on the full maps
  });

  it('neutralises spreadsheet formulas in the dimension cells with the shared writer’s prefixes, as parameters', () => {
    const { params } = buildCostDataQuery(TABLE, csvQuery, 11, 'csv');
    expect(params.csv_formula_prefixes).toEqual(['=', '+', '-', '@', '\t', '\r']);
    expect(params.csv_formula_guard).toBe("'");
  });

  it('names the CSV columns: the bucket, each dimension as in groupBy, the item metrics', () => {
    expect(costDataCsvColumns(csvQuery)).toEqual(['usage_date', 'tag:team', 'service', ...METRIC_CSV_HEADERS]);
  });

  it('reads CSV items past the totals line, with no comma to skip', () => {
    const result = readCostDataResult([Buffer.from('{"item_count":1,"amortized_cost":3}\n"2026-10-01","a, ""b""",3\r\n')], 'csv');
    expect(result.itemCount).toBe(1);
    expect(Buffer.concat(result.items).toString()).toBe('"2026-10-01","a, ""b""",3\r\n');
  });
});

describe('readCostDataResult', () => {
  const lines = ['{"item_count":2,"amortized_cost":3}', ',{"usage_date":"2026-10-01","amortized_cost":1}', ',{"a\\tb":"Zürich"}'];
  const whole = Buffer.from(lines.map((line) => `${line}\n`).join(''));
  const itemsOf = (chunks: Buffer[]) => JSON.parse(`[${Buffer.concat(chunks).toString('utf8')}]`);

  it('reads the totals line and leaves the items as the bytes inside the JSON array', () => {
    const result = readCostDataResult([whole]);
    expect(result.totals).toEqual({ amortized_cost: 3 });
    expect(result.itemCount).toBe(2);
    expect(itemsOf(result.items)).toEqual([{ usage_date: '2026-10-01', amortized_cost: 1 }, { 'a\tb': 'Zürich' }]);
  });

  it('reads the same however the result is split into chunks (inside the totals, at the newline, before the comma, inside a character, empty ones)', () => {
    const newline = whole.indexOf(0x0a);
    for (let cut = 1; cut < whole.length; cut++) {
      for (const chunks of [
        [whole.subarray(0, cut), whole.subarray(cut)],
        [whole.subarray(0, Math.min(cut, newline)), whole.subarray(Math.min(cut, newline), newline + 1), whole.subarray(newline + 1)],
      ]) {
        const result = readCostDataResult(chunks); // empty chunks included
        expect(result.totals).toEqual({ amortized_cost: 3 });
        expect(itemsOf(result.items)).toEqual([{ usage_date: '2026-10-01', amortized_cost: 1 }, { 'a\tb': 'Zürich' }]);
      }
    }
  });

  it('counts every item, also those past the LIMIT (item_count may come quoted)', () => {
    expect(readCostDataResult([Buffer.from('{"item_count":"50001","amortized_cost":3}\n,{"n":1}\n')]).itemCount).toBe(50_001);
  });

  it('has no items without item lines, and nothing without a totals line', () => {
    expect(readCostDataResult([Buffer.from('{"item_count":0,"amortized_cost":0}\n')])).toEqual({
      totals: { amortized_cost: 0 },
      itemCount: 0,
      convertedCurrencies: [],
      items: [],
    });
    expect(readCostDataResult([])).toEqual({ totals: {}, itemCount: 0, convertedCurrencies: [], items: [] });
  });
});
