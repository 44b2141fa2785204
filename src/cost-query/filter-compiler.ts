import { mapColumn } from './activated-maps';
import { CATEGORY_BUILD_PARAMETER } from './category-sums.query';
import { FILTER_FIELD_ENTRIES, ListFilterField, MAP_DIMENSIONS, MapDimensionKind, NOT_SET } from './filter-fields';
import { DateRange, FilterFields, Filters, OrganizationScope } from './filters.types';
import { SqlParameters } from './sql-parameters';
import { addDays, isWholeMonths } from '../common/dates/calendar-date';

/** A filter that cross-filtering can leave out: a list field, or a tag/cost-category key. */
export type FilterTarget = ListFilterField | MapDimensionKind;

export interface WhereOptions {
  /** Today's date (UTC, YYYY-MM-DD); the default window ends on it. */
  today: string;
  /** Length of the window used when neither dateRange nor billingPeriods is given. */
  defaultWindowDays: number;
  /** Leave these fields' own inclusions and exclusions out (the /filters cross-filtering rule). */
  omit?: FilterTarget | readonly FilterTarget[];
}

/**
 * Compiles the organisation scope and Filters into a WHERE clause body.
 *
 * Semantics: inclusion fields AND, values within a field OR; every exclusion field removes the
 * rows matching any of its values; empty arrays are ignored; `(not set)` matches rows without a
 * value. Date ranges include both ends.
 */
export function compileWhere(scope: OrganizationScope, filters: Filters, params: SqlParameters, options: WhereOptions): string {
  if (!scope?.organizationId) throw new Error('compileWhere requires an organisation scope');
  const inclusions = filters.inclusions ?? {};
  const exclusions = filters.exclusions ?? {};
  const kept = (target: FilterTarget) => !omits(options, target);
  const conditions = [
    `organization_id = ${params.named('organization_id', 'UUID', scope.organizationId)}`,
    ...(scope.categorySums ? [`build_id = ${params.named(CATEGORY_BUILD_PARAMETER, 'UUID', scope.categorySums.buildId)}`] : []),
    ...dataScopeConditions(scope, params),
    ...dateWindowConditions(inclusions, params, options),
    ...fieldConditions(inclusions, params, scope, kept),
    ...fieldConditions(exclusions, params, scope, kept).map((condition) => `NOT (${condition})`),
  ];
  if (exclusions.dateRange) conditions.push(`NOT (${dateRangeCondition(exclusions.dateRange, params)})`);
  return conditions.join('\n  AND ');
}

/**
 * One field's own filter (its inclusion and its exclusion) as one condition, or undefined when the request sets
 * neither: what compileWhere leaves out when it omits the field. Its date window never depends on a list field but
 * billingPeriods (resolveDateRange), which is no target here.
 */
export function targetCondition(
  scope: OrganizationScope,
  filters: Filters,
  params: SqlParameters,
  target: FilterTarget,
): string | undefined {
  if (target === 'billingPeriods') throw new Error('billingPeriods also decides the date window: omit it with compileWhere');
  const only = (candidate: FilterTarget) => candidate === target;
  const conditions = [
    ...fieldConditions(filters.inclusions ?? {}, params, scope, only),
    ...fieldConditions(filters.exclusions ?? {}, params, scope, only).map((condition) => `NOT (${condition})`),
  ];
  return conditions.length > 0 ? conditions.join(' AND ') : undefined;
}

function omits(options: WhereOptions, target: FilterTarget): boolean {
  return typeof options.omit === 'string' ? options.omit === target : (options.omit?.includes(target) ?? false);
}

/**
 * The key's data scope as conditions, whatever the request: never left out by cross-filtering (so a
 * /filters list never offers a value outside the scope, its own field's included).
 */
export function dataScopeConditions(scope: OrganizationScope, params: SqlParameters): string[] {
  if (!scope.dataScope) return [];
  return [
    ...fieldConditions(scope.dataScope.inclusions ?? {}, params, scope),
    ...fieldConditions(scope.dataScope.exclusions ?? {}, params, scope).map((condition) => `NOT (${condition})`),
  ];
}

/** The date window of a query: the inclusions' dateRange, else none when billingPeriods narrow it, else the default. */
export function resolveDateRange(inclusions: FilterFields, options: WhereOptions): DateRange | undefined {
  if (inclusions.dateRange) return inclusions.dateRange;
  const billingPeriodsActive = (inclusions.billingPeriods?.length ?? 0) > 0 && !omits(options, 'billingPeriods');
  if (billingPeriodsActive) return undefined;
  return defaultWindow(options.today, options.defaultWindowDays);
}

export function defaultWindow(today: string, days: number): DateRange {
  return { start: addDays(today, -(days - 1)), end: today };
}

function dateWindowConditions(inclusions: FilterFields, params: SqlParameters, options: WhereOptions): string[] {
  const range = resolveDateRange(inclusions, options);
  return range ? [dateRangeCondition(range, params)] : [];
}

/**
 * The scope's data scope and the filters' fields (not their dates, not the organisation) as one condition ('1' when
 * nothing restricts): one question among several a statement reads in one pass (budgets), whose organisation and
 * window the statement's WHERE already holds.
 */
export function filtersCondition(scope: OrganizationScope, filters: Filters, params: SqlParameters): string {
  const conditions = [
    ...dataScopeConditions(scope, params),
    ...fieldConditions(filters.inclusions ?? {}, params, scope),
    ...fieldConditions(filters.exclusions ?? {}, params, scope).map((condition) => `NOT (${condition})`),
  ];
  return conditions.length > 0 ? conditions.join(' AND ') : '1';
}

