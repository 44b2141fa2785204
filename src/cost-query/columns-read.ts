import { LIST_FIELDS, MAP_DIMENSIONS } from './filter-fields';

/** The map columns a row condition or value can read (full and activated), by key or whole. */
export const MAP_COLUMNS: readonly string[] = Object.values(MAP_DIMENSIONS).flatMap((map) => [map.column, map.activatedColumn]);

/**
 * The columns a row condition or value can read: the day, the list fields' and the maps'. Rows summed by the ones an
 * expression reads give it the same value as each of their line items, so it can be evaluated on the sums.
 */
export const ROW_COLUMNS: readonly string[] = [...new Set(['usage_date', ...LIST_FIELDS.map((field) => field.column), ...MAP_COLUMNS])];

/** The columns of `candidates` that `sql` reads (whole words: `resource_tags` is not read by `activated_resource_tags`). */
export function columnsRead(sql: string, candidates: readonly string[] = ROW_COLUMNS): string[] {
  return candidates.filter((column) => new RegExp(`\\b${column}\\b`).test(sql));
}
