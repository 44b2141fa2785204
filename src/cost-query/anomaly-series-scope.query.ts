import { dimensionValueSql } from './cost-data.query';
import { DimensionRef } from './dimension-registry';
import { compileWhere } from './filter-compiler';
import { DateRange, OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';

/** Which part of an anomaly's series a key's data scope holds: what its own scan of those days would read. */
export interface AnomalySeriesScopeQuery {
  /** The key's scope (read in the full maps: always exact). */
  scope: OrganizationScope;
  monitored: DimensionRef;
  /** The series' value. */
  value: string;
  /** The anomaly's days. */
  days: DateRange;
  /** Charge categories no series holds (a scan leaves them out). */
  leftOutCategories: readonly string[];
}

/**
 * One row: `has_value` (1 when the scope holds usage of `value` of the monitored dimension on the anomaly's days) and
 * `value_count` (how many values of it the scope holds on those days: more than a scan monitors on their own means its
 * scan has an `(other)` series then).
 */
export function buildAnomalySeriesScopeQuery(table: string, query: AnomalySeriesScopeQuery): CompiledSql {
  const params = new SqlParameters();
  const where = compileWhere(query.scope, { inclusions: { dateRange: query.days } }, params, {
    today: query.days.end,
    defaultWindowDays: 1,
  });
  const value = dimensionValueSql(query.monitored, params, query.scope);
  const sql = [
    `SELECT toUInt8(countIf(value = ${params.named('value', 'String', query.value)}) > 0) AS has_value, uniqExact(value) AS value_count`,
    `FROM (SELECT ${value} AS value FROM ${table}`,
    `  WHERE ${where.replace(/\n/g, '\n  ')}`,
    `    AND charge_category NOT IN ${params.named('left_out_categories', 'Array(String)', query.leftOutCategories)}`,
    '  GROUP BY value)',
  ].join('\n');
  return { sql, params: params.toObject() };
}
