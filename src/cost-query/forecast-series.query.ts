import { withProjectionPreference } from './projection-preference';
import { dimensionValueSql } from './cost-data.query';
import { CurrencyConversion, MoneySql } from './currency-conversion';
import { DimensionRef } from './dimension-registry';
import { compileWhere } from './filter-compiler';
import { DateRange, Filters, OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';

/** The money columns a forecast can follow. */
export const FORECAST_METRICS = ['amortized_cost', 'billed_cost', 'cash_cost', 'on_demand_cost'] as const;
export type ForecastMetric = (typeof FORECAST_METRICS)[number];

/**
 * Charge categories left out of a forecast's series: one-off by nature, never extrapolated. Usage and purchases stay
 * (recurring fees land on the first of the month, which the model fits).
 */
export const ONE_OFF_CHARGE_CATEGORIES = ['Tax', 'Credit', 'Adjustment'];

/** What a forecast reads: one metric per day over `window`, per value of the dimension (its top values, the rest as one). */
export interface ForecastSeriesQuery {
  scope: OrganizationScope;
  /** Filters without dates: the window sets them. */
  filters: Filters;
  window: DateRange;
  metric: ForecastMetric;
  dimension?: DimensionRef;
  /** Values of the dimension forecast on their own (ranked by the metric over the window); the others are summed into `otherLabel`. */
  topValues: number;
  otherLabel: string;
  totalLabel: string;
  /** Charge categories kept apart as `one_off` (default ONE_OFF_CHARGE_CATEGORIES). */
  oneOffCategories?: readonly string[];
  conversion?: CurrencyConversion;
}

/** A row of buildForecastSeriesQuery's answer. */
export interface ForecastSeriesRow {
  series: string;
  one_off: number;
  days: number[];
  amounts: string[];
}

/**
 * One row per (series, `one_off`): `series`, `one_off` (the one-off charges left out, apart), and its days with costs
 * as two aligned arrays, oldest first — `days` (day numbers: days since 1970-01-01) and `amounts` (the metric, exact,
 * rounded once). The dimension's values are ranked by their amount over the window (then by value); those past
 * `topValues` are summed into one series. Ranked per value rather than per row, and answered as arrays rather than a
 * row per day: a year of 50 series is tens of thousands of rows, and ranking and sending them took more than reading.
 */
export function buildForecastSeriesQuery(table: string, query: ForecastSeriesQuery): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params);
  const value = query.dimension ? dimensionValueSql(query.dimension, params) : params.named('total_label', 'String', query.totalLabel);
  // The window is the dates: compileWhere's default window never applies (filters without dates, a dateRange given).
  const filters = { ...query.filters, inclusions: { ...query.filters.inclusions, dateRange: query.window } };
  const where = compileWhere(query.scope, filters, params, { today: query.window.end, defaultWindowDays: 1 });
  const oneOff = `charge_category IN ${params.named('one_off_categories', 'Array(String)', query.oneOffCategories ?? ONE_OFF_CHARGE_CATEGORIES)}`;
  const grouped = money.select((branch, and) => {
    const [metric] = branch.sums([query.metric]);
    return [
      `  SELECT usage_date AS day, ${value} AS value, ${oneOff} AS one_off, ${metric} AS part`,
      `  FROM ${table}`,
      `  WHERE ${and(where).replace(/\n/g, '\n  ')}`,
      `  GROUP BY ${['day', 'value', 'one_off', ...branch.groupKeys].join(', ')}`,
    ].join('\n');
  });
  const top = params.named('top_values', 'UInt64', query.topValues);
  const other = params.named('other_label', 'String', query.otherLabel);
  const sql = [
    'SELECT series, one_off, arrayMap(pair -> pair.1, pairs) AS days, arrayMap(pair -> pair.2, pairs) AS amounts',
    'FROM (',
    '  SELECT series, one_off, arraySort(groupArray((toUInt32(day), amount))) AS pairs',
    '  FROM (',
    `    SELECT series, day, one_off, toString(${money.total('sum(part)')}) AS amount`,
    '    FROM (',
    `      SELECT if(dense_rank() OVER (ORDER BY value_total DESC, value) <= ${top}, value, ${other}) AS series, one_off, days, parts`,
    '      FROM (',
    '        SELECT value, one_off, groupArray(day) AS days, groupArray(part) AS parts,',
    '          sum(sum(if(one_off, 0, part))) OVER (PARTITION BY value) AS value_total',
    '        FROM (',
    grouped.replace(/^/gm, '        '),
    '        )',
    '        GROUP BY value, one_off',
    '      )',
    '    )',
    '    ARRAY JOIN days AS day, parts AS part',
    '    GROUP BY series, day, one_off',
    '  )',
    '  GROUP BY series, one_off',
    ')',
    'ORDER BY series, one_off',
  ].join('\n');
  return { sql: withProjectionPreference(sql), params: params.toObject() };
}
