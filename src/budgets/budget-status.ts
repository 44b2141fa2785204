/**
 * A budget's standing from its sums: the current period's actual, pro-rated amount and forecast at period end, each
 * threshold's state, and the past periods; and which alerts the worker fires or withdraws. Pure: the sums come from
 * one batched statement (cost-query/budget-sums.query.ts), the alerts from the store.
 */
import { addDays, dayNumber, formatDayNumber } from '../common/dates/calendar-date';
import { decimalText, fractionHalfUp, scaled } from '../common/money/scaled-decimal';
import { estimateTotal, Estimate, fitCalibrated, MIN_HISTORY_DAYS } from '../cost-query/forecast-model';
import { amountFor, BudgetPeriod, periodContaining, reaches, shiftPeriod, thresholdAmount } from './budget-definition';
import { BudgetDefinition, BudgetThreshold, type AlertEventKind, type StoredAlert } from '../store/repositories/budgets.repository';

/** The interval of the forecast at period end (the forecasts' default level). */
export const BUDGET_FORECAST_LEVEL = 80;

/** What the statements answered for one budget: per usage day (one-off charges apart) and per usage month, in units of 1e-10. */
export interface BudgetSums {
  /** Day → { all: every charge, modelled: charges the forecast extrapolates }. */
  days: Map<string, { all: bigint; modelled: bigint }>;
  /** First day of a month → its amount. */
  months: Map<string, bigint>;
}

export type ThresholdState = 'ok' | 'breached' | 'forecast_breach';

export interface ThresholdStatus extends BudgetThreshold {
  /** percent % of the amount. */
  amount: number;
  state: ThresholdState;
  /** When the worker fired the alert that stands (null: not fired, or not yet evaluated). */
  since: string | null;
  /** Forecast thresholds: the day the actual plus the forecast's mean reaches the threshold (null: not in this period). */
  crossing_date?: string | null;
}

export interface PeriodFigures {
  period: BudgetPeriod;
  /** null: the budget plans no amount for the period. */
  amount: number | null;
  actual: number;
  percent_used: number | null;
}

export interface BudgetStatus extends PeriodFigures {
  /** The actual as exact decimal text (webhook events carry it so). */
  exact_actual: string;
  /** The period before's actual, exact (with a history): what a restatement of it is judged by. */
  exact_previous_actual?: string;
  prorated_amount: number | null;
  forecast: Estimate | null;
  thresholds: ThresholdStatus[];
  history: PeriodFigures[];
}

/** What the standing rests on, exactly: the actual in units and the forecast's days, for the alert decisions. */
interface Standing {
  period: BudgetPeriod;
  amount?: string;
  actual: bigint;
  forecast: Estimate | null;
  crossing: (percent: number) => string | null;
}

/** The standing and its figures, for the period holding `today` and `historyPeriods` before it. */
export function budgetStatus(
  definition: BudgetDefinition,
  sums: BudgetSums,
  today: string,
  alerts: readonly StoredAlert[],
  historyPeriods: number,
): BudgetStatus {
  const standing = currentStanding(definition, sums, today);
  const current = figures(definition, standing.period, standing.actual);
  return {
    ...current,
    exact_actual: decimalText(standing.actual),
    ...(historyPeriods > 0
      ? { exact_previous_actual: decimalText(monthsTotal(sums, shiftPeriod(definition.period, standing.period, -1))) }
      : {}),
    prorated_amount: standing.amount === undefined ? null : prorated(standing.amount, standing.period, today),
    forecast: standing.forecast,
    thresholds: definition.thresholds.map((threshold) => thresholdStatus(threshold, standing, alerts)),
    history: Array.from({ length: historyPeriods }, (_, i) => {
      const period = shiftPeriod(definition.period, standing.period, -(historyPeriods - i));
      return figures(definition, period, monthsTotal(sums, period));
    }),
  };
}

