/**
 * The metrics table: the eleven measures of a CostDataPoint, in the spec's order (the order of every item, summary,
 * CSV header and SQL sum list), each written once. The SQL sums (cost-metrics.ts), the importer's measure list, the
 * response DTOs' properties and their Swagger text, the CSV header, the MCP tool text and the tests' expected lists
 * derive from it; one-definition.spec.ts holds it against the spec and fails naming any list that drifts.
 */
export interface MetricDefinition {
  /** The field of a CostDataPoint, and the metric's name everywhere else (/compare's `metric`, MCP, …). */
  readonly name: string;
  /** The cost_line_items Decimal column summed; null for the one derived metric, total_savings (the savings sources' sum). */
  readonly column: string | null;
  /** One of the six savings sources that total_savings adds up. */
  readonly savingsSource: boolean;
  /** Its field in CostDataSummary, the total over the whole period. */
  readonly summaryName: string;
  /** Its column in the CSV answers of /data. */
  readonly csvHeader: string;
  /** What it measures (the spec's words): the Swagger text of the item field. */
  readonly description: string;
  /** What it is called in prose: the Swagger text of the summary field is "Sum of <noun>." */
  readonly noun: string;
  /** One of the metrics /compare accepts (spec, endpoint 2). */
  readonly comparable: boolean;
  /** Swagger examples of an item's value and the summary's (in each, the six sources add up to total_savings). */
  readonly examples: { readonly item: number; readonly summary: number };
}

export const METRICS = [
  {
    name: 'amortized_cost',
    column: 'amortized_cost',
    savingsSource: false,
    summaryName: 'total_amortized_cost',
    csvHeader: 'amortized_cost',
    description: 'Upfront commitment fees spread evenly across the commitment term',
    noun: 'amortized cost',
    comparable: true,
    examples: { item: 1523.42, summary: 45210.77 },
  },
  {
    name: 'billed_cost',
    column: 'billed_cost',
    savingsSource: false,
    summaryName: 'total_billed_cost',
    csvHeader: 'billed_cost',
    description: 'Actual billed cost as on the provider invoice',
    noun: 'billed cost',
    comparable: true,
    examples: { item: 1498.1, summary: 44980.12 },
  },
  {
    name: 'cash_cost',
    column: 'cash_cost',
    savingsSource: false,
    summaryName: 'total_cash_cost',
    csvHeader: 'cash_cost',
    description: 'Upfront fees recognised in the period charged, not amortized',
    noun: 'cash cost',
    comparable: true,
    examples: { item: 1498.1, summary: 44980.12 },
  },
  {
    name: 'on_demand_cost',
    column: 'on_demand_cost',
    savingsSource: false,
    summaryName: 'total_on_demand_cost',
    csvHeader: 'on_demand_cost',
    description: 'Equivalent cost at on-demand rates, before discounts or commitments',
    noun: 'on-demand equivalent cost',
    comparable: true,
    examples: { item: 2010.55, summary: 60112.4 },
  },
  {
    name: 'total_savings',
    column: null,
    savingsSource: false,
    summaryName: 'total_savings',
    csvHeader: 'total_savings',
    description: 'Total savings: the sum of the six savings sources below',
    noun: 'total savings (all six sources)',
    comparable: true,
    examples: { item: 487.13, summary: 14901.63 },
  },
  {
    name: 'enterprise_discount_savings',
    column: 'enterprise_discount_savings',
    savingsSource: true,
    summaryName: 'total_enterprise_discount_savings',
    csvHeader: 'enterprise_discount_savings',
    description: 'Savings from enterprise discount agreements',
    noun: 'enterprise discount savings',
    comparable: false,
    examples: { item: 120.5, summary: 3600 },
  },
  {
    name: 'product_discount_savings',
    column: 'product_discount_savings',
    savingsSource: true,
    summaryName: 'total_product_discount_savings',
    csvHeader: 'product_discount_savings',
    description: 'Savings from product-level discounts',
    noun: 'product discount savings',
    comparable: false,
    examples: { item: 10, summary: 300 },
  },
  {
    name: 'partner_discount_savings',
    column: 'partner_discount_savings',
    savingsSource: true,
    summaryName: 'total_partner_discount_savings',
    csvHeader: 'partner_discount_savings',
    description: 'Savings from partner discount arrangements',
    noun: 'partner discount savings',
    comparable: false,
    examples: { item: 0, summary: 0 },
  },
  {
    name: 'commitment_savings',
    column: 'commitment_savings',
    savingsSource: true,
    summaryName: 'total_commitment_savings',
    csvHeader: 'commitment_savings',
    description: 'Savings from reserved-instance and savings-plan commitments',
    noun: 'commitment savings',
    comparable: true,
    examples: { item: 301.2, summary: 9500.2 },
  },
  {
    name: 'spot_savings',
    column: 'spot_savings',
    savingsSource: true,
    summaryName: 'total_spot_savings',
    csvHeader: 'spot_savings',
    description: 'Savings from spot usage versus on-demand rates',
    noun: 'spot savings',
    comparable: true,
    examples: { item: 45.43, summary: 1201.43 },
  },
  {
    name: 'other_savings',
    column: 'other_savings',
    savingsSource: true,
    summaryName: 'total_other_savings',
    csvHeader: 'other_savings',
    description: 'Savings from all other discount sources',
    noun: 'other savings',
    comparable: false,
    examples: { item: 10, summary: 300 },
  },
] as const satisfies readonly MetricDefinition[];

export type Metric = (typeof METRICS)[number];
export type MetricName = Metric['name'];
export type MetricSummaryName = Metric['summaryName'];
/** A metric summed from its own column (all but total_savings). */
type StoredMetric = Extract<Metric, { column: string }>;
/** A Decimal column of cost_line_items that holds a measure. */
export type MeasureColumn = StoredMetric['column'];
export type SavingsSource = Extract<Metric, { savingsSource: true }>['column'];
export type ComparableMetric = Extract<Metric, { comparable: true }>['name'];

const isStored = (metric: Metric): metric is StoredMetric => metric.column !== null;
const isSavingsSource = (metric: Metric): metric is Extract<Metric, { savingsSource: true }> => metric.savingsSource;
const isComparable = (metric: Metric): metric is Extract<Metric, { comparable: true }> => metric.comparable;

/** Every metric's item field name, in the spec's order. */
export const METRIC_NAMES: readonly MetricName[] = METRICS.map((metric) => metric.name);
/** Every metric's summary field name, in the spec's order. */
export const METRIC_SUMMARY_NAMES: readonly MetricSummaryName[] = METRICS.map((metric) => metric.summaryName);
/** The metrics' columns of a CSV answer, in the spec's order. */
export const METRIC_CSV_HEADERS: readonly string[] = METRICS.map((metric) => metric.csvHeader);
/** The measure columns of cost_line_items, in the table's order: the four costs, then the six savings sources. */
export const MEASURE_COLUMNS: readonly MeasureColumn[] = METRICS.filter(isStored).map((metric) => metric.column);
export const SAVINGS_SOURCES: readonly SavingsSource[] = METRICS.filter(isSavingsSource).map((metric) => metric.column);
/** The measures /compare accepts (its `metric` adds effective_savings_rate, computed from sums). */
export const COMPARABLE_METRICS: readonly ComparableMetric[] = METRICS.filter(isComparable).map((metric) => metric.name);
