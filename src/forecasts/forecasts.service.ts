import { Injectable } from '@nestjs/common';
import { InvalidRequestException } from '../common/errors/api-errors';
import { addDays, dayNumber, formatDayNumber, todayUtc } from '../common/dates/calendar-date';
import { DimensionRef, parseDimension } from '../cost-query/dimension-registry';
import { OrganizationScope } from '../cost-query/filters.types';
import { buildForecastSeriesQuery, ForecastMetric, ForecastSeriesRow } from '../cost-query/forecast-series.query';
import { lastDayOfPeriod } from '../common/money/exchange-rates';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { FORECAST_LIMITS } from './forecast-limits';
import { backtest, Estimate, estimateTotal, fitCalibrated, FORECAST_METHOD, FittedModel } from '../cost-query/forecast-model';
import { ForecastDateGrouping, ForecastRequestDto } from './dto/forecast-request.dto';
import { groupedBy } from '../common/collections/grouped-by';

export interface ForecastSeries {
  dimension_value?: string;
  /** The daily amounts the model was fitted on (one-off charges left out), oldest first. */
  actuals: Array<{ date: string; amount: number }>;
  /** Tax, credits and adjustments over the history: left out of the model (not extrapolated). */
  one_off_total: number;
  points: Array<{ date: string } & Estimate>;
  total: Estimate;
  current_month: { month: string; actual: number } & Estimate;
  accuracy: {
    method: string;
    training_days: number;
    backtest: { origins: number; horizon_days: number; mape: number | null; interval_coverage: number | null };
  };
}

export interface ForecastResult {
  currency: string;
  metric: ForecastMetric;
  date_grouping: ForecastDateGrouping;
  prediction_interval_level: number;
  last_complete_day: string;
  forecast_end: string;
  series: ForecastSeries[];
}

/** A series' rows from the store: its daily amounts and its one-off charges. */
interface SeriesRows {
  amounts: Map<string, number>;
  oneOff: number;
}

/**
 * Forecasts (issue 32): where a metric will land, per day or month up to `forecastEnd`, with prediction intervals and
 * the model's own accuracy on the series' history. The history is the last FORECAST_LIMITS.historyDays complete days
 * (up to yesterday, UTC) of what the filters select, read in one statement (converted into the answer's currency like
 * every money answer); the model is fitted in this process (forecast-model.ts).
 */
@Injectable()
export class ForecastsService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly currencies: AnswerCurrencyService,
  ) {}

  async forecast(scope: OrganizationScope, request: ForecastRequestDto, today = todayUtc()): Promise<ForecastResult> {
    const lastComplete = addDays(today, -1);
    const dateGrouping = request.dateGrouping ?? 'daily';
    const level = request.predictionIntervalLevel ?? FORECAST_LIMITS.defaultLevel;
    refuseOutOfReachEnd(request.forecastEnd, lastComplete, dateGrouping);
    const window = { start: addDays(lastComplete, -(FORECAST_LIMITS.historyDays - 1)), end: lastComplete };
    const dimensionName = request.groupBy?.dimension ?? undefined;
    const metric = request.metric ?? 'amortized_cost';
    return this.currencies.answer(scope, request.currency, { dateRanges: [window] }, async (money) => {
      const { sql, params } = buildForecastSeriesQuery(costRowsTable(this.clickhouse), {
        scope,
        filters: request.filters ?? {},
        window,
        metric,
        dimension: dimensionName === undefined ? undefined : (parseDimension(dimensionName) as DimensionRef),
        topValues: FORECAST_LIMITS.topValues,
        otherLabel: FORECAST_LIMITS.otherLabel,
        totalLabel: FORECAST_LIMITS.totalLabel,
        conversion: money.conversion,
      });
      const rows = await this.clickhouse.query<ForecastSeriesRow>(sql, params, scope);
      const bySeries = groupRows(rows);
      const firstDay = [...bySeries.values()].flatMap((series) => [...series.amounts.keys()]).sort()[0];
      refuseShortHistory(firstDay, lastComplete);
      const series = [...bySeries]
        .filter(([, rowsOf]) => rowsOf.amounts.size > 0)
        .map(([value, rowsOf]) =>
          forecastSeries(rowsOf, firstDay, lastComplete, request.forecastEnd, dateGrouping, level, dimensionName ? value : undefined),
        );
      return {
        currency: money.currency,
        metric,
        date_grouping: dateGrouping,
        prediction_interval_level: level,
        last_complete_day: lastComplete,
        forecast_end: request.forecastEnd,
        series: orderSeries(series),
      };
    });
  }
}

function refuseOutOfReachEnd(end: string, lastComplete: string, grouping: ForecastDateGrouping): void {
  const maxDays = grouping === 'daily' ? FORECAST_LIMITS.maxDailyDays : FORECAST_LIMITS.maxMonthlyDays;
  const latest = addDays(lastComplete, maxDays);
  if (end <= lastComplete || end > latest) {
    throw new InvalidRequestException([
      `forecastEnd: expected a day after the last complete day ${lastComplete} and at most ${maxDays} days later (${latest}) with ${grouping} points, received ${end}`,
    ]);
  }
}