function currentStanding(definition: BudgetDefinition, sums: BudgetSums, today: string): Standing {
  const period = periodContaining(definition.period, today);
  const amount = amountFor(definition.amounts, period);
  const lastComplete = addDays(today, -1);
  const daily = dailyRunningTotals(sums, period, today);
  const actual = daily.at(-1)?.total ?? 0n;
  const throughYesterday = [...daily].reverse().find((day) => day.date <= lastComplete)?.total ?? 0n;
  const model = fittedModel(sums, lastComplete);
  const remaining = Array.from({ length: dayNumber(period.end) - dayNumber(today) + 1 }, (_, i) => dayNumber(today) + i);
  const base = Number(decimalText(throughYesterday));
  const forecast = model ? shifted(estimateTotal(model.fitted, remaining, BUDGET_FORECAST_LEVEL, model.floorAtZero), base) : null;
  const crossing = (percent: number): string | null => {
    if (amount === undefined) return null;
    const reached = daily.find((day) => reaches(day.total, amount, percent));
    if (reached && reached.date <= lastComplete) return reached.date;
    if (!model) return null;
    const target = Number(thresholdAmount(amount, percent));
    let running = base;
    for (const day of remaining) {
      running += estimateTotal(model.fitted, [day], BUDGET_FORECAST_LEVEL, model.floorAtZero).mean;
      if (running >= target) return formatDayNumber(day);
    }
    return null;
  };
  return { period, amount, actual, forecast, crossing };
}

/** The period's days up to today with the running total of every charge, oldest first. */
function dailyRunningTotals(sums: BudgetSums, period: BudgetPeriod, today: string): Array<{ date: string; total: bigint }> {
  let total = 0n;
  return [...sums.days]
    .filter(([date]) => date >= period.start && date <= today)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([date, amounts]) => ({ date, total: (total += amounts.all) }));
}

type FittedForecast = { fitted: ReturnType<typeof fitCalibrated>; floorAtZero: boolean } | undefined;

/** Fits made of sums already, by their last complete day: the same sums object is fitted once (budget-sums.service.ts holds them). */
const fits = new WeakMap<BudgetSums, Map<string, FittedForecast>>();

function fittedModel(sums: BudgetSums, lastComplete: string): FittedForecast {
  const known = fits.get(sums) ?? new Map<string, FittedForecast>();
  fits.set(sums, known);
  if (!known.has(lastComplete)) known.set(lastComplete, fitted(sums, lastComplete));
  return known.get(lastComplete);
}

/** The forecast model fitted on the modelled charges up to yesterday, from the first day with rows; none with under MIN_HISTORY_DAYS. */
function fitted(sums: BudgetSums, lastComplete: string): FittedForecast {
  // From the first day with rows, whatever they sum to: a day restated to nothing is history too.
  const days = [...sums.days.keys()].filter((date) => date <= lastComplete);
  if (days.length === 0) return undefined;
  const first = dayNumber(days.sort()[0]);
  const length = dayNumber(lastComplete) - first + 1;
  if (length < MIN_HISTORY_DAYS) return undefined;
  const values = Array.from({ length }, (_, i) => Number(decimalText(sums.days.get(formatDayNumber(first + i))?.modelled ?? 0n)));
  return { fitted: fitCalibrated(values, first, BUDGET_FORECAST_LEVEL), floorAtZero: values.every((value) => value >= 0) };
}

function shifted(estimate: Estimate, base: number): Estimate {
  const round = (value: number) => Math.round((value + base) * 10_000) / 10_000 + 0;
  return { mean: round(estimate.mean), lower: round(estimate.lower), upper: round(estimate.upper) };
}

function figures(definition: BudgetDefinition, period: BudgetPeriod, actual: bigint): PeriodFigures {
  const amount = amountFor(definition.amounts, period);
  return {
    period,
    amount: amount === undefined ? null : Number(amount),
    actual: Number(decimalText(actual)),
    percent_used: amount === undefined ? null : fractionHalfUp(actual * 100n, scaled(amount), 2),
  };
}

function monthsTotal(sums: BudgetSums, period: BudgetPeriod): bigint {
  return [...sums.months].reduce((total, [month, amount]) => (month >= period.start && month <= period.end ? total + amount : total), 0n);
}

/** The amount spread evenly over the period's days, up to and including today. */
function prorated(amount: string, period: BudgetPeriod, today: string): number {
  const [elapsed, days] = [dayNumber(today) - dayNumber(period.start) + 1, dayNumber(period.end) - dayNumber(period.start) + 1];
  return Number(decimalText((scaled(amount) * BigInt(elapsed) * 2n + BigInt(days)) / (2n * BigInt(days))));
}

