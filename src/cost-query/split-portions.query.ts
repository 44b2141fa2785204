import { mapColumn } from './activated-maps';
import { CostDataQuery, dimensionValueSql, whereOptions } from './cost-data.query';
import { compileWhere, rowCondition } from './filter-compiler';
import { MEASURE_COLUMNS } from './metrics';
import type { OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';
import { MAX_SPLIT_PORTIONS, proportionalTargets, SplitPlan, sourceValues, withoutCategory } from './split-adjustments';

/**
 * The rows a question's splits move, summed per usage day, currency, billing month, category value, the answer's
 * other grouping keys and the filter sources they match (split-adjustments.ts PortionRow): the question's rows but for
 * its condition on the category (cost moved into a value it keeps comes from values it does not), in the key's data
 * scope but for its own condition on the category, of a source value or matching a source's filters (`read`: both, or
 * only one of the two, for splitPortionReads). One row more than MAX_SPLIT_PORTIONS tells a question too large to split.
 */
export function buildSplitPortionsQuery(table: string, query: CostDataQuery, plan: SplitPlan, read: PortionSources = 'both'): CompiledSql {
  const params = new SqlParameters();
  const where = compileWhere(
    scopeWithoutCategory(query.scope, plan.category),
    withoutCategory(query.filters, plan.category),
    params,
    whereOptions(query),
  );
  const group = query.dimensions
    .map((ref, i) => (i === plan.dimensionIndex ? undefined : dimensionValueSql(ref, params, query.scope)))
    .filter((sql): sql is string => sql !== undefined);
  const maps = { tag: mapColumn('tag', query.scope, params), costCategory: mapColumn('costCategory', query.scope, params) };
  const filterSources = read === 'values' ? [] : plan.filterSources;
  const flags = filterSources.map((filters) => `toUInt8(${rowCondition(filters, params, { columns: maps }) ?? '1'})`);
  const value = `${maps.costCategory}[${params.add('String', plan.category)}]`;
  const sources = [
    ...(read === 'filters' ? [] : [`split_value IN ${params.add('Array(String)', sourceValues(plan))}`]),
    ...flags.map((flag) => `${flag} = 1`),
  ];
  const sql = [
    'SELECT toString(usage_date) AS split_day, billing_period AS split_period, billing_currency AS split_currency,',
    `  ${value} AS split_value,`,
    `  toJSONString([${group.join(', ')}]::Array(String)) AS split_group,`,
    `  [${flags.join(', ')}]::Array(UInt8) AS split_flags,`,
    `  [${MEASURE_COLUMNS.map((column) => `toString(sum(${column}))`).join(', ')}] AS split_sums`,
    `FROM ${table}`,
    `WHERE ${where}`,
    `  AND (${sources.join(' OR ')})`,
    'GROUP BY split_day, split_period, split_currency, split_value, split_group, split_flags',
    `LIMIT ${params.add('UInt64', MAX_SPLIT_PORTIONS + 1)}`,
  ].join('\n');
  return { sql, params: params.toObject() };
}

/** The portions a statement reads: of the source values, of the rows the filter sources choose, or of both. */
export type PortionSources = 'both' | 'values' | 'filters';

/**
 * The statements a question's portions are read by. One where the answer has other grouping keys, or the sources are
 * all values or all filters. Otherwise two, merged by portionsOfTwoReads: the source values' rows, which a build's daily
 * category projection answers, and the rows the filter sources choose, which only the rows can (they read a list
 * column) — read together, every row of the window would be read whole for the category's value.
 */
export function splitPortionReads(query: CostDataQuery, plan: SplitPlan): PortionSources[] {
  const otherKeys = query.dimensions.some((_, i) => i !== plan.dimensionIndex);
  const apart = !otherKeys && plan.filterSources.length > 0 && sourceValues(plan).length > 0;
  return apart ? ['values', 'filters'] : ['both'];
}

/**
 * The key's scope without its condition on the category: a key scoped to a value sees that value's share of the cost
 * moved from sources outside its scope (the adjustments are kept by the scope's value: split-adjustments.ts), and its
 * targets' weights are their whole cost. Its other conditions stay.
 */
function scopeWithoutCategory(scope: OrganizationScope, category: string): OrganizationScope {
  return scope.dataScope ? { ...scope, dataScope: withoutCategory(scope.dataScope, category) } : scope;
}

/**
 * The proportional targets' own amortized cost per usage day, currency and billing month, before any split: over the
 * question's window in the key's data scope, whatever else the question filters (a target's weight is its cost, not
 * the share of it a question happens to look at). Undefined when no split of the plan is proportional.
 */
export function buildSplitBasisQuery(table: string, query: CostDataQuery, plan: SplitPlan): CompiledSql | undefined {
  const targets = proportionalTargets(plan);
  if (targets.length === 0) return undefined;
  const params = new SqlParameters();
  const { dateRange, billingPeriods } = query.filters.inclusions ?? {};
  const window = { inclusions: { ...(dateRange ? { dateRange } : {}), ...(billingPeriods ? { billingPeriods } : {}) } };
  const where = compileWhere(scopeWithoutCategory(query.scope, plan.category), window, params, whereOptions(query));
  const sql = [
    'SELECT toString(usage_date) AS split_day, billing_period AS split_period, billing_currency AS split_currency,',
    `  ${mapColumn('costCategory', query.scope, params)}[${params.add('String', plan.category)}] AS split_value,`,
    '  toString(sum(amortized_cost)) AS basis',
    `FROM ${table}`,
    `WHERE ${where}`,
    `  AND split_value IN ${params.add('Array(String)', targets)}`,
    'GROUP BY split_day, split_period, split_currency, split_value',
  ].join('\n');
  return { sql, params: params.toObject() };
}