/**
 * A range of whole calendar months is written on `toStartOfMonth(usage_date)`: the same rows (a day lies
 * in [first day of M1, last day of M2] exactly when its month lies in [M1, M2]), but a condition the
 * monthly aggregate projection (migration 0006) can evaluate, and the primary key still prunes on it.
 */
function dateRangeCondition(range: DateRange, params: SqlParameters): string {
  if (isWholeMonths(range.start, range.end)) {
    const lastMonth = `${range.end.slice(0, 7)}-01`;
    return `toStartOfMonth(usage_date) BETWEEN ${params.add('Date', range.start)} AND ${params.add('Date', lastMonth)}`;
  }
  return `usage_date BETWEEN ${params.add('Date', range.start)} AND ${params.add('Date', range.end)}`;
}

/**
 * How a row's Map attributes are read when a condition is not a question's but a rule's (allocation rules,
 * cost-category-rules.ts): the maps as an expression (the categories computed so far), tag values without case.
 */
export interface RowMaps {
  columns: Record<MapDimensionKind, string>;
  /** Tag values compared lower-cased on both sides. */
  caseInsensitiveTags?: boolean;
}

/**
 * A row matching Filters (without dates: every inclusion field, no exclusion field) as one condition, or undefined
 * when they restrict nothing: the `when` of an allocation rule, evaluated row by row.
 */
export function rowCondition(filters: Filters, params: SqlParameters, maps: RowMaps): string | undefined {
  const scope: OrganizationScope = { organizationId: '' };
  const conditions = [
    ...fieldConditions(filters.inclusions ?? {}, params, scope, undefined, maps),
    ...fieldConditions(filters.exclusions ?? {}, params, scope, undefined, maps).map((condition) => `NOT (${condition})`),
  ];
  return conditions.length > 0 ? conditions.join(' AND ') : undefined;
}

/**
 * One condition per active field of a FilterFields (in the field table's order) that `kept` keeps, each true when a
 * row matches that field.
 */
function fieldConditions(
  fields: FilterFields,
  params: SqlParameters,
  scope: OrganizationScope,
  kept: (target: FilterTarget) => boolean = () => true,
  maps?: RowMaps,
): string[] {
  return activeFields(fields, maps, kept).map((field) =>
    'values' in field
      ? `${lookupExpression(field, params, scope, maps)} IN ${params.add('Array(String)', field.values)}`
      : `mapContains(${mapSql(field.map, params, scope, maps)}, ${params.add('String', field.key)})`,
  );
}

/**
 * A condition on one field that is true when the row's value there is one of `values`: a list field's column, or a
 * map's value under a key (lower-cased with the values for a case-insensitive rule's tags). `(not set)` is spelled
 * '' too.
 */
export interface FieldLookup {
  field: { column: string } | { map: MapDimensionKind; key: string; lowered: boolean };
  values: string[];
}

/** A map key the row must hold, whatever its value. */
interface KeyPresence {
  map: MapDimensionKind;
  key: string;
}

/** The fields of a FilterFields that restrict rows, in the field table's order, as lookups or key presences. */
function activeFields(
  fields: FilterFields,
  maps: RowMaps | undefined,
  kept: (target: FilterTarget) => boolean = () => true,
): Array<FieldLookup | KeyPresence> {
  return FILTER_FIELD_ENTRIES.flatMap(([name, field]): Array<FieldLookup | KeyPresence> => {
    if (field.kind === 'list') {
      const values = fields[name] as string[] | undefined;
      return kept(name as ListFilterField) && values?.length ? [{ field: { column: field.column }, values: withNotSet(values) }] : [];
    }
    if (field.kind !== 'mapKey') return [];
    const key = fields[name] as string | null | undefined;
    // null is unset too: JSON clients, and shared-filter reads, spell an unset key as null.
    if (!kept(field.map) || key === undefined || key === null) return [];
    const values = fields[MAP_DIMENSIONS[field.map].valuesField];
    if (!values?.length) return [{ map: field.map, key }];
    const lowered = maps?.caseInsensitiveTags === true && field.map === 'tag';
    const spelled = withNotSet(values);
    return [{ field: { map: field.map, key, lowered }, values: lowered ? spelled.map((value) => value.toLowerCase()) : spelled }];
  });
}

/** The value a lookup compares: the column, or the map's value under its key (lower-cased when it says so). */
export function lookupExpression(lookup: FieldLookup, params: SqlParameters, scope: OrganizationScope, maps?: RowMaps): string {
  if ('column' in lookup.field) return lookup.field.column;
  const value = `${mapSql(lookup.field.map, params, scope, maps)}[${params.add('String', lookup.field.key)}]`;
  return lookup.field.lowered ? `lower(${value})` : value;
}

function mapSql(map: MapDimensionKind, params: SqlParameters, scope: OrganizationScope, maps?: RowMaps): string {
  return maps ? maps.columns[map] : mapColumn(map, scope, params);
}

/**
 * Filters (without dates) that restrict rows by one lookup alone, no exclusions: a rule's `when` that a run of rules
 * on the same field can share (cost-category-rules.ts); undefined for any other.
 */
export function onlyLookup(filters: Filters, maps: RowMaps): FieldLookup | undefined {
  const [only, ...more] = activeFields(filters.inclusions ?? {}, maps);
  if (more.length > 0 || activeFields(filters.exclusions ?? {}, maps).length > 0) return undefined;
  return only !== undefined && 'values' in only ? only : undefined;
}

/** A missing value is stored as '' (and a Map lookup of an absent key yields ''), so `(not set)` selects ''. */
function withNotSet(values: string[]): string[] {
  return values.includes(NOT_SET) ? [...values, ''] : values;
}
