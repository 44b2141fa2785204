import { BASELINE_SIDE, COMPARISON_SIDE, ComparisonSide } from '../cost-query/comparison.query';
import { bucketStarts, DateGrouping } from '../cost-query/date-bucketing';
import { DateRange } from '../cost-query/filters.types';
import { CompareMetric, compareMetricValue, MetricSums, readMetricSums, zeroMetricSums } from '../cost-query/cost-metrics';
import { computeDelta, Delta } from './comparison-delta';
import { periodLabel } from './period-label';

/** The dimension_value of the single comparison row when no grouping dimension is requested. */
export const TOTAL_DIMENSION_VALUE = 'Total';

/** The metrics always reported in `metric_totals`, whatever metric is compared. */
export const METRIC_TOTALS_KEYS = ['amortized_cost', 'on_demand_cost', 'total_savings', 'effective_savings_rate'] as const;
export type MetricTotalsKey = (typeof METRIC_TOTALS_KEYS)[number];

export interface DateValue {
  date: string;
  value: number;
}

export interface PeriodSide {
  total: number;
  by_date: DateValue[];
}

export interface ComparisonRow {
  dimension_value: string;
  baseline: PeriodSide;
  comparison: PeriodSide;
  delta: Delta;
}

export interface MetricTotal {
  baseline: number;
  comparison: number;
  delta: Delta;
}

export interface ComparisonMetadata {
  baseline_period: DateRange;
  comparison_period: DateRange;
  metric: CompareMetric;
  baseline_label: string;
  comparison_label: string;
}

export interface ComparisonResult {
  comparisons: ComparisonRow[];
  totals: MetricTotal;
  metric_totals: Record<MetricTotalsKey, MetricTotal>;
  metadata: ComparisonMetadata;
}

/** The request, as the assembly needs it. */
export interface ComparisonSpec {
  metric: CompareMetric;
  baselinePeriod: DateRange;
  comparisonPeriod: DateRange;
  dateGrouping: DateGrouping;
  /** False when no grouping dimension was requested: one row, TOTAL_DIMENSION_VALUE. */
  grouped: boolean;
}

/** One row of the comparison query (see buildComparisonQuery), decoded. */
export interface ComparisonSumsRow {
  side: ComparisonSide;
  /** Undefined on rows summed over the whole period. */
  bucketStart?: string;
  /** Undefined on rows summed over every dimension value. */
  dimensionValue?: string;
  sums: MetricSums;
}

export function readComparisonRow(raw: Record<string, unknown>): ComparisonSumsRow {
  return {
    side: Number(raw.side) === COMPARISON_SIDE ? COMPARISON_SIDE : BASELINE_SIDE,
    bucketStart: Number(raw.all_buckets) === 1 ? undefined : String(raw.bucket_start),
    dimensionValue: Number(raw.all_values) === 1 ? undefined : String(raw.dim_0),
    sums: readMetricSums(raw),
  };
}

/** The dimension values present in either period, or the single total row's value when ungrouped. */
export function comparisonValues(rows: ComparisonSumsRow[], spec: Pick<ComparisonSpec, 'grouped'>): string[] {
  if (!spec.grouped) return [TOTAL_DIMENSION_VALUE];
  const values = new Set<string>();
  for (const row of rows) if (row.dimensionValue !== undefined) values.add(row.dimensionValue);
  return [...values];
}

/** How many by_date points the response holds: every value × every bucket of both periods. */
export function comparisonPointCount(valueCount: number, spec: Omit<ComparisonSpec, 'metric' | 'grouped'>): number {
  const buckets =
    bucketStarts(spec.dateGrouping, spec.baselinePeriod.start, spec.baselinePeriod.end).length +
    bucketStarts(spec.dateGrouping, spec.comparisonPeriod.start, spec.comparisonPeriod.end).length;
  return valueCount * buckets;
}

/**
 * Builds the /compare payload from the query's sums. Every value present in either period gets a
 * row (a value present in one period only has zeros in the other); by_date lists every bucket of
 * the period, zero-filled; metric values come from sums, so effective_savings_rate is
 * total savings / on-demand of that bucket or total (0 without on-demand cost).
 * Rows are ordered by the magnitude of their absolute delta, largest first, then by value.
 */
