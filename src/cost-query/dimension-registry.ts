/**
 * The dimension registry: the only place where API names meet column SQL. DTO enums, Swagger,
 * the filter compiler, grouping and the /filters endpoint all derive from it.
 */
export interface ColumnDimension {
  /** Column SQL in cost_line_items. */
  column: string;
  /** FilterFields key that filters on this dimension. */
  filterField: ListFilterField;
  /** Key of the /filters response listing this dimension's values. */
  optionsField: OptionsField;
}

export const COLUMN_DIMENSIONS = {
  costLayer: { column: 'cost_layer', filterField: 'costLayers', optionsField: 'costLayers' },
  cloud: { column: 'cloud', filterField: 'clouds', optionsField: 'clouds' },
  service: { column: 'service', filterField: 'services', optionsField: 'services' },
  resourceFamily: { column: 'resource_family', filterField: 'resourceFamilies', optionsField: 'resourceFamilies' },
  region: { column: 'region', filterField: 'regions', optionsField: 'regions' },
  instanceType: { column: 'instance_type', filterField: 'instanceTypes', optionsField: 'instanceTypes' },
  usageType: { column: 'usage_type', filterField: 'usageTypes', optionsField: 'usageTypes' },
  billingPeriod: { column: 'billing_period', filterField: 'billingPeriods', optionsField: 'billingPeriods' },
  costType: { column: 'cost_type', filterField: 'costTypes', optionsField: 'costTypes' },
  account: { column: 'account_id', filterField: 'accountIds', optionsField: 'accounts' },
  integration: { column: 'integration_id', filterField: 'integrationIds', optionsField: 'integrations' },
} as const satisfies Record<string, ColumnDimension>;

export type Dimension = keyof typeof COLUMN_DIMENSIONS;
export const DIMENSIONS = Object.keys(COLUMN_DIMENSIONS) as Dimension[];

/** FilterFields keys that hold a list of dimension values. */
export type ListFilterField =
  | 'costLayers'
  | 'clouds'
  | 'services'
  | 'resourceFamilies'
  | 'regions'
  | 'instanceTypes'
  | 'usageTypes'
  | 'billingPeriods'
  | 'costTypes'
  | 'accountIds'
  | 'integrationIds';

/** Map-typed attributes: resource tags and cost categories, addressed by key. */
export const MAP_DIMENSIONS = {
  tag: { column: 'resource_tags', keyField: 'resourceTag', valuesField: 'resourceTagValues', optionsField: 'resourceTags' },
  costCategory: {
    column: 'cost_categories',
    keyField: 'costCategory',
    valuesField: 'costCategoryValues',
    optionsField: 'costCategories',
  },
} as const;
export type MapDimensionKind = keyof typeof MAP_DIMENSIONS;

/** Fields of the /filters response (and of its `fields` request enum). */
export const OPTIONS_FIELDS = [
  ...DIMENSIONS.map((d) => COLUMN_DIMENSIONS[d].optionsField),
  MAP_DIMENSIONS.tag.optionsField,
  MAP_DIMENSIONS.costCategory.optionsField,
] as const;
export type OptionsField =
  | 'costLayers'
  | 'clouds'
  | 'services'
  | 'resourceFamilies'
  | 'regions'
  | 'instanceTypes'
  | 'usageTypes'
  | 'billingPeriods'
  | 'costTypes'
  | 'accounts'
  | 'integrations'
  | 'resourceTags'
  | 'costCategories';

/**
 * The value reported for rows that have no value for a dimension (an untagged resource, an
 * empty column). Filtering on it selects those rows, so every row stays reachable.
 */
export const NOT_SET = '(not set)';

/** A parsed grouping dimension: a registry column, or a tag/cost-category key. */
export type DimensionRef =
  | { kind: 'column'; name: Dimension }
  | { kind: MapDimensionKind; key: string };

export const MAX_MAP_KEY_LENGTH = 256;

export function parseDimension(value: string): DimensionRef | undefined {
  if ((DIMENSIONS as string[]).includes(value)) return { kind: 'column', name: value as Dimension };
  const match = /^(tag|costCategory):(.+)$/s.exec(value);
  if (match && match[2].length <= MAX_MAP_KEY_LENGTH) return { kind: match[1] as MapDimensionKind, key: match[2] } as DimensionRef;
  return undefined;
}

/** The API name of a dimension, as used in `dimension_values` keys. */
export function dimensionName(ref: DimensionRef): string {
  return ref.kind === 'column' ? ref.name : `${ref.kind}:${ref.key}`;
}
