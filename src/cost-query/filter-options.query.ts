import {
  COLUMN_DIMENSIONS,
  DIMENSIONS,
  MAP_DIMENSIONS,
  MapDimensionKind,
  NOT_SET,
  OPTIONS_FIELDS,
  OptionsField,
} from './dimension-registry';
import { compileWhere, FilterTarget } from './filter-compiler';
import { Filters, OrganizationScope } from './filters.types';
import { finiteNumber } from './metrics';
import { CompiledSql, QueryParams } from './query-params';

/**
 * SQL and result assembly for filter discovery: POST /filters (the options of every filter field under
 * cross-filtering) and POST /tag-values, /cost-category-values (the values of one map key).
 */

/** Most options listed per field; the most expensive ones (amortized cost) are kept. */
export const MAX_OPTIONS_PER_FIELD = 10_000;
/** `tagValues` of POST /filters covers at most this many tag keys: the most expensive ones. */
export const MAX_TAG_VALUE_KEYS = 100;
/** ...and at most this many values per key, again the most expensive ones. */
export const MAX_VALUES_PER_TAG_KEY = 100;
/** Most values POST /tag-values and /cost-category-values return; the most expensive ones are kept. */
export const MAX_MAP_KEY_VALUES = 10_000;

/** How one /filters field is listed: the values of a column, or the keys of a map column. */
type OptionSource =
  | { kind: 'column'; column: string; target: FilterTarget }
  | { kind: 'mapKeys'; column: string; target: MapDimensionKind };

/** Every /filters field with the filter it must leave out when its own options are computed. */
export const OPTION_SOURCES: Record<OptionsField, OptionSource> = Object.fromEntries([
  ...DIMENSIONS.map((dimension) => {
    const { column, filterField, optionsField } = COLUMN_DIMENSIONS[dimension];
    return [optionsField, { kind: 'column', column, target: filterField }];
  }),
  ...(Object.keys(MAP_DIMENSIONS) as MapDimensionKind[]).map((kind) => [
    MAP_DIMENSIONS[kind].optionsField,
    { kind: 'mapKeys', column: MAP_DIMENSIONS[kind].column, target: kind },
  ]),
]) as Record<OptionsField, OptionSource>;

/** The `field` of the result rows that carry tag values (`name` holds the tag key). */
export const TAG_VALUES_ROW = 'tagValues';

export interface FilterOptionsQueryInput {
  scope: OrganizationScope;
  filters: Filters;
  /** Fields to list, without duplicates. */
  fields: OptionsField[];
  /** Qualified cost_line_items table name. */
  table: string;
  today: string;
  defaultWindowDays: number;
}

/** One result row: an option of `field` (or, for `tagValues`, a value of tag key `name`). */
export interface FilterOptionRow {
  field: string;
  value: string;
  /** The account name for `accounts`, the tag key for `tagValues`, otherwise ''. */
  name: string;
  sum_amortized_cost: number | string;
}

/**
 * One query, one round trip: a UNION ALL of one SELECT per requested field, each under the request's
 * filters minus that field's own inclusion and exclusion (the cross-filtering rule), plus the tag values
 * of the most expensive tag keys when resourceTags is requested. Every branch ranks by amortized cost and
 * is bounded, so the answer stays small however wide the estate.
 */
export function buildFilterOptionsQuery(input: FilterOptionsQueryInput): CompiledSql {
  if (input.fields.length === 0) throw new Error('buildFilterOptionsQuery needs at least one field');
  const params = new QueryParams();
  const whereFor = (target: FilterTarget) =>
    compileWhere(input.scope, input.filters, params, {
      today: input.today,
      defaultWindowDays: input.defaultWindowDays,
      omit: target,
    });

  const branches = input.fields.map((field) => {
    const source = OPTION_SOURCES[field];
    if (!source) throw new Error(`Unknown filter options field: ${field}`);
    const where = whereFor(source.target);
    return source.kind === 'column'
      ? columnOptionsSql(field, source.column, where, input.table)
      : mapKeyOptionsSql(field, source.column, where, input.table);
  });
  if (input.fields.includes(MAP_DIMENSIONS.tag.optionsField)) {
    branches.push(tagValuesSql(whereFor('tag'), input.table));
  }
  return { sql: branches.map((branch) => `(${branch})`).join('\nUNION ALL\n'), params: params.toObject() };
}