function thresholdStatus(threshold: BudgetThreshold, standing: Standing, alerts: readonly StoredAlert[]): ThresholdStatus {
  const own = ownAlerts(alerts, threshold, standing.period);
  const standingAlert = own.at(-1)?.event === 'fired' ? own.at(-1) : undefined;
  const amount = standing.amount === undefined ? 0 : Number(thresholdAmount(standing.amount, threshold.percent));
  const state = thresholdHolds(threshold, standing, standingAlert !== undefined)
    ? threshold.kind === 'actual'
      ? 'breached'
      : 'forecast_breach'
    : 'ok';
  return {
    ...threshold,
    amount,
    state,
    since: state !== 'ok' ? (standingAlert?.at ?? null) : null,
    ...(threshold.kind === 'forecast' ? { crossing_date: standing.crossing(threshold.percent) } : {}),
  };
}

/**
 * Whether a threshold holds: an actual one while the actual reaches it; a forecast one once the forecast's mean
 * reaches it, and — once fired — until the interval's upper bound falls back below it (hysteresis).
 */
function thresholdHolds(threshold: BudgetThreshold, standing: Standing, fired: boolean): boolean {
  if (standing.amount === undefined) return false;
  if (threshold.kind === 'actual') return reaches(standing.actual, standing.amount, threshold.percent);
  if (!standing.forecast) return fired;
  const at = (value: number) => value * 100 >= Number(standing.amount) * threshold.percent;
  return fired ? at(standing.forecast.upper) : at(standing.forecast.mean);
}

function ownAlerts(alerts: readonly StoredAlert[], threshold: BudgetThreshold, period: BudgetPeriod): StoredAlert[] {
  return alerts.filter(
    (alert) => alert.periodStart === period.start && alert.kind === threshold.kind && alert.percent === threshold.percent,
  );
}

/** An alert to record: a threshold of the current period (or, withdrawn, of the one before) that starts or stops holding. */
export interface AlertDecision {
  threshold: BudgetThreshold;
  event: AlertEventKind;
  /** The period before the current one: a restatement withdrew its alert. */
  previous?: { period: BudgetPeriod; exactActual: string };
}

/**
 * The period before's actual alerts that a restatement made untrue: withdrawn, recorded as such. (Never fired late: a
 * new budget would otherwise open with alerts about a month already closed.)
 */
export function previousPeriodWithdrawals(
  definition: BudgetDefinition,
  status: BudgetStatus,
  alerts: readonly StoredAlert[],
): AlertDecision[] {
  if (status.exact_previous_actual === undefined) return [];
  const period = shiftPeriod(definition.period, status.period, -1);
  const amount = amountFor(definition.amounts, period);
  if (amount === undefined) return [];
  const actual = scaled(status.exact_previous_actual);
  return definition.thresholds
    .filter((threshold) => threshold.kind === 'actual')
    .filter((threshold) => ownAlerts(alerts, threshold, period).at(-1)?.event === 'fired' && !reaches(actual, amount, threshold.percent))
    .map((threshold) => ({
      threshold: { kind: threshold.kind, percent: threshold.percent },
      event: 'withdrawn' as const,
      previous: { period, exactActual: status.exact_previous_actual! },
    }));
}

/**
 * What the worker records for a status: an actual threshold fires when it starts holding and is withdrawn when a
 * restatement makes it untrue; a forecast threshold fires once per period at most, and is withdrawn when it stops holding.
 */
export function alertDecisions(status: BudgetStatus, alerts: readonly StoredAlert[]): AlertDecision[] {
  return status.thresholds.flatMap((threshold): AlertDecision[] => {
    const own = ownAlerts(alerts, threshold, status.period);
    const active = own.at(-1)?.event === 'fired';
    const holds = threshold.state !== 'ok';
    const plain = { kind: threshold.kind, percent: threshold.percent };
    if (holds && !active && (threshold.kind === 'actual' || own.length === 0)) return [{ threshold: plain, event: 'fired' }];
    if (!holds && active) return [{ threshold: plain, event: 'withdrawn' }];
    return [];
  });
}
