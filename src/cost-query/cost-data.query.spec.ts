import { buildCostDataItemsQuery, buildCostDataSummaryQuery, CostDataQuery, dimensionValueSql } from './cost-data.query';
import { QueryParams } from './query-params';

const ORG = '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11';
const TABLE = 'cost_insights.cost_line_items';
const SUMS = [
  'sum(amortized_cost) AS sum_amortized_cost',
  'sum(billed_cost) AS sum_billed_cost',
  'sum(cash_cost) AS sum_cash_cost',
  'sum(on_demand_cost) AS sum_on_demand_cost',
  'sum(enterprise_discount_savings) AS sum_enterprise_discount_savings',
  'sum(product_discount_savings) AS sum_product_discount_savings',
  'sum(partner_discount_savings) AS sum_partner_discount_savings',
  'sum(commitment_savings) AS sum_commitment_savings',
  'sum(spot_savings) AS sum_spot_savings',
  'sum(other_savings) AS sum_other_savings',
  'sum_enterprise_discount_savings + sum_product_discount_savings + sum_partner_discount_savings + sum_commitment_savings + sum_spot_savings + sum_other_savings AS sum_total_savings',
];

function query(overrides: Partial<CostDataQuery> = {}): CostDataQuery {
  return {
    scope: { organizationId: ORG },
    filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
    dateGrouping: 'daily',
    dimensions: [],
    today: '2026-11-21',
    defaultWindowDays: 30,
    ...overrides,
  };
}

describe('dimensionValueSql', () => {
  it('reports an empty column as (not set)', () => {
    const params = new QueryParams();
    expect(dimensionValueSql({ kind: 'column', name: 'account' }, params)).toBe(
      'if(empty(account_id), {not_set:String}, account_id)',
    );
    expect(params.toObject()).toEqual({ not_set: '(not set)' });
  });

  it('reads tag and category keys through parameters, absent keys included in (not set)', () => {
    const params = new QueryParams();
    expect(dimensionValueSql({ kind: 'tag', key: "team's" }, params)).toBe(
      'if(empty(resource_tags[{p0:String}]), {not_set:String}, resource_tags[{p0:String}])',
    );
    expect(dimensionValueSql({ kind: 'costCategory', key: 'Business Unit' }, params)).toBe(
      'if(empty(cost_categories[{p1:String}]), {not_set:String}, cost_categories[{p1:String}])',
    );
    expect(params.toObject()).toEqual({ p0: "team's", not_set: '(not set)', p1: 'Business Unit' });
  });
});

describe('buildCostDataItemsQuery', () => {
  it('groups by bucket only when there is no dimension', () => {
    const { sql, params } = buildCostDataItemsQuery(TABLE, query(), 50_001);
    expect(sql).toBe(
      [
        'SELECT',
        `  ${['usage_date AS bucket_start', ...SUMS].join(',\n  ')}`,
        `FROM ${TABLE}`,
        'WHERE organization_id = {organization_id:UUID}',
        '  AND usage_date BETWEEN {p0:Date} AND {p1:Date}',
        'GROUP BY bucket_start',
        'ORDER BY bucket_start ASC',
        'LIMIT {p2:UInt64}',
      ].join('\n'),
    );
    expect(params).toEqual({ organization_id: ORG, p0: '2026-10-01', p1: '2026-10-31', p2: 50_001 });
  });

  it('groups and orders by bucket then every dimension, in request order', () => {
    const { sql, params } = buildCostDataItemsQuery(
      TABLE,
      query({
        dateGrouping: 'weekly',
        dimensions: [
          { kind: 'column', name: 'service' },
          { kind: 'tag', key: 'env' },
        ],
        filters: { inclusions: { services: ['Amazon S3'] } },
      }),
      11,
    );
    expect(sql).toBe(
      [
        'SELECT',
        `  ${[
          'toMonday(usage_date) AS bucket_start',
          'if(empty(service), {not_set:String}, service) AS dim_0',
          'if(empty(resource_tags[{p0:String}]), {not_set:String}, resource_tags[{p0:String}]) AS dim_1',
          ...SUMS,
        ].join(',\n  ')}`,
        `FROM ${TABLE}`,
        'WHERE organization_id = {organization_id:UUID}',
        '  AND usage_date BETWEEN {p1:Date} AND {p2:Date}',
        '  AND service IN {p3:Array(String)}',
        'GROUP BY bucket_start, dim_0, dim_1',
        'ORDER BY bucket_start ASC, dim_0 ASC, dim_1 ASC',
        'LIMIT {p4:UInt64}',
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
      p4: 11,
    });
  });

  it('buckets months on their first day', () => {
    const { sql } = buildCostDataItemsQuery(TABLE, query({ dateGrouping: 'monthly' }), 2);
    expect(sql).toContain('toStartOfMonth(usage_date) AS bucket_start');
  });

  it('never aliases an expression with a column name', () => {
    const { sql } = buildCostDataItemsQuery(TABLE, query({ dimensions: [{ kind: 'column', name: 'service' }] }), 2);
    expect(sql).not.toMatch(/AS (usage_date|service|amortized_cost)\b/);
  });

  it('keeps hostile keys and values out of the SQL text', () => {
    const hostile = "x') OR 1=1 --";
    const { sql } = buildCostDataItemsQuery(
      TABLE,
      query({ dimensions: [{ kind: 'costCategory', key: hostile }], filters: { inclusions: { services: [hostile] } } }),
      2,
    );
    expect(sql).not.toContain(hostile);
    expect(sql).not.toContain("'");
  });
});

describe('buildCostDataSummaryQuery', () => {
  it('sums every metric over the filtered period in a single row', () => {
    const { sql, params } = buildCostDataSummaryQuery(
      TABLE,
      query({ filters: { inclusions: { billingPeriods: ['2026-09'] }, exclusions: { clouds: ['GCP'] } } }),
    );
    expect(sql).toBe(
      [
        'SELECT',
        `  ${SUMS.join(',\n  ')}`,
        `FROM ${TABLE}`,
        'WHERE organization_id = {organization_id:UUID}',
        '  AND billing_period IN {p0:Array(String)}',
        '  AND NOT (cloud IN {p1:Array(String)})',
      ].join('\n'),
    );
    expect(params).toEqual({ organization_id: ORG, p0: ['2026-09'], p1: ['GCP'] });
  });
});
