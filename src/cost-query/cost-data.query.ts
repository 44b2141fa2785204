import { bucketStartSql, DateGrouping } from './date-bucketing';
import { COLUMN_DIMENSIONS, DimensionRef, MAP_DIMENSIONS, NOT_SET } from './dimension-registry';
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
  /** Today (UTC, YYYY-MM-DD) and the default window length, for compileWhere. */
  today: string;
  defaultWindowDays: number;
}

/** Result columns of the items query: `bucket_start`, `dim_<i>` per dimension, and `sum_<metric>`. */
export const BUCKET_COLUMN = 'bucket_start';
export const dimensionColumn = (index: number): string => `dim_${index}`;

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
export const TOTAL_FLAG_COLUMN = 'is_total';

/**
 * One statement for all of /data: one row per (bucket start, dimension values), ordered by date then
 * values, with every metric summed exactly, plus first of all the row of totals over the whole
 * filtered period (`is_total` = 1; always present, zeros when nothing matches).
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
  const sql = [
    'SELECT',
    `  ${[...keys, `toUInt8(grouping(${BUCKET_COLUMN})) AS ${TOTAL_FLAG_COLUMN}`, metricSumsOfPartsSql()].join(',\n  ')}`,
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

function whereOptions(query: CostDataQuery) {
  return { today: query.today, defaultWindowDays: query.defaultWindowDays };
}
