import { ActivatedKeys, mapKeysNamed } from './activated-maps';
import { withProjectionPreference } from './projection-preference';
import { addDays, dayNumber, formatDayNumber, isoWeekday } from '../common/dates/calendar-date';
import { dimensionValueSql } from './cost-data.query';
import { CurrencyConversion, MoneySql } from './currency-conversion';
import { COLUMN_DIMENSIONS, DimensionRef } from './dimension-registry';
import { compileWhere } from './filter-compiler';
import { MAP_DIMENSIONS } from './filter-fields';
import { Filters, OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';

/** The columns an anomaly's root causes are looked for in (besides tags: ROOT_CAUSE_TAG_SOURCES), by their dimension names. */
export const ROOT_CAUSE_DIMENSIONS = ['account', 'service', 'region', 'usageType'] as const;

/**
 * The tags root causes are looked for in: every key (the full maps), or the organisation's activated keys (the
 * activated maps, whose projections hold a row per combination of those keys rather than per resource).
 */
export const ROOT_CAUSE_TAG_SOURCES = ['activated', 'all'] as const;
export type RootCauseTagSource = (typeof ROOT_CAUSE_TAG_SOURCES)[number];

/** Where a scan's root causes look for tags, and the scope their statement reads in. */
export interface RootCauseTags {
  source: RootCauseTagSource;
  scope: OrganizationScope;
}

/**
 * The tags of a scan's root causes: as requested, else the organisation's activated keys when it has some and every
 * key the question names (filters, data scope, monitored dimension) is active — the keys it said its questions group
 * by, read from projections of a row per combination of them — else every key. The statement's filters read the
 * activated maps only where its causes do and every key they name is active (one projection can then answer it).
 */
export function rootCauseTagsFor(
  requested: RootCauseTagSource | undefined,
  active: ActivatedKeys,
  scope: OrganizationScope,
  filters: Filters,
  monitored: DimensionRef,
): RootCauseTags {
  const namedActive = mapKeysNamed(scope, filters, [monitored]).every((ref) => active[ref.kind].includes(ref.key));
  const source = requested ?? (active.tag.length > 0 && namedActive ? 'activated' : 'all');
  const readsActivatedMaps = source === 'activated' && namedActive;
  return { source, scope: { ...scope, readsActivatedMaps } };
}

/** One anomaly whose causes are looked for: its series and its days. */
export interface AnomalyWindow {
  /** The monitored dimension's value; absent for the series of the values not monitored on their own. */
  value?: string;
  start: string;
  end: string;
}

export interface RootCausesQuery {
  scope: OrganizationScope;
  /** Filters without dates: the windows set them. */
  filters: Filters;
  monitored: DimensionRef;
  /** The values with a series of their own; the remaining series is every other value. */
  monitoredValues: readonly string[];
  anomalies: AnomalyWindow[];
  /** Weeks before an anomaly its baseline days are taken from (the same weekdays as its days). */
  baselineWeeks: number;
  /** Charge categories left out, as from the series the anomalies were found in. */
  leftOutCategories: readonly string[];
  /** Where tag causes come from; `activated` reads the activated maps, the scope says where its filters read. */
  tagSource: RootCauseTagSource;
  conversion?: CurrencyConversion;
}

/**
 * One row per (anomaly, candidate dimension and value): `anomaly` (1-based, in `anomalies` order), `cause_dimension`
 * (`account`, `service`, `region`, `usageType` or `tag:<key>`; a monitored value's own dimension left out), `cause_value`, and the
 * amounts (exact, rounded once) over the anomaly's days (`actual`) and over its baseline days (`baseline`): the days of
 * the `baselineWeeks` weeks before it on the anomaly's weekdays, each counted as often as the anomaly has that weekday
 * — so `baseline / baselineWeeks` is what the anomaly's days usually amount to, weekly pattern included. The rows of
 * the anomalies' series and days (only those: a set lookup per row, see `windowRows`) are first summed per day and
 * candidate columns (the shape the tag projections keep), then spread over the anomalies covering them and their
 * candidate causes (ARRAY JOIN after the aggregation: before it, no projection could answer). Reading the tag maps
 * is most of the statement's time, so the fewer days read, the better: a week's weekday rather than every day.
 */
export function buildRootCausesQuery(table: string, query: RootCausesQuery): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params);
  const windows = query.anomalies.map((anomaly) => withBaseline(anomaly, query.baselineWeeks));
  const first = windows.map((w) => w.baselineStart).sort()[0];
  const last = windows.map((w) => w.end).sort()[windows.length - 1];
  const filters = { ...query.filters, inclusions: { ...query.filters.inclusions, dateRange: { start: first, end: last } } };
  const where = compileWhere(query.scope, filters, params, { today: last, defaultWindowDays: 1 });
  const leftOut = `charge_category NOT IN ${params.named('left_out_categories', 'Array(String)', query.leftOutCategories)}`;
  const monitoredValues = params.named('monitored_values', 'Array(String)', query.monitoredValues);
  const column = (name: string, type: string, of: (w: BaselinedWindow) => unknown) => params.named(name, type, windows.map(of));
  const values = column('anomaly_values', 'Array(String)', (w) => w.value ?? '');
  const isOther = column('anomaly_is_other', 'Array(UInt8)', (w) => (w.value === undefined ? 1 : 0));
  const baselineStarts = column('anomaly_baseline_starts', 'Array(Date)', (w) => w.baselineStart);
  const starts = column('anomaly_starts', 'Array(Date)', (w) => w.start);
  const ends = column('anomaly_ends', 'Array(Date)', (w) => w.end);
  const weights = column('anomaly_weekday_days', 'Array(Array(UInt8))', (w) => w.weekdayDays);
  const weightOf = (anomaly: string) => `${weights}[${anomaly}][toDayOfWeek(usage_date)]`;
  const inSeries = `if(${isOther}[i] = 1, NOT has(${monitoredValues}, value), value = ${values}[i])`;
  const inDays = `usage_date >= ${starts}[i] AND usage_date <= ${ends}[i]`;
  const inBaseline = `usage_date >= ${baselineStarts}[i] AND usage_date < ${starts}[i] AND ${weightOf('i')} > 0`;
  const covering = `arrayFilter(i -> ${inSeries} AND (${inDays} OR ${inBaseline}), range(1, ${windows.length + 1}))`;
  const tags = query.tagSource === 'activated' ? MAP_DIMENSIONS.tag.activatedColumn : MAP_DIMENSIONS.tag.column;
  const keys = ['usage_date', 'value', ...CAUSE_COLUMNS.map((column) => column.column), tags];
  const grouped = money.select((branch, and) => {
    const [amount] = branch.sums(['amortized_cost']);
    return [
      `    SELECT usage_date, ${dimensionValueSql(query.monitored, params, query.scope)} AS value, ${keys.slice(2).join(', ')}, ${amount} AS part`,
      `    FROM ${table}`,
      `    WHERE ${and(`${where}\n  AND ${leftOut}\n  AND ${windowRows(windows, monitoredValues, params)}`).replace(/\n/g, '\n    ')}`,
      `    GROUP BY ${[...keys, ...branch.groupKeys].join(', ')}`,
    ].join('\n');
  });
  const sql = [
    'SELECT anomaly, cause.1 AS cause_dimension, cause.2 AS cause_value,',
    `  toString(${money.total('sumIf(part, in_anomaly)')}) AS actual,`,
    `  toString(${money.total('sumIf(part * weight, NOT in_anomaly)')}) AS baseline`,
    'FROM (',
    `  SELECT anomaly, cause, usage_date >= ${starts}[anomaly] AS in_anomaly, ${weightOf('anomaly')} AS weight, part`,
    '  FROM (',
    grouped,
    '  )',
    `  ARRAY JOIN ${covering} AS anomaly`,
    `  ARRAY JOIN ${causesSql(query.monitored, tags, isOther, params)} AS cause`,
    ')',
    'GROUP BY anomaly, cause',
    'ORDER BY anomaly, cause_dimension, cause_value',
  ].join('\n');
  return { sql: withProjectionPreference(sql), params: params.toObject() };
}

