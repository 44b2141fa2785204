import { MetricSums } from '../cost-query/cost-metrics';
import { METRIC_NAMES } from '../cost-query/metrics';
import {
  assembleComparison,
  ComparisonSpec,
  ComparisonSumsRow,
  comparisonPointCount,
  comparisonValues,
  readComparisonRow,
} from './comparison-result';

function sums(values: Partial<MetricSums>): MetricSums {
  return { ...(Object.fromEntries(METRIC_NAMES.map((m) => [m, 0])) as MetricSums), ...values };
}

const spec: ComparisonSpec = {
  metric: 'amortized_cost',
  baselinePeriod: { start: '2026-09-01', end: '2026-09-30' },
  comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
  dateGrouping: 'monthly',
  grouped: true,
};

describe('readComparisonRow', () => {
  it('decodes the grouping flags into absent bucket or value', () => {
    const raw = { side: 1, bucket_start: '1970-01-01', dim_0: '', all_buckets: 1, all_values: 1, sum_amortized_cost: 5 };
    expect(readComparisonRow(raw)).toEqual({
      side: 1,
      bucketStart: undefined,
      dimensionValue: undefined,
      sums: sums({ amortized_cost: 5 }),
    });
    const bucket = { side: 0, bucket_start: '2026-09-28', dim_0: 'S3', all_buckets: 0, all_values: 0 };
    expect(readComparisonRow(bucket)).toMatchObject({ side: 0, bucketStart: '2026-09-28', dimensionValue: 'S3' });
  });
});

describe('assembleComparison', () => {
  const rows: ComparisonSumsRow[] = [
    // Baseline: EC2 10, RDS 4 (disappears). Comparison: EC2 15, Lambda 2 (appears).
    { side: 0, bucketStart: '2026-09-01', dimensionValue: 'EC2', sums: sums({ amortized_cost: 10, on_demand_cost: 20, total_savings: 5 }) },
    { side: 0, dimensionValue: 'EC2', sums: sums({ amortized_cost: 10, on_demand_cost: 20, total_savings: 5 }) },
    { side: 0, bucketStart: '2026-09-01', dimensionValue: 'RDS', sums: sums({ amortized_cost: 4 }) },
    { side: 0, dimensionValue: 'RDS', sums: sums({ amortized_cost: 4 }) },
    { side: 0, sums: sums({ amortized_cost: 14, on_demand_cost: 20, total_savings: 5 }) },
    { side: 1, bucketStart: '2026-10-01', dimensionValue: 'EC2', sums: sums({ amortized_cost: 15, on_demand_cost: 30, total_savings: 3 }) },
    { side: 1, dimensionValue: 'EC2', sums: sums({ amortized_cost: 15, on_demand_cost: 30, total_savings: 3 }) },
    { side: 1, bucketStart: '2026-10-01', dimensionValue: 'Lambda', sums: sums({ amortized_cost: 2 }) },
    { side: 1, dimensionValue: 'Lambda', sums: sums({ amortized_cost: 2 }) },
    { side: 1, sums: sums({ amortized_cost: 17, on_demand_cost: 30, total_savings: 3 }) },
  ];

  it('gives every value of either period a row, zero where it is absent, largest change first', () => {
    const result = assembleComparison(rows, spec);
    expect(result.comparisons.map((c) => c.dimension_value)).toEqual(['EC2', 'RDS', 'Lambda']);
    expect(result.comparisons[1]).toEqual({
      dimension_value: 'RDS',
      baseline: { total: 4, by_date: [{ date: '2026-09-01', value: 4 }] },
      comparison: { total: 0, by_date: [{ date: '2026-10-01', value: 0 }] },
      delta: { absolute: -4, percentage: -100, direction: 'decrease' },
    });
    expect(result.comparisons[2].delta).toEqual({ absolute: 2, percentage: 100, direction: 'increase' });
  });

  it('reports totals and the key metric totals from the period sums', () => {
    const result = assembleComparison(rows, spec);
    expect(result.totals).toEqual({
      baseline: 14,
      comparison: 17,
      delta: { absolute: 3, percentage: 21.4285714286, direction: 'increase' },
    });
    expect(result.metric_totals.effective_savings_rate).toEqual({
      baseline: 0.25,
      comparison: 0.1,
      delta: { absolute: -0.15, percentage: -60, direction: 'decrease' },
    });
    expect(result.metric_totals.on_demand_cost.delta.percentage).toBe(50);
    expect(result.metadata).toEqual({
      baseline_period: spec.baselinePeriod,
      comparison_period: spec.comparisonPeriod,
      metric: 'amortized_cost',
      baseline_label: 'September 2026',
      comparison_label: 'October 2026',
    });
  });

  it('zero-fills every bucket of each period and computes the rate per bucket', () => {
    const weekly: ComparisonSpec = {
      ...spec,
      metric: 'effective_savings_rate',
      dateGrouping: 'weekly',
      baselinePeriod: { start: '2026-09-23', end: '2026-10-06' },
      comparisonPeriod: { start: '2026-10-07', end: '2026-10-11' }, // Wed – Sun: one week
    };
    const weeklyRows: ComparisonSumsRow[] = [
      { side: 0, bucketStart: '2026-09-28', dimensionValue: 'EC2', sums: sums({ on_demand_cost: 8, total_savings: 2 }) },
      { side: 0, dimensionValue: 'EC2', sums: sums({ on_demand_cost: 8, total_savings: 2 }) },
    ];
    const [row] = assembleComparison(weeklyRows, weekly).comparisons;
    expect(row.baseline.by_date).toEqual([
      { date: '2026-09-21', value: 0 },
      { date: '2026-09-28', value: 0.25 },
      { date: '2026-10-05', value: 0 },
    ]);
    expect(row.comparison).toEqual({ total: 0, by_date: [{ date: '2026-10-05', value: 0 }] });
  });

  it('returns a single Total row without a dimension, even without data', () => {
    const result = assembleComparison([], { ...spec, grouped: false });
    expect(result.comparisons).toEqual([
      {
        dimension_value: 'Total',
        baseline: { total: 0, by_date: [{ date: '2026-09-01', value: 0 }] },
        comparison: { total: 0, by_date: [{ date: '2026-10-01', value: 0 }] },
        delta: { absolute: 0, percentage: 0, direction: 'unchanged' },
      },
    ]);
    expect(assembleComparison([], spec).comparisons).toEqual([]);
  });

  it('orders equal changes by value', () => {
    const tie: ComparisonSumsRow[] = [
      { side: 1, dimensionValue: 'b', sums: sums({ amortized_cost: 1 }) },
      { side: 1, dimensionValue: 'a', sums: sums({ amortized_cost: -1 }) },
    ];
    expect(assembleComparison(tie, spec).comparisons.map((c) => c.dimension_value)).toEqual(['a', 'b']);
  });
});

describe('comparison size', () => {
  it('counts values × buckets of both periods', () => {
    const rows: ComparisonSumsRow[] = [
      { side: 0, dimensionValue: 'a', sums: sums({}) },
      { side: 1, dimensionValue: 'b', sums: sums({}) },
      { side: 1, dimensionValue: 'a', sums: sums({}) },
      { side: 1, sums: sums({}) },
    ];
    expect(comparisonValues(rows, spec)).toEqual(['a', 'b']);
    expect(comparisonValues(rows, { grouped: false })).toEqual(['Total']);
    expect(comparisonPointCount(2, { ...spec, dateGrouping: 'daily' })).toBe(2 * (30 + 31));
  });
});
