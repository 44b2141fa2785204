import type { DimensionRef, MapDimensionKind } from './dimension-registry';
import { MAP_DIMENSIONS } from './filter-fields';
import { FILTER_FIELD_ENTRIES } from './filter-fields';
import type { FilterFields, Filters, OrganizationScope } from './filters.types';
import type { SqlParameters } from './sql-parameters';

/** An organisation's active keys per map (migration 0027): those its activated_* columns hold for every row. */
export type ActivatedKeys = Record<MapDimensionKind, readonly string[]>;

export const NO_ACTIVATED_KEYS: ActivatedKeys = { tag: [], costCategory: [] };

/** A tag or cost-category key a question names. */
export interface MapKeyRef {
  kind: MapDimensionKind;
  key: string;
}

/**
 * The Map a question reads for `kind`: the activated column when every key it names is active; for cost categories,
 * when it names a rule-defined one, the map its rules compute (its parameters added to `params`).
 */
export function mapColumn(
  kind: MapDimensionKind,
  scope: Pick<OrganizationScope, 'readsActivatedMaps' | 'ruleCategories'> | undefined,
  params: SqlParameters,
): string {
  const rules = scope?.ruleCategories;
  if (kind === 'costCategory' && rules) {
    params.include(rules.params);
    return rules.sql;
  }
  return scope?.readsActivatedMaps ? MAP_DIMENSIONS[kind].activatedColumn : MAP_DIMENSIONS[kind].column;
}

/**
 * The scope a question is answered in: reading the activated maps (and their projections, migration 0027) when it
 * names at least one key and every key it names — in its filters, its grouping and the key's data scope — is
 * active. A question that names one key that is not reads today's maps throughout: mixing the two columns would
 * leave no projection able to answer it.
 */
export function scopeReadingActivatedMaps(
  scope: OrganizationScope,
  active: ActivatedKeys,
  filters: Filters,
  dimensions: readonly DimensionRef[] = [],
): OrganizationScope {
  const named = mapKeysNamed(scope, filters, dimensions);
  const readsActivatedMaps = named.length > 0 && named.every((ref) => active[ref.kind].includes(ref.key));
  return readsActivatedMaps ? { ...scope, readsActivatedMaps } : scope;
}

/** Every tag and cost-category key a question names. */
export function mapKeysNamed(scope: OrganizationScope, filters: Filters, dimensions: readonly DimensionRef[]): MapKeyRef[] {
  const fromFields = (fields: FilterFields | undefined): MapKeyRef[] =>
    FILTER_FIELD_ENTRIES.flatMap(([name, field]) => {
      const key = fields?.[name];
      return field.kind === 'mapKey' && typeof key === 'string' ? [{ kind: field.map, key }] : [];
    });
  return [
    ...[filters.inclusions, filters.exclusions, scope.dataScope?.inclusions, scope.dataScope?.exclusions].flatMap(fromFields),
    ...dimensions.flatMap((ref) => (ref.kind === 'column' ? [] : [{ kind: ref.kind, key: ref.key }])),
  ];
}