// Field names are registry constants (checked against OPTIONS_FIELDS), never request text.
function fieldLiteral(field: string): string {
  if (!/^[A-Za-z]+$/.test(field)) throw new Error(`Unexpected field name: ${field}`);
  return `'${field}'`;
}

function columnOptionsSql(field: OptionsField, column: string, where: string, table: string): string {
  // The latest non-empty name of an account (accounts can be renamed).
  const name = field === 'accounts' ? "argMaxIf(account_name, usage_date, account_name != '')" : "''";
  return optionsBranchSql(field, `toString(${column})`, name, where, table);
}

function mapKeyOptionsSql(field: OptionsField, column: string, where: string, table: string): string {
  return optionsBranchSql(field, `arrayJoin(arrayFilter(map_key -> map_key != '', mapKeys(${column})))`, "''", where, table);
}

/** One UNION ALL branch: the field's values with their cost, most expensive first, bounded. */
function optionsBranchSql(field: OptionsField, value: string, name: string, where: string, table: string): string {
  return [
    `SELECT ${fieldLiteral(field)} AS field, ${value} AS value, ${name} AS name, sum(amortized_cost) AS sum_amortized_cost`,
    `FROM ${table}`,
    `WHERE ${where}`,
    'GROUP BY value',
    'ORDER BY sum_amortized_cost DESC, value',
    `LIMIT ${MAX_OPTIONS_PER_FIELD}`,
  ].join('\n');
}

/**
 * Values of the MAX_TAG_VALUE_KEYS most expensive tag keys (the same ranking as the resourceTags branch),
 * MAX_VALUES_PER_TAG_KEY most expensive values each; empty values are left out. Same filters as
 * resourceTags: everything but the tag filter itself.
 */
function tagValuesSql(where: string, table: string): string {
  const column = MAP_DIMENSIONS.tag.column;
  const topKeys = [
    `SELECT arrayJoin(arrayFilter(map_key -> map_key != '', mapKeys(${column}))) AS top_key`,
    `FROM ${table}`,
    `WHERE ${where}`,
    'GROUP BY top_key',
    'ORDER BY sum(amortized_cost) DESC, top_key',
    `LIMIT ${MAX_TAG_VALUE_KEYS}`,
  ].join('\n');
  return [
    `SELECT ${fieldLiteral(TAG_VALUES_ROW)} AS field, tag_value AS value, tag_key AS name, sum(amortized_cost) AS sum_amortized_cost`,
    `FROM ${table}`,
    `ARRAY JOIN mapKeys(${column}) AS tag_key, mapValues(${column}) AS tag_value`,
    `WHERE ${where}`,
    "  AND tag_value != ''",
    `  AND tag_key IN (${topKeys})`,
    'GROUP BY tag_key, tag_value',
    'ORDER BY tag_key, sum_amortized_cost DESC, tag_value',
    `LIMIT ${MAX_VALUES_PER_TAG_KEY} BY tag_key`,
  ].join('\n');
}

/** One option with its amortized cost under the request's filters (minus the field's own filter). */
export interface EnrichedOption {
  value: string;
  amortized_cost: number;
  /** Accounts only: the account's name. */
  name?: string;
}

export interface FilterOptions extends Record<OptionsField, string[]> {
  accountIdToName: Record<string, string>;
  tagValues: Record<string, string[]>;
  enriched: Partial<Record<OptionsField, EnrichedOption[]>>;
}

/**
 * Assembles the /filters payload. Every field is present (empty when not requested); `enriched` holds
 * the requested fields only. Option lists sort ascending by code point, enriched lists by cost (highest
 * first) then value. An empty column value is reported as NOT_SET.
 */