/** An anomaly with its baseline: from `baselineStart`, the days whose ISO weekday (isoWeekday) has a count in `weekdayDays`. */
interface BaselinedWindow extends AnomalyWindow {
  baselineStart: string;
  /** Per ISO weekday (index 0 = Monday), how many of the anomaly's days fall on it. */
  weekdayDays: number[];
}

function withBaseline(window: AnomalyWindow, weeks: number): BaselinedWindow {
  const weekdayDays = [0, 0, 0, 0, 0, 0, 0];
  for (let day = dayNumber(window.start); day <= dayNumber(window.end); day++) weekdayDays[isoWeekday(day) - 1]++;
  return { ...window, baselineStart: addDays(window.start, -7 * weeks), weekdayDays };
}

/** A window's days read: its baseline days and its own, oldest first. */
function daysRead(window: BaselinedWindow): string[] {
  const days: string[] = [];
  for (let day = dayNumber(window.baselineStart); day <= dayNumber(window.end); day++) {
    if (day >= dayNumber(window.start) || window.weekdayDays[isoWeekday(day) - 1] > 0) days.push(formatDayNumber(day));
  }
  return days;
}

/**
 * The rows some window covers, as set lookups: (value, day) pairs of the monitored values' windows, days of the
 * remaining series' windows. Exact, and per row a hash lookup where testing each window costs the anomalies' number
 * of comparisons (at 10M line items and 28 anomalies, most of the statement's time); the days also narrow the read.
 */
