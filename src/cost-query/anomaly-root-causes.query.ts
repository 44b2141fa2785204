import { dimensionValueSql } from './cost-data.query';
import { CurrencyConversion, MoneySql } from './currency-conversion';
import { COLUMN_DIMENSIONS, DimensionRef } from './dimension-registry';
import { compileWhere } from './filter-compiler';
import { MAP_DIMENSIONS } from './filter-fields';
import { Filters, OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';

/** The columns an anomaly's root causes are looked for in (besides every tag), by their dimension names. */
export const ROOT_CAUSE_DIMENSIONS = ['account', 'service', 'region', 'usageType'] as const;

/** One anomaly whose causes are looked for: its series, its days and the baseline days before them. */
export interface AnomalyWindow {
  /** The monitored dimension's value; for the series of the remaining values, `otherThan` lists the others. */
  value: string;
  otherThan?: string[];
  baselineStart: string;
  start: string;
  end: string;
}

export interface RootCausesQuery {
  scope: OrganizationScope;
  /** Filters without dates: the windows set them. */
  filters: Filters;
  monitored: DimensionRef;
  anomalies: AnomalyWindow[];
  /** Charge categories left out, as from the series the anomalies were found in. */
  leftOutCategories: readonly string[];
  conversion?: CurrencyConversion;
}

/**
 * One row per (anomaly, candidate dimension and value): `anomaly` (1-based, in `anomalies` order), `cause_dimension`
 * (`account`, `service`, `region`, `usageType` — the monitored one left out — or `tag:<key>`), `cause_value`, and the
 * amounts (exact, rounded once) over the anomaly's days (`actual`) and its baseline days (`baseline`). The rows of the
 * anomalies' series and days (only those) are first summed per day and candidate columns (the shape the tag projections keep),
 * then spread over the anomalies covering them and their candidate causes (ARRAY JOIN after the aggregation: before
 * it, no projection could answer).
 */
export function buildRootCausesQuery(table: string, query: RootCausesQuery): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params);
  const windows = query.anomalies;
  const first = windows.map((w) => w.baselineStart).sort()[0];
  const last = windows.map((w) => w.end).sort()[windows.length - 1];
  const filters = { ...query.filters, inclusions: { ...query.filters.inclusions, dateRange: { start: first, end: last } } };
  const where = compileWhere(query.scope, filters, params, { today: last, defaultWindowDays: 1 });
  const leftOut = `charge_category NOT IN ${params.named('left_out_categories', 'Array(String)', query.leftOutCategories)}`;
  const values = params.named(
    'anomaly_values',
    'Array(String)',
    windows.map((w) => w.value),
  );
  const others = params.named(
    'anomaly_others',
    'Array(Array(String))',
    windows.map((w) => w.otherThan ?? []),
  );
  const isOther = params.named(
    'anomaly_is_other',
    'Array(UInt8)',
    windows.map((w) => (w.otherThan ? 1 : 0)),
  );
  const baselineStarts = params.named(
    'anomaly_baseline_starts',
    'Array(Date)',
    windows.map((w) => w.baselineStart),
  );
  const starts = params.named(
    'anomaly_starts',
    'Array(Date)',
    windows.map((w) => w.start),
  );
  const ends = params.named(
    'anomaly_ends',
    'Array(Date)',
    windows.map((w) => w.end),
  );
  const indexes = `range(1, ${windows.length + 1})`;
  const inWindow = (i: string) => `usage_date >= ${baselineStarts}[${i}] AND usage_date <= ${ends}[${i}]`;
  const inSeries = `if(${isOther}[i] = 1, NOT has(${others}[i], value), value = ${values}[i])`;
  const covering = `arrayFilter(i -> ${inSeries} AND ${inWindow('i')}, ${indexes})`;
  const keys = ['usage_date', 'value', ...CAUSE_COLUMNS.map((column) => column.column), MAP_DIMENSIONS.tag.column];
  const grouped = money.select((branch, and) => {
    const [amount] = branch.sums(['amortized_cost']);
    return [
      `    SELECT usage_date, ${dimensionValueSql(query.monitored, params)} AS value, ${keys.slice(2).join(', ')}, ${amount} AS part`,
      `    FROM ${table}`,
      `    WHERE ${and(`${where}\n  AND ${leftOut}\n  AND notEmpty(${covering})`).replace(/\n/g, '\n    ')}`,
      `    GROUP BY ${[...keys, ...branch.groupKeys].join(', ')}`,
    ].join('\n');
  });
  const sql = [
    'SELECT anomaly, cause.1 AS cause_dimension, cause.2 AS cause_value,',
    `  toString(${money.total('sumIf(part, in_anomaly)')}) AS actual,`,
    `  toString(${money.total('sumIf(part, NOT in_anomaly)')}) AS baseline`,
    'FROM (',
    `  SELECT anomaly, cause, usage_date >= ${starts}[anomaly] AS in_anomaly, part`,
    '  FROM (',
    grouped,
    '  )',
    `  ARRAY JOIN ${covering} AS anomaly`,
    `  ARRAY JOIN ${causesSql(query.monitored, params)} AS cause`,
    ')',
    'GROUP BY anomaly, cause',
    'ORDER BY anomaly, cause_dimension, cause_value',
  ].join('\n');
  return { sql, params: params.toObject() };
}

/** The candidate columns, by dimension name. */
const CAUSE_COLUMNS = ROOT_CAUSE_DIMENSIONS.map((name) => ({ name, column: COLUMN_DIMENSIONS[name].column }));

/** Every (dimension, value) of a row a cause may be: the candidate columns but the monitored one, and each tag. */
function causesSql(monitored: DimensionRef, params: SqlParameters): string {
  const columns = CAUSE_COLUMNS.filter(({ name }) => !(monitored.kind === 'column' && monitored.name === name)).map(
    ({ name, column }) => `('${name}', ${column})`,
  );
  const tags = MAP_DIMENSIONS.tag.column;
  const tagCauses = `arrayMap((key, value) -> (concat('tag:', key), value), mapKeys(${tags}), mapValues(${tags}))`;
  // A monitored tag is the series itself, not a cause.
  const candidates =
    monitored.kind === 'tag'
      ? `arrayFilter(cause -> cause.1 != concat('tag:', ${params.named('monitored_tag', 'String', monitored.key)}), ${tagCauses})`
      : tagCauses;
  return `arrayFilter(cause -> cause.2 != '', arrayConcat([${columns.join(', ')}], ${candidates}))`;
}
