import type { MoneyBranch, MoneySql } from './currency-conversion';

/** The four cost measures and six savings sources stored per line item (Decimal columns). */
export const COST_MEASURES = ['amortized_cost', 'billed_cost', 'cash_cost', 'on_demand_cost'] as const;
export const SAVINGS_SOURCES = [
  'enterprise_discount_savings',
  'product_discount_savings',
  'partner_discount_savings',
  'commitment_savings',
  'spot_savings',
  'other_savings',
] as const;
export type CostMeasure = (typeof COST_MEASURES)[number];
export type SavingsSource = (typeof SAVINGS_SOURCES)[number];

/** Every summed metric of a CostDataPoint, in the spec's order. */
export const SUMMED_METRICS = [
  'amortized_cost',
  'billed_cost',
  'cash_cost',
  'on_demand_cost',
  'total_savings',
  ...SAVINGS_SOURCES,
] as const;
export type SummedMetric = (typeof SUMMED_METRICS)[number];
export type MetricSums = Record<SummedMetric, number>;

/** The metrics /compare accepts (spec, endpoint 2). */
export const COMPARE_METRICS = [
  'amortized_cost',
  'billed_cost',
  'cash_cost',
  'on_demand_cost',
  'total_savings',
  'commitment_savings',
  'spot_savings',
  'effective_savings_rate',
] as const;
export type CompareMetric = (typeof COMPARE_METRICS)[number];

/**
 * Every metric summed exactly (Decimal), in two levels: statements pre-aggregate in a subquery (the
 * shape an aggregate projection can answer) with the inner `sum(<column>) AS part_<column>` list, then
 * re-add those partial sums (per item and in GROUPING SETS totals) into `sum_<metric>` columns;
 * total_savings is the sum of the six savings sources. Re-adding exact Decimal sums changes no digit.
 * The `part_`/`sum_` prefixes avoid aliases that shadow column names, which ClickHouse would resolve
 * inside the aggregates. With a MoneyBranch of a converting MoneySql, the partial sums are in the answer's currency
 * (grouped by its keys too) and the re-added sums rounded once (currency-conversion.ts).
 */
export function metricPartSumsSql(branch?: MoneyBranch, separator = ', '): string {
  const measures = [...COST_MEASURES, ...SAVINGS_SOURCES];
  const sums = branch ? branch.sums(measures) : measures.map((m) => `sum(${m})`);
  return measures.map((m, i) => `${sums[i]} AS part_${m}`).join(separator);
}

/**
 * The re-added sums of every metric, in the spec's order (amortized, billed, cash, on-demand, total
 * savings, then the six sources), each named by `alias`: `sum_<metric>` by default, or the API's field
 * name for SQL that writes CostDataPoint JSON itself — only in an outer query over `part_` columns,
 * where those names shadow no table column.
 */
export function metricSumsOfPartsSql(
  alias: (metric: SummedMetric) => string = (metric) => `sum_${metric}`,
  separator = ',\n  ',
  money?: MoneySql,
): string {
  const totalSavings = `(${SAVINGS_SOURCES.map((s) => `sum(part_${s})`).join(' + ')})`;
  const total = (sums: string) => (money ? money.total(sums) : sums);
  return SUMMED_METRICS.map(
    (metric) => `${total(metric === 'total_savings' ? totalSavings : `sum(part_${metric})`)} AS ${alias(metric)}`,
  ).join(separator);
}

const SUM_COLUMNS = SUMMED_METRICS.map((metric) => [metric, `sum_${metric}`] as const);

/** Reads the `sum_<metric>` columns of a result row into plain numbers. */
export function readMetricSums(row: Record<string, unknown>): MetricSums {
  const sums = {} as MetricSums;
  for (const [metric, column] of SUM_COLUMNS) sums[metric] = finiteNumber(row[column]);
  return sums;
}

export function zeroMetricSums(): MetricSums {
  return Object.fromEntries(SUMMED_METRICS.map((m) => [m, 0])) as MetricSums;
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
