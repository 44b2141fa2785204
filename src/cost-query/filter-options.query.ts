import { mapColumn } from './activated-maps';
import {
  COLUMN_DIMENSIONS,
  DIMENSIONS,
  MAP_DIMENSIONS,
  MapDimensionKind,
  NOT_SET,
  OPTIONS_FIELDS,
  OptionsField,
} from './dimension-registry';
import { compileWhere, dataScopeConditions, FilterTarget, targetCondition } from './filter-compiler';
import { Filters, OrganizationScope } from './filters.types';
import { finiteNumber } from './cost-metrics';
import { CompiledSql, SqlParameters } from './sql-parameters';
import { withProjectionPreference } from './projection-preference';
import { CurrencyConversion, MoneySql } from './currency-conversion';

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
/**
 * Most values POST /tag-values and /cost-category-values return without paging (the most expensive ones
 * are kept), and the largest page (`limit`).
 */
export const MAX_MAP_KEY_VALUES = 10_000;
/** Longest `search` accepted (characters). */
export const MAX_SEARCH_LENGTH = 256;

/**
 * Rows fetched per /filters list: two past the bound. One more tells a cut list (truncated) from one that
 * just fits; the second covers an empty value and a stored '(not set)', two rows that are one option, so
 * "more options than the bound" is decided on options, exactly.
 */
const OPTION_ROWS_FETCHED = MAX_OPTIONS_PER_FIELD + 2;

/**
 * The search condition on one option: a case-insensitive substring (positionCaseInsensitiveUTF8, so `%`,
 * `_` and every other character are literal), the text travelling as the `{search:String}` parameter.
 */
function contains(expression: string, search: string): string {
  return `positionCaseInsensitiveUTF8(${expression}, ${search}) > 0`;
}

/** How one /filters field is listed: the values of a column, or the keys of a map (mapColumn: the question's). */
type OptionSource = { kind: 'column'; column: string; target: FilterTarget } | { kind: 'mapKeys'; target: MapDimensionKind };

