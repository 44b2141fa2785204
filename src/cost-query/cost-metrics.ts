import type { MoneyBranch, MoneySql } from './currency-conversion';
import { COMPARABLE_METRICS, ComparableMetric, MEASURE_COLUMNS, METRIC_NAMES, METRICS, MetricName, SAVINGS_SOURCES } from './metrics';

/** The sums of every metric of a CostDataPoint (the metrics table's, metrics.ts). */
export type MetricSums = Record<MetricName, number>;

/** The metrics /compare accepts (spec, endpoint 2): the comparable measures and effective_savings_rate. */
export const COMPARE_METRICS: readonly CompareMetric[] = [...COMPARABLE_METRICS, 'effective_savings_rate'];
export type CompareMetric = ComparableMetric | 'effective_savings_rate';

/**
 * Every metric summed exactly (Decimal), in two levels: statements pre-aggregate in a subquery (the
 * shape an aggregate projection can answer) with the inner `sum(<column>) AS part_<column>` list, then
 * re-add those partial sums (per item and in GROUPING SETS totals) into `sum_<metric>` columns;
 * total_savings is the sum of the six savings sources. Re-adding exact Decimal sums changes no digit.
 * The `part_`/`sum_` prefixes avoid aliases that shadow column names, which ClickHouse would resolve
 * inside the aggregates. With a MoneyBranch of a converting MoneySql, the partial sums are in the answer's currency
 * (grouped by its keys too) and the re-added sums rounded once (currency-conversion.ts).
 */
export function metricPartSumsSql(
  branch?: MoneyBranch,
  separator = ', ',
  extra: readonly (readonly [expression: string, alias: string])[] = [],
): string {
  const columns = [...MEASURE_COLUMNS, ...extra.map(([expression]) => expression)];
  const aliases = [...MEASURE_COLUMNS.map((column) => `part_${column}`), ...extra.map(([, alias]) => alias)];
  const sums = branch ? branch.sums(columns) : columns.map((column) => `sum(${column})`);
  return aliases.map((alias, i) => `${sums[i]} AS ${alias}`).join(separator);
}

/**
 * The re-added sums of every metric, in the spec's order (amortized, billed, cash, on-demand, total
 * savings, then the six sources), each named by `alias`: `sum_<metric>` by default, or the API's field
 * name for SQL that writes CostDataPoint JSON itself — only in an outer query over `part_` columns,
 * where those names shadow no table column.
 */
export function metricSumsOfPartsSql(
  alias: (metric: MetricName) => string = (metric) => `sum_${metric}`,
  separator = ',\n  ',
  money?: MoneySql,
): string {
  const partSum = (column: string) => `sum(part_${column})`;
  const totalSavings = `(${SAVINGS_SOURCES.map(partSum).join(' + ')})`;
  const total = (sums: string) => (money ? money.total(sums) : sums);
  return METRICS.map((metric) => `${total(metric.column === null ? totalSavings : partSum(metric.column))} AS ${alias(metric.name)}`).join(
    separator,
  );
}

const SUM_COLUMNS = METRIC_NAMES.map((metric) => [metric, `sum_${metric}`] as const);

/** Reads the `sum_<metric>` columns of a result row into plain numbers. */
export function readMetricSums(row: Record<string, unknown>): MetricSums {
  const sums = {} as MetricSums;
  for (const [metric, column] of SUM_COLUMNS) sums[metric] = finiteNumber(row[column]);
  return sums;
}

export function zeroMetricSums(): MetricSums {
  return Object.fromEntries(METRIC_NAMES.map((m) => [m, 0])) as MetricSums;
}

/** Total savings divided by total on-demand cost; 0 when on-demand is 0 (never NaN or Infinity). */
export function effectiveSavingsRate(sums: Pick<MetricSums, 'total_savings' | 'on_demand_cost'>): number {
  if (!sums.on_demand_cost) return 0;
  return finiteNumber(sums.total_savings / sums.on_demand_cost);
}

/** The value of a /compare metric from a set of sums. */
export function compareMetricValue(metric: CompareMetric, sums: MetricSums): number {
  return metric === 'effective_savings_rate' ? effectiveSavingsRate(sums) : sums[metric];
}

export function finiteNumber(value: unknown): number {
  const number = typeof value === 'number' ? value : Number(value ?? 0);
  return Number.isFinite(number) ? number : 0;
}
