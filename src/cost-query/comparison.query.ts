import { withProjectionPreference } from './projection-preference';
import { dimensionValueSql } from './cost-data.query';
import { daysInRange } from '../common/dates/calendar-date';
import { bucketStartSql, DateGrouping } from './date-bucketing';
import { DimensionRef } from './dimension-registry';
import { compileWhere } from './filter-compiler';
import { DateRange, FilterFields, Filters, OrganizationScope } from './filters.types';
import { metricPartSumsSql, metricSumsOfPartsSql } from './cost-metrics';
import { CompiledSql, SqlParameters } from './sql-parameters';
import { adjustmentRowsSql, adjustmentValueCondition, QuestionSplits } from './split-adjustments';
import { CurrencyConversion, MoneySql } from './currency-conversion';

/** The two periods of a comparison, in result rows as `side`. */
export const BASELINE_SIDE = 0;
export const COMPARISON_SIDE = 1;
export type ComparisonSide = typeof BASELINE_SIDE | typeof COMPARISON_SIDE;

/** What /compare asks of the store, after validation. */
export interface ComparisonQuery {
  scope: OrganizationScope;
  /** Filters without dates: each period supplies its own dateRange. */
  filters: Filters;
  baselinePeriod: DateRange;
  comparisonPeriod: DateRange;
  dateGrouping: DateGrouping;
  /** The grouping dimension; without one every row falls in the single group `totalLabel`. */
  dimension?: DimensionRef;
  totalLabel: string;
  /** The conversion into the answer's currency; absent when every row the answer may meet is in it. */
  conversion?: CurrencyConversion;
  /**
   * Per side (baseline, comparison): what a rule-defined category's shared-cost splits move in that period, as
   * adjustment rows grouped by the dimension (split-adjustments.ts); absent when the comparison names no such category.
   */
  splits?: readonly [QuestionSplits | undefined, QuestionSplits | undefined];
}

/**
 * Sums per (side, bucket, dimension value), per (side, dimension value) and per side, in one scan
 * of each period. GROUPING SETS keeps every total an exact Decimal sum instead of re-adding
 * rounded doubles. `all_buckets` = 1 marks rows summed over the whole period, `all_values` = 1 rows
 * summed over every dimension value. Periods may overlap: a row in both counts in both.
 *
 * `rowLimit` caps the fetch; the caller checks the response size exactly (see the service).
 */
export function buildComparisonQuery(table: string, query: ComparisonQuery, rowLimit: number): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params);
  const bucket = bucketStartSql(query.dateGrouping);
  const dimension = query.dimension
    ? dimensionValueSql(query.dimension, params, query.scope)
    : params.named('total_label', 'String', query.totalLabel);
  // Each side sums per (bucket, value) first: an aggregation over the columns the aggregate projections
  // (migrations 0005 daily, 0006 monthly) hold, so ClickHouse can answer it from one of them. The
  // outer GROUPING SETS re-adds those exact Decimal partial sums (`part_` prefix: never alias a column name).
  const select = (index: ComparisonSide, from: string, where: string, value: string) =>
    money.select((branch, and) =>
      [
        `  SELECT ${index} AS side, ${bucket} AS bucket_start, ${value} AS dim_0, ${metricPartSumsSql(branch)}`,
        `  FROM ${from}`,
        `  WHERE ${and(where)}`,
        `  GROUP BY ${['bucket_start', 'dim_0', ...branch.groupKeys].join(', ')}`,
      ].join('\n'),
    );
  // A side's cost moved by splits: adjustment rows whose value its category filters keep, by the dimension's value.
  const side = (index: ComparisonSide, period: DateRange) => {
    const rows = select(index, table, periodWhere(query, period, params).replace(/\n/g, '\n  '), dimension);
    const splits = query.splits?.[index];
    if (!splits || splits.adjustments.length === 0) return rows;
    const moved = adjustmentRowsSql(splits, query.dimension ? 1 : 0, params);
    return `${rows}\nUNION ALL\n${select(index, moved, adjustmentValueCondition(splits, params), query.dimension ? 'split_dim_0' : dimension)}`;
  };
  const sql = [
    'SELECT',
    '  side,',
    '  bucket_start,',
    '  dim_0,',
    '  toUInt8(grouping(bucket_start)) AS all_buckets,',
    '  toUInt8(grouping(dim_0)) AS all_values,',
    `  ${metricSumsOfPartsSql(undefined, undefined, money)}`,
    'FROM (',
    side(BASELINE_SIDE, query.baselinePeriod),
    '  UNION ALL',
    side(COMPARISON_SIDE, query.comparisonPeriod),
    ')',
    'GROUP BY GROUPING SETS ((side, bucket_start, dim_0), (side, dim_0), (side))',
    `LIMIT ${params.add('UInt64', rowLimit)}`,
  ].join('\n');
  return { sql: withProjectionPreference(sql), params: params.toObject() };
}

/**
 * At most `limit` distinct values of the comparison's dimension over both periods, with its filters: a
 * comparison zero-fills every bucket of both periods for every value, so more values than the response
 * can hold is known from this alone. ClickHouse stops reading once it has found `limit` of them, so a
 * comparison that is too large is refused after a few granules instead of after its whole aggregation.
 */
export function buildComparisonValuesProbe(
  table: string,
  query: ComparisonQuery & { dimension: DimensionRef },
  limit: number,
): CompiledSql {
  const params = new SqlParameters();
  const dimension = dimensionValueSql(query.dimension, params, query.scope);
  const side = (period: DateRange) =>
    [`  SELECT ${dimension} AS dim_0`, `  FROM ${table}`, `  WHERE ${periodWhere(query, period, params).replace(/\n/g, '\n  ')}`].join(
      '\n',
    );
  const sql = [
    'SELECT DISTINCT dim_0',
    'FROM (',
    side(query.baselinePeriod),
    '  UNION ALL',
    side(query.comparisonPeriod),
    ')',
    `LIMIT ${params.add('UInt64', limit)}`,
  ].join('\n');
  return { sql, params: params.toObject() };
}

/** The organisation, the filters and exactly the period's days (the period is the window). */
function periodWhere(query: ComparisonQuery, period: DateRange, params: SqlParameters): string {
  const filters: Filters = {
    inclusions: { ...withoutDates(query.filters.inclusions), dateRange: period },
    exclusions: withoutDates(query.filters.exclusions),
  };
  // The dateRange always applies, so the default window (here: the period itself) is never used.
  return compileWhere(query.scope, filters, params, {
    today: period.end,
    defaultWindowDays: daysInRange(period.start, period.end),
  });
}

/** The periods are the only dates of a comparison (the DTO already refuses dates in its filters). */
function withoutDates(fields: FilterFields | undefined): FilterFields {
  const { dateRange: _dateRange, billingPeriods: _billingPeriods, ...rest } = fields ?? {};
  return rest;
}
