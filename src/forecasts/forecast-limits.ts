import { MIN_HISTORY_DAYS, READ_HISTORY_DAYS } from '../cost-query/forecast-model';

/** The forecast's limits and defaults, written once (the DTOs, the service and the docs quote them). */
export const FORECAST_LIMITS = {
  /** Days ahead of the last complete day a forecast may reach, by point. */
  maxDailyDays: 92,
  maxMonthlyDays: 366,
  defaultLevel: 80,
  /** Values of a grouping dimension forecast on their own; the others are one series. */
  topValues: 5,
  otherLabel: '(other)',
  totalLabel: 'Total',
  minHistoryDays: MIN_HISTORY_DAYS,
  historyDays: READ_HISTORY_DAYS,
} as const;
