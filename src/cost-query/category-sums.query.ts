import type { DimensionRef } from './dimension-registry';
import { mapKeysNamed } from './activated-maps';
import { LIST_FIELDS, MAP_DIMENSIONS } from './filter-fields';
import type { CompiledCategories, FilterFields, Filters, OrganizationScope } from './filters.types';
export type { CategorySums } from './filters.types';
import { MEASURE_COLUMNS } from './metrics';
import { CompiledSql, SqlParameters } from './sql-parameters';

/**
 * Category sums (migration 0038): an organisation's costs with the values of its rule-defined categories computed
 * once per state of its inputs, so a question by such a category reads them as a question by a column reads the
 * aggregate projections, instead of evaluating the rules on every row it reads.
 */

/** What a build groups by besides the categories: the usage day and every list field's column. */
export const CATEGORY_SUM_KEYS: readonly string[] = ['usage_date', ...new Set(LIST_FIELDS.map((field) => field.column))];

/** A build's map of the rule-defined categories' values (the only keys it holds). */
export const CATEGORY_SUM_MAP = MAP_DIMENSIONS.costCategory.column;

/** The parameter naming the build a statement reads (compileWhere's condition; projection-preference.ts tells such a statement by it). */
export const CATEGORY_BUILD_PARAMETER = 'category_build_id';

/** The columns of a build's row, in the order buildCategorySumsSelect answers them. */
export const CATEGORY_SUM_COLUMNS: readonly string[] = [
  'organization_id',
  'build_id',
  ...CATEGORY_SUM_KEYS,
  CATEGORY_SUM_MAP,
  ...MEASURE_COLUMNS,
];

/**
 * The rows of one month of a build (`month`: its first day), in CATEGORY_SUM_COLUMNS' order: the organisation's cost
 * rows of that month summed per (day, list columns, rule-defined categories' values), the values computed by
 * `categories` (every rule-defined category of the organisation) and only theirs kept.
 */
export function buildCategorySumsSelect(
  costTable: string,
  organizationId: string,
  buildId: string,
  categories: CompiledCategories,
  month: string,
): CompiledSql {
  const params = new SqlParameters();
  params.include(categories.params);
  const organization = params.named('organization_id', 'UUID', organizationId);
  const values = `mapFilter((key, value) -> has(${params.add('Array(String)', categories.keys)}, key), ${categories.sql})`;
  const sql = [
    `SELECT ${[organization, params.named('build_id', 'UUID', buildId), ...CATEGORY_SUM_KEYS].join(', ')},`,
    `  ${values} AS category_values,`,
    `  ${MEASURE_COLUMNS.map((column) => `sum(${column})`).join(', ')}`,
    `FROM ${costTable}`,
    `WHERE organization_id = ${organization} AND toStartOfMonth(usage_date) = ${params.named('month', 'Date', month)}`,
    `GROUP BY ${[...CATEGORY_SUM_KEYS, 'category_values'].join(', ')}`,
  ].join('\n');
  return { sql, params: params.toObject() };
}

/**
 * Whether category sums can answer a /data question naming rule-defined categories: every tag or category key it
 * names (grouping, filters, the key's data scope) is a rule-defined category, and so are the keys its categories'
 * split sources filter by — a build keeps no tag and no imported category.
 */
export function readsOnlyRuleCategories(query: {
  scope: OrganizationScope;
  filters: Filters;
  dimensions: readonly DimensionRef[];
}): boolean {
  const rules = query.scope.ruleCategories;
  if (!rules) return false;
  const sources = [...(rules.splits?.values() ?? [])].flatMap((segments) =>
    segments.flatMap((segment) => segment.splits.flatMap((split) => ('filters' in split.source ? [split.source.filters] : []))),
  );
  const named = mapKeysNamed(query.scope, query.filters, query.dimensions);
  return (
    named.every((ref) => ref.kind === 'costCategory' && rules.keys.includes(ref.key)) && sources.every((filters) => namesNoMapKey(filters))
  );
}

function namesNoMapKey(filters: Filters): boolean {
  const keyFields = Object.values(MAP_DIMENSIONS).map((map) => map.keyField);
  const names = (fields?: FilterFields) => keyFields.some((key) => fields?.[key] !== undefined && fields[key] !== null);
  return !names(filters.inclusions) && !names(filters.exclusions);
}

/** The table a question's statements read: its build of category sums, or the cost rows. */
export function tableOf(scope: Pick<OrganizationScope, 'categorySums'>, costTable: string): string {
  return scope.categorySums?.table ?? costTable;
}