function refuseShortHistory(firstDay: string | undefined, lastComplete: string): void {
  const days = firstDay ? dayNumber(lastComplete) - dayNumber(firstDay) + 1 : 0;
  if (days >= FORECAST_LIMITS.minHistoryDays) return;
  throw new InvalidRequestException([
    `filters: a forecast needs at least ${FORECAST_LIMITS.minHistoryDays} days of history up to ${lastComplete}; what the filters select has ${days}`,
  ]);
}

function groupRows(rows: ForecastSeriesRow[]): Map<string, SeriesRows> {
  const bySeries = new Map<string, SeriesRows>();
  for (const row of rows) {
    const series = bySeries.get(row.series) ?? { amounts: new Map<string, number>(), oneOff: 0 };
    bySeries.set(row.series, series);
    row.days.forEach((day, i) => {
      if (Number(row.one_off) === 1) series.oneOff += Number(row.amounts[i]);
      else series.amounts.set(formatDayNumber(day), Number(row.amounts[i]));
    });
  }
  return bySeries;
}

/** One series: its zero-filled daily history from `firstDay`, the fitted model, the points, totals and accuracy. */
function forecastSeries(
  rows: SeriesRows,
  firstDay: string,
  lastComplete: string,
  end: string,
  grouping: ForecastDateGrouping,
  level: number,
  dimensionValue: string | undefined,
): ForecastSeries {
  const first = dayNumber(firstDay);
  const values = Array.from({ length: dayNumber(lastComplete) - first + 1 }, (_, i) => rows.amounts.get(formatDayNumber(first + i)) ?? 0);
  const floorAtZero = values.every((value) => value >= 0);
  const model = fitCalibrated(values, first, level);
  const horizon = daysBetween(addDays(lastComplete, 1), end);
  const estimate = (days: number[]) => rounded(estimateTotal(model, days, level, floorAtZero));
  const points =
    grouping === 'daily'
      ? horizon.map((day) => ({ date: formatDayNumber(day), ...estimate([day]) }))
      : byMonth(horizon).map(([month, days]) => ({ date: month, ...estimate(days) }));
  const tested = backtest(values, first, level);
  return {
    ...(dimensionValue === undefined ? {} : { dimension_value: dimensionValue }),
    actuals: values.map((amount, i) => ({ date: formatDayNumber(first + i), amount })),
    one_off_total: round4(rows.oneOff),
    points,
    total: estimate(horizon),
    current_month: currentMonth(model, values, first, lastComplete, level, floorAtZero),
    accuracy: {
      method: FORECAST_METHOD,
      training_days: model.trainingDays,
      backtest: {
        origins: tested.origins,
        horizon_days: tested.horizonDays,
        mape: tested.mape === null ? null : round4(tested.mape),
        interval_coverage: tested.intervalCoverage === null ? null : round4(tested.intervalCoverage),
      },
    },
  };
}

/** The month after the last complete day's: its actuals so far and the forecast of its remaining days. */
function currentMonth(
  model: FittedModel,
  values: number[],
  first: number,
  lastComplete: string,
  level: number,
  floorAtZero: boolean,
): ForecastSeries['current_month'] {
  const today = addDays(lastComplete, 1);
  const month = `${today.slice(0, 7)}-01`;
  const monthEnd = lastDayOfPeriod(today);
  const actual = values.reduce((total, value, i) => (formatDayNumber(first + i) >= month ? total + value : total), 0);
  const rest = estimateTotal(model, daysBetween(today, monthEnd), level, floorAtZero);
  return {
    month: month.slice(0, 7),
    actual: round4(actual),
    ...rounded({ mean: actual + rest.mean, lower: actual + rest.lower, upper: actual + rest.upper }),
  };
}

function daysBetween(start: string, end: string): number[] {
  const [from, to] = [dayNumber(start), dayNumber(end)];
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

function byMonth(days: number[]): Array<[string, number[]]> {
  return [...groupedBy(days, (day) => `${formatDayNumber(day).slice(0, 7)}-01`)];
}

/** Largest forecast total first, the rest of the values last. */
function orderSeries(series: ForecastSeries[]): ForecastSeries[] {
  return [...series].sort(
    (a, b) =>
      Number(a.dimension_value === FORECAST_LIMITS.otherLabel) - Number(b.dimension_value === FORECAST_LIMITS.otherLabel) ||
      b.total.mean - a.total.mean ||
      (a.dimension_value ?? '').localeCompare(b.dimension_value ?? ''),
  );
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000 + 0;
const rounded = (estimate: Estimate): Estimate => ({
  mean: round4(estimate.mean),
  lower: round4(estimate.lower),
  upper: round4(estimate.upper),
});