export function assembleComparison(rows: ComparisonSumsRow[], spec: ComparisonSpec): ComparisonResult {
  const periods: Record<ComparisonSide, DateRange> = {
    [BASELINE_SIDE]: spec.baselinePeriod,
    [COMPARISON_SIDE]: spec.comparisonPeriod,
  };
  const sideTotals = new Map<ComparisonSide, MetricSums>();
  const valueTotals = new Map<string, MetricSums>();
  const bucketSums = new Map<string, MetricSums>();
  for (const row of rows) {
    if (row.dimensionValue === undefined) {
      if (row.bucketStart === undefined) sideTotals.set(row.side, row.sums);
    } else if (row.bucketStart === undefined) {
      valueTotals.set(valueKey(row.side, row.dimensionValue), row.sums);
    } else {
      bucketSums.set(bucketKey(row.side, row.bucketStart, row.dimensionValue), row.sums);
    }
  }

  const buckets: Record<ComparisonSide, string[]> = {
    [BASELINE_SIDE]: bucketStarts(spec.dateGrouping, periods[BASELINE_SIDE].start, periods[BASELINE_SIDE].end),
    [COMPARISON_SIDE]: bucketStarts(spec.dateGrouping, periods[COMPARISON_SIDE].start, periods[COMPARISON_SIDE].end),
  };
  const zero = zeroMetricSums();
  const side = (which: ComparisonSide, value: string): PeriodSide => ({
    total: compareMetricValue(spec.metric, valueTotals.get(valueKey(which, value)) ?? zero),
    by_date: buckets[which].map((date) => ({
      date,
      value: compareMetricValue(spec.metric, bucketSums.get(bucketKey(which, date, value)) ?? zero),
    })),
  });
  const comparisons = comparisonValues(rows, spec).map((value): ComparisonRow => {
    const baseline = side(BASELINE_SIDE, value);
    const comparison = side(COMPARISON_SIDE, value);
    return { dimension_value: value, baseline, comparison, delta: computeDelta(baseline.total, comparison.total) };
  });
  comparisons.sort(
    (a, b) =>
      Math.abs(b.delta.absolute) - Math.abs(a.delta.absolute) ||
      (a.dimension_value < b.dimension_value ? -1 : a.dimension_value > b.dimension_value ? 1 : 0),
  );

  const baselineSums = sideTotals.get(BASELINE_SIDE) ?? zeroMetricSums();
  const comparisonSums = sideTotals.get(COMPARISON_SIDE) ?? zeroMetricSums();
  const metricTotal = (metric: CompareMetric): MetricTotal => {
    const baseline = compareMetricValue(metric, baselineSums);
    const comparison = compareMetricValue(metric, comparisonSums);
    return { baseline, comparison, delta: computeDelta(baseline, comparison) };
  };
  return {
    comparisons,
    totals: metricTotal(spec.metric),
    metric_totals: Object.fromEntries(METRIC_TOTALS_KEYS.map((m) => [m, metricTotal(m)])) as Record<MetricTotalsKey, MetricTotal>,
    metadata: {
      baseline_period: { start: spec.baselinePeriod.start, end: spec.baselinePeriod.end },
      comparison_period: { start: spec.comparisonPeriod.start, end: spec.comparisonPeriod.end },
      metric: spec.metric,
      baseline_label: periodLabel(spec.baselinePeriod.start, spec.baselinePeriod.end),
      comparison_label: periodLabel(spec.comparisonPeriod.start, spec.comparisonPeriod.end),
    },
  };
}

/**
 * Map keys for (side, value) and (side, bucket, value), unambiguous whatever characters a value
 * contains: the side is one digit and a bucket start always 10 characters (YYYY-MM-DD), so the value
 * is everything after a fixed-length prefix.
 */
function valueKey(side: ComparisonSide, value: string): string {
  return `${side}${value}`;
}

function bucketKey(side: ComparisonSide, bucketStart: string, value: string): string {
  return `${side}${bucketStart}${value}`;
}
