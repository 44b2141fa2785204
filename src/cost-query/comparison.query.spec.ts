import { buildComparisonQuery, ComparisonQuery } from './comparison.query';
import { MEASURE_COLUMNS, METRICS, SAVINGS_SOURCES } from './metrics';

const ORG = '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11';
const TABLE = 'cost_insights.cost_line_items';
/** The sums of the parts per metric of the metrics table, in its order: total_savings re-adds the savings sources' parts. */
const TOTAL_SAVINGS = `(${SAVINGS_SOURCES.map((m) => `sum(part_${m})`).join(' + ')})`;
const SUMS = METRICS.map((m) => `${m.column === null ? TOTAL_SAVINGS : `sum(part_${m.column})`} AS sum_${m.name}`);
/** Each side sums first (so the aggregate projection can answer it), into `part_` columns. */
const MEASURES = MEASURE_COLUMNS.map((m) => `sum(${m}) AS part_${m}`).join(', ');

function query(overrides: Partial<ComparisonQuery> = {}): ComparisonQuery {
  return {
    scope: { organizationId: ORG },
    filters: {},
    baselinePeriod: { start: '2026-09-01', end: '2026-09-30' },
    comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
    dateGrouping: 'weekly',
    totalLabel: 'Total',
    ...overrides,
  };
}

describe('buildComparisonQuery', () => {
  it('scans each period on its own dates and sums per bucket, per value and per period', () => {
    const { sql, params } = buildComparisonQuery(
      TABLE,
      query({ dimension: { kind: 'column', name: 'service' }, filters: { inclusions: { clouds: ['AWS'] } } }),
      103,
    );
    const side = (index: number, first: number) =>
      [
        `  SELECT ${index} AS side, toMonday(usage_date) AS bucket_start, if(empty(service), {not_set:String}, service) AS dim_0, ${MEASURES}`,
        `  FROM ${TABLE}`,
        '  WHERE organization_id = {organization_id:UUID}',
        `    AND toStartOfMonth(usage_date) BETWEEN {p${first}:Date} AND {p${first + 1}:Date}`,
        `    AND cloud IN {p${first + 2}:Array(String)}`,
        '  GROUP BY bucket_start, dim_0',
      ].join('\n');
    expect(sql).toBe(
      [
        'SELECT',
        '  side,',
        '  bucket_start,',
        '  dim_0,',
        '  toUInt8(grouping(bucket_start)) AS all_buckets,',
        '  toUInt8(grouping(dim_0)) AS all_values,',
        `  ${SUMS.join(',\n  ')}`,
        'FROM (',
        side(0, 0),
        '  UNION ALL',
        side(1, 3),
        ')',
        'GROUP BY GROUPING SETS ((side, bucket_start, dim_0), (side, dim_0), (side))',
        'LIMIT {p6:UInt64}',
        "SETTINGS preferred_optimize_projection_name = 'daily_dimension_sums'",
      ].join('\n'),
    );
    expect(params).toEqual({
      not_set: '(not set)',
      organization_id: ORG,
      p0: '2026-09-01',
      p1: '2026-09-01', // whole months: compared on the month (the monthly projection can answer)
      p2: ['AWS'],
      p3: '2026-10-01',
      p4: '2026-10-01',
      p5: ['AWS'],
      p6: 103,
    });
  });

  it('groups everything under the total label without a dimension', () => {
    const { sql, params } = buildComparisonQuery(TABLE, query({ dateGrouping: 'monthly' }), 7);
    expect(sql).toContain('SELECT 0 AS side, toStartOfMonth(usage_date) AS bucket_start, {total_label:String} AS dim_0,');
    expect(params.total_label).toBe('Total');
  });

  it('uses only the periods as dates, even if filters carry some', () => {
    const { sql, params } = buildComparisonQuery(
      TABLE,
      query({
        filters: {
          inclusions: { dateRange: { start: '2020-01-01', end: '2020-01-02' }, billingPeriods: ['2020-01'] },
          exclusions: { dateRange: { start: '2026-09-05', end: '2026-09-06' }, billingPeriods: ['2026-09'] },
        },
      }),
      7,
    );
    expect(sql).not.toContain('billing_period');
    expect(sql).not.toContain('NOT (usage_date');
    expect(Object.values(params)).not.toContain('2020-01-01');
  });

  it('reads category keys through parameters, never as SQL text', () => {
    const hostile = "x') OR 1=1 --";
    const { sql, params } = buildComparisonQuery(TABLE, query({ dimension: { kind: 'costCategory', key: hostile } }), 7);
    expect(sql).not.toContain(hostile);
    // The only literal: the projection the statement prefers, a name of ours.
    expect(sql.replace(/\nSETTINGS preferred_optimize_projection_name = '\w+'$/, '')).not.toContain("'");
    expect(params.p0).toBe(hostile);
  });
});
