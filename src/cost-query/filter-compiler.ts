import { mapColumn } from './activated-maps';
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
  const conditions: string[] = [];
  for (const [name, field] of FILTER_FIELD_ENTRIES) {
    if (field.kind === 'list') {
      const values = fields[name] as string[] | undefined;
      if (!kept(name as ListFilterField) || !values?.length) continue;
      conditions.push(`${field.column} IN ${params.add('Array(String)', withNotSet(values))}`);
    } else if (field.kind === 'mapKey') {
      const { valuesField } = MAP_DIMENSIONS[field.map];
      const column = maps ? maps.columns[field.map] : mapColumn(field.map, scope, params);
      const key = fields[name] as string | null | undefined;
      // null is unset too: JSON clients, and shared-filter reads, spell an unset key as null.
      if (!kept(field.map) || key === undefined || key === null) continue;
      const keyParam = params.add('String', key);
      const values = fields[valuesField];
      const lowered = maps?.caseInsensitiveTags === true && field.map === 'tag';
      conditions.push(
        !values?.length
          ? `mapContains(${column}, ${keyParam})`
          : lowered
            ? `lower(${column}[${keyParam}]) IN ${params.add(
                'Array(String)',
                withNotSet(values).map((value) => value.toLowerCase()),
              )}`
            : `${column}[${keyParam}] IN ${params.add('Array(String)', withNotSet(values))}`,
      );
    }
  }
  return conditions;
}

/** A missing value is stored as '' (and a Map lookup of an absent key yields ''), so `(not set)` selects ''. */
function withNotSet(values: string[]): string[] {
  return values.includes(NOT_SET) ? [...values, ''] : values;
}
