import { dimensionValueSql } from './cost-data.query';
import { CurrencyConversion, MoneySql } from './currency-conversion';
import { bucketStartSql, DateGrouping } from './date-bucketing';
import type { DimensionRef } from './dimension-registry';
import { compileWhere } from './filter-compiler';
import type { Filters, OrganizationScope } from './filters.types';
import type { MeasureColumn } from './metrics';
import { withProjectionPreference } from './projection-preference';
import { CompiledSql, SqlParameters } from './sql-parameters';

/** The cost side of a unit cost: one metric summed per bucket (and per value of the metric's dimension). */
export interface UnitCostSumsQuery {
  scope: OrganizationScope;
  /** The request's filters (its window among them, or the default window). */
  filters: Filters;
  today: string;
  defaultWindowDays: number;
  dateGrouping: DateGrouping;
  dimension?: DimensionRef;
  /** A money column of the cost rows (a /data metric). */
  costMetric: MeasureColumn;
  conversion?: CurrencyConversion;
}

/** A row of the answer: the bucket's first day, the dimension value ('' without one), the cost as exact decimal text. */
export interface UnitCostSumsRow {
  date: string;
  dimension_value: string;
  cost: string;
}

export function buildUnitCostSumsQuery(table: string, query: UnitCostSumsQuery): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params);
  const where = compileWhere(query.scope, query.filters, params, { today: query.today, defaultWindowDays: query.defaultWindowDays });
  const value = query.dimension ? dimensionValueSql(query.dimension, params, query.scope) : "''";
  const grouped = money.select((branch, and) => {
    const [cost] = branch.sums([query.costMetric]);
    return [
      `  SELECT ${bucketStartSql(query.dateGrouping)} AS bucket, ${value} AS value, ${cost} AS part`,
      `  FROM ${table}`,
      `  WHERE ${and(where).replace(/\n/g, '\n  ')}`,
      `  GROUP BY ${['bucket', 'value', ...branch.groupKeys].join(', ')}`,
    ].join('\n');
  });
  const sql = [
    `SELECT toString(bucket) AS date, value AS dimension_value, toString(${money.total('sum(part)')}) AS cost`,
    'FROM (',
    grouped,
    ')',
    'GROUP BY bucket, value',
    'ORDER BY bucket, value',
  ].join('\n');
  return { sql: withProjectionPreference(sql), params: params.toObject() };
}