export function readFilterOptions(rows: FilterOptionRow[], fields: OptionsField[]): FilterOptions {
  const options = Object.fromEntries(OPTIONS_FIELDS.map((field) => [field, []])) as unknown as FilterOptions;
  options.accountIdToName = {};
  options.tagValues = {};
  options.enriched = {};

  const byField = new Map<string, Map<string, EnrichedOption>>();
  const tagValues = new Map<string, { value: string; cost: number }[]>();
  for (const row of rows) {
    const cost = finiteNumber(row.sum_amortized_cost);
    if (row.field === TAG_VALUES_ROW) {
      const values = tagValues.get(row.name) ?? [];
      values.push({ value: row.value, cost });
      tagValues.set(row.name, values);
      continue;
    }
    const value = row.value === '' ? NOT_SET : row.value;
    const entries = byField.get(row.field) ?? new Map<string, EnrichedOption>();
    byField.set(row.field, entries);
    // A stored '(not set)' and an empty value are one option: merge them.
    const entry = entries.get(value);
    if (entry) {
      entry.amortized_cost += cost;
      if (!entry.name && row.name) entry.name = row.name;
    } else {
      entries.set(value, row.field === 'accounts' ? { value, name: row.name, amortized_cost: cost } : { value, amortized_cost: cost });
    }
  }

  for (const field of fields) {
    const entries = [...(byField.get(field)?.values() ?? [])];
    options[field] = entries.map((entry) => entry.value).sort(compareCodePoints);
    options.enriched[field] = entries.sort(
      (a, b) => b.amortized_cost - a.amortized_cost || compareCodePoints(a.value, b.value),
    );
    if (field === 'accounts') {
      for (const entry of entries) options.accountIdToName[entry.value] = entry.name ?? '';
    }
  }
  if (fields.includes(MAP_DIMENSIONS.tag.optionsField)) {
    const listedKeys = new Set(options.resourceTags);
    for (const key of [...tagValues.keys()].sort(compareCodePoints)) {
      if (!listedKeys.has(key)) continue;
      options.tagValues[key] = tagValues.get(key)!.map((entry) => entry.value).sort(compareCodePoints);
    }
  }
  return options;
}

export interface MapKeyValuesQueryInput {
  scope: OrganizationScope;
  kind: MapDimensionKind;
  key: string;
  table: string;
}

/**
 * The distinct non-empty values of one tag or cost-category key in the organisation, over all time (a
 * value picker must see every value, not only recent ones). At most MAX_MAP_KEY_VALUES, the most
 * expensive ones; the caller sorts them.
 */
export function buildMapKeyValuesQuery(input: MapKeyValuesQueryInput): CompiledSql {
  if (!input.scope?.organizationId) throw new Error('buildMapKeyValuesQuery requires an organisation scope');
  const params = new QueryParams();
  const column = MAP_DIMENSIONS[input.kind].column;
  const organization = params.named('organization_id', 'UUID', input.scope.organizationId);
  const key = params.add('String', input.key);
  const sql = [
    `SELECT ${column}[${key}] AS map_value`,
    `FROM ${input.table}`,
    `WHERE organization_id = ${organization}`,
    `  AND map_value != ''`,
    'GROUP BY map_value',
    'ORDER BY sum(amortized_cost) DESC, map_value',
    `LIMIT ${MAX_MAP_KEY_VALUES}`,
  ].join('\n');
  return { sql, params: params.toObject() };
}

export function readMapKeyValues(rows: { map_value: string }[]): string[] {
  return rows.map((row) => row.map_value).sort(compareCodePoints);
}

/**
 * Ascending by Unicode code point, i.e. the UTF-8 byte order ClickHouse sorts strings in. Unlike
 * localeCompare it does not depend on the server's locale, so the order is stable across deployments.
 *
 * Compares UTF-16 code units without allocating (sorting 10,000 options costs ~130,000 comparisons).
 * UTF-16 order is code point order except that surrogates (D800–DFFF, which encode code points above
 * FFFF) sort below E000–FFFF: the first differing unit is remapped so they sort above.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}
