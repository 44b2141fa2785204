import { Dimension, LIST_FIELDS, ListFilterField, MAP_DIMENSIONS, MapDimensionKind, OptionsField } from './filter-fields';

/**
 * The dimensions of groupBy and the /filters lists, derived from the field table (filter-fields.ts):
 * a list field's column is a dimension; resource tags and cost categories are Map dimensions by key.
 */
export { MAP_DIMENSIONS, NOT_SET } from './filter-fields';
export type { Dimension, ListFilterField, MapDimensionKind, OptionsField } from './filter-fields';

export interface ColumnDimension {
  /** Column SQL in cost_line_items. */
  column: string;
  /** FilterFields key that filters on this dimension. */
  filterField: ListFilterField;
  /** Key of the /filters response listing this dimension's values. */
  optionsField: OptionsField;
}

export const COLUMN_DIMENSIONS = Object.fromEntries(
  LIST_FIELDS.map((field) => [field.dimension, { column: field.column, filterField: field.name, optionsField: field.options }]),
) as Record<Dimension, ColumnDimension>;

export const DIMENSIONS = LIST_FIELDS.map((field) => field.dimension);

/** Fields of the /filters response (and of its `fields` request enum): the columns', then the Map keys'. */
export const OPTIONS_FIELDS: readonly OptionsField[] = [
  ...LIST_FIELDS.map((field) => field.options),
  ...(Object.keys(MAP_DIMENSIONS) as MapDimensionKind[]).map((kind) => MAP_DIMENSIONS[kind].optionsField),
];

/** A parsed grouping dimension: a registry column, or a tag/cost-category key. */
export type DimensionRef = { kind: 'column'; name: Dimension } | { kind: MapDimensionKind; key: string };

export const MAX_MAP_KEY_LENGTH = 256;

const MAP_DIMENSION_PATTERN = new RegExp(`^(${Object.keys(MAP_DIMENSIONS).join('|')}):(.+)$`, 's');

export function parseDimension(value: string): DimensionRef | undefined {
  if ((DIMENSIONS as string[]).includes(value)) return { kind: 'column', name: value as Dimension };
  const match = MAP_DIMENSION_PATTERN.exec(value);
  if (match && match[2].length <= MAX_MAP_KEY_LENGTH) return { kind: match[1] as MapDimensionKind, key: match[2] } as DimensionRef;
  return undefined;
}

/** The API name of a dimension, as used in `dimension_values` keys. */
export function dimensionName(ref: DimensionRef): string {
  return ref.kind === 'column' ? ref.name : `${ref.kind}:${ref.key}`;
}
