import { withProjectionPreference } from './projection-preference';
import { metricSumsOfPartsSql } from './cost-metrics';
import { METRIC_NAMES } from './metrics';
import { CompiledSql, SqlParameters } from './sql-parameters';
import { MoneySql } from './currency-conversion';
import { CostDataQuery, dimensionFields, partialSumsSql, splitFieldNames, splitFieldsSql } from './cost-data.query';

/** Which part of /data a paged reader wants: a page of the items and the dimension values ranked by cost. */
export interface CostDataPage {
  /** Items skipped (in the answer's order: by date, then dimension values). */
  offset: number;
  /** Items returned at most. */
  limit: number;
  /** Dimension values returned at most, highest amortized cost over the whole window first. */
  topValues: number;
}

/** The kinds of lines of buildCostDataPageQuery, in their order in the result. */
export const PAGE_LINE = { totals: 0, topValue: 1, item: 2 } as const;

/** One result row of buildCostDataPageQuery. */
export interface CostDataPageRow {
  kind: number | string;
  /** Every item of the whole answer, and every distinct dimension value (the same on every row). */
  item_count: number | string;
  value_count: number | string;
  /** JSON: the totals (metric sums, converted_currencies), a top value, or an item exactly as /data writes it. */
  line: string;
}

const BUCKET = 'bucket_start';
const dim = (index: number): string => `dim_${index}`;

/**
 * /data as a page (the MCP tool get_cost_data): the same pre-aggregation, metrics, currency conversion and item JSON
 * as buildCostDataQuery, but ClickHouse returns only what a page shows, so a page of 1 reads back a handful of rows
 * instead of every item of the window:
 *
 * - one totals line (kind 0): the metric sums over the whole window, and with a conversion the OR of the converted
 *   currencies' bits;
 * - up to `topValues` lines (kind 1), the dimension values ranked by amortized cost over the whole window (ties: the
 *   value seen first in the answer's order, i.e. its earliest bucket, then by value), each `{dimension_value(s),
 *   amortized_cost, billed_cost}` summed exactly;
 * - the items `offset + 1` to `offset + limit` (kind 2), in /data's order and form.
 *
 * Every row also carries the whole answer's item count and distinct value count, counted over the grouped rows (so
 * exact with a conversion too, whose pre-aggregation is finer than the items).
 */
export function buildCostDataPageQuery(table: string, query: CostDataQuery, page: CostDataPage): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params, query.convertedSums);
  const partialSums = partialSumsSql(table, query, params, money);
  const dims = query.dimensions.map((_, i) => dim(i));
  // grouping(x) = 1: x is not a key of the row's grouping set.
  const kind = dims.length
    ? `multiIf(grouping(${BUCKET}) = 0, ${PAGE_LINE.item}, grouping(${dims[0]}) = 0, ${PAGE_LINE.topValue}, ${PAGE_LINE.totals})`
    : `if(grouping(${BUCKET}) = 0, ${PAGE_LINE.item}, ${PAGE_LINE.totals})`;
  const converted = money.conversion ? ['converted_currencies'] : [];
  // The grouped rows as columns (metric sums under their item field names); only the rows kept are formatted.
  const grouped = [
    `SELECT ${[
      `${kind} AS kind`,
      BUCKET,
      ...dims,
      metricSumsOfPartsSql((metric) => metric, ', ', money),
      ...splitFieldsSql(query, money),
      ...(money.conversion ? [`${money.convertedCurrencies('groupBitOr(currency_bit)')} AS converted_currencies`] : []),
      `min(${BUCKET}) AS first_bucket`,
    ].join(', ')}`,
    'FROM (',
    partialSums,
    ')',
    `GROUP BY GROUPING SETS (${[[BUCKET, ...dims], ...(dims.length ? [dims] : []), []].map((keys) => `(${keys.join(', ')})`).join(', ')})`,
  ];
  const ranked = [
    `SELECT *,`,
    `  countIf(kind = ${PAGE_LINE.item}) OVER () AS item_count,`,
    `  countIf(kind = ${PAGE_LINE.topValue}) OVER () AS value_count,`,
    `  row_number() OVER (PARTITION BY kind ORDER BY ${[BUCKET, ...dims].join(', ')}) AS item_rank,`,
    `  row_number() OVER (PARTITION BY kind ORDER BY ${['amortized_cost DESC', 'first_bucket', ...dims].join(', ')}) AS value_rank`,
    'FROM (',
    ...grouped.map((text) => `  ${text}`),
    ')',
  ];
  const fields = dimensionFields(query, params);
  const format = (columns: string[]) => `formatRowNoNewline('JSONEachRow', ${columns.join(', ')})`;
  const line = [
    `multiIf(kind = ${PAGE_LINE.item}, ${format([`${BUCKET} AS usage_date`, ...fields, ...METRIC_NAMES, ...splitFieldNames(query)])},`,
    ...(dims.length ? [`  kind = ${PAGE_LINE.topValue}, ${format([...fields, 'amortized_cost', 'billed_cost'])},`] : []),
    `  ${format([...converted, ...METRIC_NAMES])})`,
  ];
  const first = params.add('UInt64', page.offset);
  const last = params.add('UInt64', page.offset + page.limit);
  const top = params.add('UInt64', page.topValues);
  const sql = [
    `SELECT kind, item_count, value_count, ${line.join('\n  ')} AS line`,
    'FROM (',
    ...ranked.map((text) => `  ${text}`),
    ')',
    `WHERE kind = ${PAGE_LINE.totals} OR (kind = ${PAGE_LINE.topValue} AND value_rank <= ${top})`,
    `  OR (kind = ${PAGE_LINE.item} AND item_rank > ${first} AND item_rank <= ${last})`,
    `ORDER BY kind, if(kind = ${PAGE_LINE.topValue}, value_rank, item_rank)`,
  ].join('\n');
  return { sql: withProjectionPreference(sql), params: params.toObject() };
}
