import { ONE_OFF_CHARGE_CATEGORIES } from '../cost-query/forecast-series.query';
import type { FeedbackReason } from '../store/repositories/anomalies.repository';
import { BASELINE_DAYS, LOOKBACK_DAYS, SCORE_THRESHOLD } from './anomaly-model';

/** The anomaly scan's limits and defaults, written once (the DTOs, the service and the docs quote them). */
export const ANOMALY_LIMITS = {
  /** Days scanned without a dateRange: the last 90 complete days. */
  defaultDays: 90,
  /** Longest dateRange scanned. */
  maxDays: 366,
  defaultDimension: 'service',
  /** In the answer's currency, per day: smaller increases are not anomalies. */
  defaultMinImpact: 10,
  /** Percent of the expected amount. */
  defaultMinImpactPercentage: 20,
  scoreThreshold: SCORE_THRESHOLD,
  baselineDays: BASELINE_DAYS,
  /** Days read before the range: a day's baseline and the previous month's same day with its own. */
  lookbackDays: LOOKBACK_DAYS,
  /** Values of the monitored dimension scanned on their own (the highest amounts); the others are one series. */
  monitoredValues: 50,
  otherLabel: '(other)',
  /** Most anomalies answered (the newest). */
  maxAnomalies: 100,
  /** Root causes per anomaly. */
  rootCauses: 5,
  /** A root cause's usual amount: its mean on the anomaly's weekdays over this many weeks before the anomaly. */
  rootCauseBaselineWeeks: BASELINE_DAYS / 7,
  /** One-off charges and purchases (commitment fees) are not usage: left out of the series, as Vantage does. */
  leftOutCategories: [...ONE_OFF_CHARGE_CATEGORIES, 'Purchase'],
  /** Days anomalies are kept for feedback. */
  keptDays: 90,
} as const;

/** Feedback reasons (FEEDBACK_REASONS) that leave the anomaly's days out of later baselines. */
export const BASELINE_EXCLUDING: readonly FeedbackReason[] = ['expected', 'seasonal', 'migration'];