function windowRows(windows: BaselinedWindow[], monitoredValues: string, params: SqlParameters): string {
  const pairs: Array<[string, string]> = [];
  const otherDays = new Set<string>();
  const seen = new Set<string>();
  for (const window of windows) {
    for (const day of daysRead(window)) {
      if (window.value === undefined) otherDays.add(day);
      else if (!seen.has(`${window.value}\n${day}`)) pairs.push([window.value, day]);
      seen.add(`${window.value}\n${day}`);
    }
  }
  const allDays = [...new Set([...pairs.map(([, day]) => day), ...otherDays])].sort();
  const conditions = [];
  if (pairs.length > 0) {
    const pairValues = params.named(
      'window_pair_values',
      'Array(String)',
      pairs.map(([value]) => value),
    );
    const pairDays = params.named(
      'window_pair_days',
      'Array(Date)',
      pairs.map(([, day]) => day),
    );
    conditions.push(`(value, usage_date) IN arrayZip(${pairValues}, ${pairDays})`);
  }
  if (otherDays.size > 0) {
    const days = params.named('other_window_days', 'Array(Date)', [...otherDays].sort());
    conditions.push(`(usage_date IN ${days} AND NOT has(${monitoredValues}, value))`);
  }
  return `usage_date IN ${params.named('window_days', 'Array(Date)', allDays)} AND (${conditions.join(' OR ')})`;
}

/** The candidate columns, by dimension name. */
const CAUSE_COLUMNS = ROOT_CAUSE_DIMENSIONS.map((name) => ({ name, column: COLUMN_DIMENSIONS[name].column }));

/**
 * Every (dimension, value) of a row a cause may be for `anomaly`: the candidate columns and each tag of `tags` (a map
 * column). A monitored value's own dimension is its series, not a cause; for the remaining series, the value that moved is one.
 */
function causesSql(monitored: DimensionRef, tags: string, isOther: string, params: SqlParameters): string {
  const columns = CAUSE_COLUMNS.map(({ name, column }) => `('${name}', ${column})`);
  const tagCauses = `arrayMap((key, value) -> (concat('tag:', key), value), mapKeys(${tags}), mapValues(${tags}))`;
  const own = monitored.kind === 'column' ? monitored.name : monitored.kind === 'tag' ? `tag:${monitored.key}` : '';
  const notOwn = `(${isOther}[anomaly] = 1 OR cause.1 != ${params.named('monitored_cause', 'String', own)})`;
  return `arrayFilter(cause -> cause.2 != '' AND ${notOwn}, arrayConcat([${columns.join(', ')}], ${tagCauses}))`;
}
