import { bucketStartSql, DateGrouping } from './date-bucketing';
import { COLUMN_DIMENSIONS, DimensionRef, dimensionName, MAP_DIMENSIONS, NOT_SET } from './dimension-registry';
import { compileWhere } from './filter-compiler';
import { Filters, OrganizationScope } from './filters.types';
import { metricPartSumsSql, metricSumsOfPartsSql } from './metrics';
import { CompiledSql, QueryParams } from './query-params';

/** What /data asks of the store, after validation. */
export interface CostDataQuery {
  scope: OrganizationScope;
  filters: Filters;
  dateGrouping: DateGrouping;
  /** Grouping dimensions in request order (0 to 3); their values come back as dim_0, dim_1, ... */
  dimensions: DimensionRef[];
  /** `groupBy.dimensions` was given: items carry `dimension_values`, not `dimension_value`. */
  multiDimension: boolean;
  /** Today (UTC, YYYY-MM-DD) and the default window length, for compileWhere. */
  today: string;
  defaultWindowDays: number;
}

/** Columns of the pre-aggregation: `bucket_start`, `dim_<i>` per dimension, and `part_<column>`. */
const BUCKET_COLUMN = 'bucket_start';
const dimensionColumn = (index: number): string => `dim_${index}`;

/**
 * SQL for a dimension's value on a row, with a missing value ('' in a column, an absent or empty
 * Map key) reported as NOT_SET so such rows form their own group instead of disappearing.
 * Tag and category keys are parameters.
 */
export function dimensionValueSql(ref: DimensionRef, params: QueryParams): string {
  const value =
    ref.kind === 'column'
      ? COLUMN_DIMENSIONS[ref.name].column
      : `${MAP_DIMENSIONS[ref.kind].column}[${params.add('String', ref.key)}]`;
  return `if(empty(${value}), ${params.named('not_set', 'String', NOT_SET)}, ${value})`;
}

/** 1 on the row summing the whole filtered period (the summary), 0 on the items. */
const TOTAL_FLAG_COLUMN = 'is_total';

/**
 * One statement for all of /data. Each result line is `<is_total>\t<JSON>`: first the totals over the
 * whole filtered period (`is_total` 1; always present, zeros when nothing matches), then one item per
 * (bucket start, dimension values), ordered by date then values. ClickHouse writes each item as the
 * API's CostDataPoint JSON itself (formatRowNoNewline; exact Decimal digits, no trailing zeros), so
 * the API frames the lines instead of parsing and re-serializing every row.
 *
 * The inner query pre-aggregates per (bucket, values), the shape an aggregate projection can answer
 * (migrations 0005/0006, tags and cost categories aside); the outer GROUPING SETS re-adds those exact
 * Decimal partial sums per item and in total, so the totals cost no second scan.
 *
 * `itemLimit` should be one more than the largest acceptable number of items, so a result that is too
 * large is detected rather than silently truncated.
 */
export function buildCostDataQuery(table: string, query: CostDataQuery, itemLimit: number): CompiledSql {
  const params = new QueryParams();
  const dimensionSelects = query.dimensions.map((ref, i) => `${dimensionValueSql(ref, params)} AS ${dimensionColumn(i)}`);
  const where = compileWhere(query.scope, query.filters, params, whereOptions(query));
  const keys = [BUCKET_COLUMN, ...query.dimensions.map((_, i) => dimensionColumn(i))];
  const itemFields = [`${BUCKET_COLUMN} AS usage_date`, ...dimensionFields(query, params), metricSumsOfPartsSql((metric) => metric, ', ')];
  const sql = [
    'SELECT',
    `  toUInt8(grouping(${BUCKET_COLUMN})) AS ${TOTAL_FLAG_COLUMN},`,
    `  formatRowNoNewline('JSONEachRow', ${itemFields.join(', ')}) AS item`,
    'FROM (',
    `  SELECT ${[`${bucketStartSql(query.dateGrouping)} AS ${BUCKET_COLUMN}`, ...dimensionSelects, metricPartSumsSql()].join(', ')}`,
    `  FROM ${table}`,
    `  WHERE ${where.replace(/\n/g, '\n  ')}`,
    `  GROUP BY ${keys.join(', ')}`,
    ')',
    `GROUP BY GROUPING SETS ((${keys.join(', ')}), ())`,
    `ORDER BY ${[`${TOTAL_FLAG_COLUMN} DESC`, ...keys.map((key) => `${key} ASC`)].join(', ')}`,
    `LIMIT ${params.add('UInt64', itemLimit + 1)}`,
  ].join('\n');
  return { sql, params: params.toObject() };
}

/** The lines of buildCostDataQuery's statement, as the JSON of the totals row and of each item. */
export function readCostDataLines(lines: string[]): { totalsJson?: string; itemsJson: string[] } {
  const json = (line: string) => line.slice(line.indexOf('\t') + 1);
  const hasTotals = lines[0]?.startsWith('1\t') ?? false; // is_total = 1, always first
  return { totalsJson: hasTotals ? json(lines[0]) : undefined, itemsJson: (hasTotals ? lines.slice(1) : lines).map(json) };
}

/** `dimension_values` (a map keyed by dimension name) for `groupBy.dimensions`, else `dimension_value` for one. */
function dimensionFields(query: CostDataQuery, params: QueryParams): string[] {
  if (query.multiDimension) {
    const pairs = query.dimensions.map((ref, i) => `${params.add('String', dimensionName(ref))}, ${dimensionColumn(i)}`);
    return [`map(${pairs.join(', ')}) AS dimension_values`];
  }
  return query.dimensions.length === 1 ? [`${dimensionColumn(0)} AS dimension_value`] : [];
}

function whereOptions(query: CostDataQuery) {
  return { today: query.today, defaultWindowDays: query.defaultWindowDays };
}