/** Every /filters field with the filter it must leave out when its own options are computed. */
export const OPTION_SOURCES: Record<OptionsField, OptionSource> = Object.fromEntries([
  ...DIMENSIONS.map((dimension) => {
    const { column, filterField, optionsField } = COLUMN_DIMENSIONS[dimension];
    return [optionsField, { kind: 'column', column, target: filterField }];
  }),
  ...(Object.keys(MAP_DIMENSIONS) as MapDimensionKind[]).map((kind) => [
    MAP_DIMENSIONS[kind].optionsField,
    { kind: 'mapKeys', target: kind },
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
  /**
   * Lists only the options that contain this text, case-insensitively (accounts: in the ID or the name;
   * resourceTags and costCategories: in the key; tagValues: the values of the listed keys). Absent or '': all.
   */
  search?: string;
  /** The conversion into the currency whose amounts rank the options; absent when every row is in it. */
  conversion?: CurrencyConversion;
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
 * of the most expensive tag keys when resourceTags is requested; the plain column fields share one read
 * (foldedColumnOptionsSql). Every list ranks by amortized cost and is bounded, so the answer stays small
 * however wide the estate.
 */
export function buildFilterOptionsQuery(input: FilterOptionsQueryInput): CompiledSql {
  if (input.fields.length === 0) throw new Error('buildFilterOptionsQuery needs at least one field');
  const params = new SqlParameters();
  // The branches listing map keys read the full maps, their filters too: a branch reading both kinds of map would
  // leave no projection able to answer it (the activated maps hold the same values for active keys).
  const fullMaps: OrganizationScope = { ...input.scope, readsActivatedMaps: false };
  const whereFor = (target: FilterTarget | FilterTarget[], scope = input.scope) =>
    compileWhere(scope, input.filters, params, {
      today: input.today,
      defaultWindowDays: input.defaultWindowDays,
      omit: target,
    });
  const search = input.search ? params.named('search', 'String', input.search) : undefined;
  const notSet = () => params.named('not_set', 'String', NOT_SET);
  const money = new MoneySql(input.conversion, params);

  const folded = input.fields.filter(isFoldable);
  const readApart = folded.length < 2 ? input.fields : input.fields.filter((field) => !isFoldable(field));
  const branches = readApart.map((field) => {
    const source = OPTION_SOURCES[field];
    if (!source) throw new Error(`Unknown filter options field: ${field}`);
    return source.kind === 'column'
      ? columnOptionsSql(
          field,
          source.column,
          whereFor(source.target),
          input.table,
          money,
          search ? { search, notSet: notSet() } : undefined,
        )
      : // The keys of the full maps, rule-defined categories computed (they are keys of the map too).
        mapKeyOptionsSql(field, mapColumn(source.target, fullMaps, params), whereFor(source.target, fullMaps), input.table, money, search);
  });
  if (input.fields.includes(MAP_DIMENSIONS.tag.optionsField)) {
    branches.push(tagValuesSql(whereFor('tag', fullMaps), input.table, money, search));
  }
  if (readApart.length < input.fields.length) {
    const ownFilter = (target: FilterTarget) => targetCondition(input.scope, input.filters, params, target);
    const where = whereFor(folded.map((field) => OPTION_SOURCES[field].target));
    branches.push(foldedColumnOptionsSql(folded, where, ownFilter, input.table, money, search ? { search, notSet: notSet() } : undefined));
  }
  // Each branch names its own projection: its grain and maps differ from its neighbours'.
  const sql = branches.map((branch) => `(${withProjectionPreference(branch)})`).join('\nUNION ALL\n');
  return { sql, params: params.toObject() };
}

// Field names are registry constants (checked against OPTIONS_FIELDS), never request text.
function fieldLiteral(field: string): string {
  if (!/^[A-Za-z]+$/.test(field)) throw new Error(`Unexpected field name: ${field}`);
  return `'${field}'`;
}

/** The placeholders of a search on a column: the text, and NOT_SET (an empty value is listed, and so matched, as it). */
interface ColumnSearch {
  search: string;
  notSet: string;
}

function columnOptionsSql(
  field: OptionsField,
  column: string,
  where: string,
  table: string,
  money: MoneySql,
  search?: ColumnSearch,
): string {
  // The option as listed: an empty value is NOT_SET.
  const listed = search && contains(`if(value = '', ${search.notSet}, value)`, search.search);
  if (field === 'accounts')
    return accountOptionsSql(column, where, table, money, listed ? `${listed} OR ${contains('name', search.search)}` : undefined);
  return optionsBranchSql(field, `toString(${column})`, table, money, listed ? `${where}\n  AND ${listed}` : where);
}

/**
 * Column fields listed together by foldedColumnOptionsSql: all but accounts (summed by day for their names) and
 * billingPeriods (whose filter also decides the date window, resolveDateRange).
 */
function isFoldable(field: OptionsField): boolean {
  const source = OPTION_SOURCES[field];
  return source?.kind === 'column' && field !== 'accounts' && source.target !== 'billingPeriods';
}

/**
 * The options of several column fields from one read, as their own branches would list them: the rows under the
 * filters of none of those fields (`where`) summed per combination of their columns, then each combination counted
 * for each field whose cross-filter it passes — the other fields' own filters (`ownFilter`), a function of the
 * grouped columns — and whose search it matches. Each statement read costs its planning (the projections' parts
 * analysed) and its reading: one read instead of one per field (the bench's /filters of five fields 57 → 32 ms).
 */
function foldedColumnOptionsSql(
  fields: OptionsField[],
  where: string,
  ownFilter: (target: FilterTarget) => string | undefined,
  table: string,
  money: MoneySql,
  search?: ColumnSearch,
): string {
  const sources = fields.map((field) => ({ field, ...(OPTION_SOURCES[field] as { column: string; target: FilterTarget }) }));
  const filters = new Map(sources.map(({ target }) => [target, ownFilter(target)]));
  const columns = sources.map(({ column }) => column);
  const perCombination = money.select((branch, and) =>
    [
      `SELECT ${columns.join(', ')}, ${branch.sums(['amortized_cost'])[0]} AS part`,
      `FROM ${table}`,
      `WHERE ${and(where)}`,
      `GROUP BY ${[...columns, ...branch.groupKeys].join(', ')}`,
    ].join('\n'),
  );
  const options = sources.map(({ field, column, target }) => {
    const value = `toString(${column})`;
    const crossFilters = sources.filter((other) => other.target !== target).map((other) => filters.get(other.target));
    const listed = search ? [contains(`if(${value} = '', ${search.notSet}, ${value})`, search.search)] : [];
    const conditions = [...crossFilters, ...listed].filter((condition): condition is string => condition !== undefined);
    const passes = conditions.length > 0 ? conditions.map((condition) => `(${condition})`).join(' AND ') : '1';
    return `(${fieldLiteral(field)}, ${value}, ${passes})`;
  });
  return [
    `SELECT option.1 AS field, option.2 AS value, '' AS name, ${money.total('sum(part)')} AS sum_amortized_cost`,
    `FROM (${perCombination})`,
    `ARRAY JOIN arrayFilter(option -> option.3, [${options.join(', ')}]) AS option`,
    'GROUP BY field, value',
    'ORDER BY field, sum_amortized_cost DESC, value',
    `LIMIT ${OPTION_ROWS_FETCHED} BY field`,
  ].join('\n');
}

/**
 * Accounts with their latest non-empty name (accounts can be renamed). The rows are summed per (account, day, name)
 * first — keys of the daily aggregate projections, so ClickHouse answers it from one of them — then per account,
 * taking the name of its latest day. An account matches a search by its ID or that name, known once grouped.
 */
function accountOptionsSql(column: string, where: string, table: string, money: MoneySql, searched?: string): string {
  const perDay = money.select((branch, and) =>
    [
      `SELECT ${column} AS account_part, usage_date AS day_part, account_name AS name_part, ${branch.sums(['amortized_cost'])[0]} AS day_cost`,
      `  FROM ${table} WHERE ${and(where)} GROUP BY ${['account_part', 'day_part', 'name_part', ...branch.groupKeys].join(', ')}`,
    ].join('\n'),
  );
  return [
    `SELECT ${fieldLiteral('accounts')} AS field, toString(account_part) AS value, argMaxIf(name_part, day_part, name_part != '') AS name,`,
    `  ${money.total('sum(day_cost)')} AS sum_amortized_cost`,
    `FROM (${perDay})`,
    'GROUP BY value',
    ...(searched ? [`HAVING ${searched}`] : []),
    'ORDER BY sum_amortized_cost DESC, value',
    `LIMIT ${OPTION_ROWS_FETCHED}`,
  ].join('\n');
}

/**
 * The keys of a map column with their cost. The rows are summed per distinct map first — an aggregation the
 * tag projections (migration 0015) answer — and only then split into keys: each map's cost counts once for each of
 * its keys, as each row's would (exact Decimal sums, so the order of the additions changes no digit).
 */
function mapKeyOptionsSql(field: OptionsField, column: string, where: string, table: string, money: MoneySql, search?: string): string {
  return [
    `SELECT ${fieldLiteral(field)} AS field, map_key AS value, '' AS name, ${money.total('sum(map_cost)')} AS sum_amortized_cost`,
    `FROM (${costPerMapSql(column, where, table, money)})`,
    `ARRAY JOIN ${nonEmptyKeys('map_part', search)} AS map_key`,
    'GROUP BY value',
    'ORDER BY sum_amortized_cost DESC, value',
    `LIMIT ${OPTION_ROWS_FETCHED}`,
  ].join('\n');
}

/**
 * Each distinct map of `column` (as `map_part`) with the amortized cost of its rows (`map_cost`); converting, one row
 * per map and (currency, day or period), each in the answer's currency.
 */
function costPerMapSql(column: string, where: string, table: string, money: MoneySql): string {
  return money.select((branch, and) => {
    const keys = [column, ...branch.groupKeys].join(', ');
    return `SELECT ${column} AS map_part, ${branch.sums(['amortized_cost'])[0]} AS map_cost FROM ${table} WHERE ${and(where)} GROUP BY ${keys}`;
  });
}

/** The non-empty keys of a map (that contain the search, if any). */
function nonEmptyKeys(map: string, search?: string): string {
  const condition = search ? `map_key != '' AND ${contains('map_key', search)}` : "map_key != ''";
  return `arrayFilter(map_key -> ${condition}, mapKeys(${map}))`;
}

/**
 * One UNION ALL branch: the field's values with their cost, most expensive first, bounded (OPTION_ROWS_FETCHED).
 * Converting, the costs are summed per value and (currency, day or period) first, then per value.
 */
function optionsBranchSql(field: OptionsField, value: string, table: string, money: MoneySql, where: string): string {
  const head = `SELECT ${fieldLiteral(field)} AS field, ${value} AS value, '' AS name`;
  const from = [`FROM ${table}`, `WHERE ${where}`];
  const ranked = ['GROUP BY value', 'ORDER BY sum_amortized_cost DESC, value', `LIMIT ${OPTION_ROWS_FETCHED}`];
  if (!money.conversion) return [`${head}, sum(amortized_cost) AS sum_amortized_cost`, ...from, ...ranked].join('\n');
  const perRate = money.select((branch, and) =>
    [
      `SELECT ${value} AS value, ${branch.sums(['amortized_cost'])[0]} AS part`,
      `FROM ${table}`,
      `WHERE ${and(where)}`,
      `GROUP BY ${['value', ...branch.groupKeys].join(', ')}`,
    ].join('\n'),
  );
  return [
    `SELECT ${fieldLiteral(field)} AS field, value, '' AS name, ${money.total('sum(part)')} AS sum_amortized_cost`,
    `FROM (${perRate})`,
    ...ranked,
  ].join('\n');
}

/**
 * Values of the MAX_TAG_VALUE_KEYS most expensive tag keys (the same ranking as the resourceTags branch, the
 * same search on keys), MAX_VALUES_PER_TAG_KEY most expensive values each, plus one that tells a cut list;
 * empty values are left out. Same filters as resourceTags: everything but the tag filter itself.
 */
function tagValuesSql(where: string, table: string, money: MoneySql, search?: string): string {
  const perMap = costPerMapSql(MAP_DIMENSIONS.tag.column, where, table, money);
  const topKeys = [
    'SELECT top_key',
    `FROM (${perMap})`,
    `ARRAY JOIN ${nonEmptyKeys('map_part', search)} AS top_key`,
    'GROUP BY top_key',
    'ORDER BY sum(map_cost) DESC, top_key',
    `LIMIT ${MAX_TAG_VALUE_KEYS}`,
  ].join('\n');
  return [
    `SELECT ${fieldLiteral(TAG_VALUES_ROW)} AS field, tag_value AS value, tag_key AS name, sum(map_cost) AS sum_amortized_cost`,
    `FROM (${perMap})`,
    'ARRAY JOIN mapKeys(map_part) AS tag_key, mapValues(map_part) AS tag_value',
    "WHERE tag_value != ''",
    `  AND tag_key IN (${topKeys})`,
    'GROUP BY tag_key, tag_value',
    'ORDER BY tag_key, sum_amortized_cost DESC, tag_value',
    `LIMIT ${MAX_VALUES_PER_TAG_KEY + 1} BY tag_key`,
  ].join('\n');
}

/** One option with its amortized cost under the request's filters (minus the field's own filter). */
export interface EnrichedOption {
  value: string;
  amortized_cost: number;
  /** Accounts only: the account's name. */
  name?: string;
}

/** A /filters list a bound can cut: an option field, or tagValues (its tag keys). */
export type TruncatableList = OptionsField | typeof TAG_VALUES_ROW;

export interface FilterOptions extends Record<OptionsField, string[]> {
  accountIdToName: Record<string, string>;
  tagValues: Record<string, string[]>;
  enriched: Partial<Record<OptionsField, EnrichedOption[]>>;
  /**
   * The lists a bound cut, in response order: a field with more than MAX_OPTIONS_PER_FIELD options, and
   * tagValues when there are more than MAX_TAG_VALUE_KEYS tag keys. Present only when a bound cut.
   */
  truncated?: TruncatableList[];
  /** The tagValues keys with more than MAX_VALUES_PER_TAG_KEY values, ascending. Present only when there are some. */
  truncatedTagValues?: string[];
}

/** Highest amortized cost first, then by value: how every bound picks what it keeps. */
function byCostThenValue(a: { value: string; amortized_cost: number }, b: { value: string; amortized_cost: number }): number {
  return b.amortized_cost - a.amortized_cost || compareCodePoints(a.value, b.value);
}

/**
 * Assembles the /filters payload. Every field is present (empty when not requested); `enriched` holds
 * the requested fields only. Option lists sort ascending by code point, enriched lists by cost (highest
 * first) then value. An empty column value is reported as NOT_SET. A list with more options than its bound
 * keeps the most expensive ones and is named in `truncated` (the rows hold one more than each bound).
 */
export function readFilterOptions(rows: FilterOptionRow[], fields: OptionsField[]): FilterOptions {
  const options = Object.fromEntries(OPTIONS_FIELDS.map((field) => [field, []])) as unknown as FilterOptions;
  options.accountIdToName = {};
  options.tagValues = {};
  options.enriched = {};

  const byField = new Map<string, Map<string, EnrichedOption>>();
  const tagValues = new Map<string, { value: string; amortized_cost: number }[]>();
  for (const row of rows) {
    const cost = finiteNumber(row.sum_amortized_cost);
    if (row.field === TAG_VALUES_ROW) {
      const values = tagValues.get(row.name) ?? [];
      values.push({ value: row.value, amortized_cost: cost });
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

  const truncated: TruncatableList[] = [];
  for (const field of fields) {
    const entries = [...(byField.get(field)?.values() ?? [])].sort(byCostThenValue);
    if (entries.length > MAX_OPTIONS_PER_FIELD) {
      entries.length = MAX_OPTIONS_PER_FIELD;
      truncated.push(field);
    }
    options[field] = entries.map((entry) => entry.value).sort(compareCodePoints);
    options.enriched[field] = entries;
    if (field === 'accounts') {
      for (const entry of entries) options.accountIdToName[entry.value] = entry.name ?? '';
    }
  }
  if (fields.includes(MAP_DIMENSIONS.tag.optionsField)) {
    const listedKeys = new Set(options.resourceTags);
    // tagValues covers the most expensive keys of resourceTags (same filters, same ranking): cut when it lists more.
    if (listedKeys.size > MAX_TAG_VALUE_KEYS) truncated.push(TAG_VALUES_ROW);
    const cutKeys: string[] = [];
    for (const key of [...tagValues.keys()].sort(compareCodePoints)) {
      if (!listedKeys.has(key)) continue;
      const values = tagValues.get(key)!.sort(byCostThenValue);
      if (values.length > MAX_VALUES_PER_TAG_KEY) {
        values.length = MAX_VALUES_PER_TAG_KEY;
        cutKeys.push(key);
      }
      options.tagValues[key] = values.map((entry) => entry.value).sort(compareCodePoints);
    }
    if (cutKeys.length > 0) options.truncatedTagValues = cutKeys;
  }
  if (truncated.length > 0) options.truncated = truncated;
  return options;
}

export interface MapKeyValuesQueryInput {
  scope: OrganizationScope;
  kind: MapDimensionKind;
  key: string;
  table: string;
  /** Only the values that contain this text, case-insensitively. Absent or '': all. */
  search?: string;
  /**
   * A page: the values after `after` (byte order, exclusive), ascending, at most `limit` (1 to
   * MAX_MAP_KEY_VALUES). Absent: the MAX_MAP_KEY_VALUES most expensive values (the unpaged answer).
   */
  page?: MapKeyValuesPage;
}

export interface MapKeyValuesPage {
  limit: number;
  after?: string;
}

/**
 * The distinct non-empty values of one tag or cost-category key in the organisation, over all time (a
 * value picker must see every value, not only recent ones), optionally those containing a search text.
 * Unpaged: the MAX_MAP_KEY_VALUES most expensive ones (the caller sorts them); paged: the next `limit` in
 * byte order after the last one seen (keyset paging: one statement per page, never a repeat). Either way
 * one row more than returned is fetched, to tell a cut list.
 */
export function buildMapKeyValuesQuery(input: MapKeyValuesQueryInput): CompiledSql {
  if (!input.scope?.organizationId) throw new Error('buildMapKeyValuesQuery requires an organisation scope');
  const { page } = input;
  if (page && !(Number.isInteger(page.limit) && page.limit >= 1 && page.limit <= MAX_MAP_KEY_VALUES)) {
    throw new Error(`buildMapKeyValuesQuery: page limit must be an integer from 1 to ${MAX_MAP_KEY_VALUES}`);
  }
  const params = new SqlParameters();
  const column = mapColumn(input.kind, input.scope, params);
  const organization = params.named('organization_id', 'UUID', input.scope.organizationId);
  const key = params.add('String', input.key);
  const conditions = [`organization_id = ${organization}`, ...dataScopeConditions(input.scope, params), "map_value != ''"];
  if (input.search) conditions.push(contains('map_value', params.named('search', 'String', input.search)));
  if (page?.after !== undefined) conditions.push(`map_value > ${params.add('String', page.after)}`);
  const sql = [
    `SELECT ${column}[${key}] AS map_value`,
    `FROM ${input.table}`,
    `WHERE ${conditions.join('\n  AND ')}`,
    'GROUP BY map_value',
    page ? 'ORDER BY map_value' : 'ORDER BY sum(amortized_cost) DESC, map_value',
    `LIMIT ${(page?.limit ?? MAX_MAP_KEY_VALUES) + 1}`,
  ].join('\n');
  return { sql: withProjectionPreference(sql), params: params.toObject() };
}

/**
 * The values of a buildMapKeyValuesQuery answer, ascending, and whether there were more than the query
 * returns (`more`: unpaged, the cheapest were cut; paged, another page follows).
 */
export function readMapKeyValues(
  rows: { map_value: string }[],
  page?: Pick<MapKeyValuesPage, 'limit'>,
): { values: string[]; more: boolean } {
  const bound = page?.limit ?? MAX_MAP_KEY_VALUES;
  // Rows arrive in the query's order: the most expensive first, or (paged) ascending.
  const kept = rows.slice(0, bound).map((row) => row.map_value);
  return { values: kept.sort(compareCodePoints), more: rows.length > bound };
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
