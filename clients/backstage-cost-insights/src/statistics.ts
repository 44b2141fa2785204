import type { ChangeStatistic, DateAggregation, Trendline } from '@backstage/plugin-cost-insights-common';
import type { DateRange } from './intervals';

/**
 * ChangeStatistic as the plugin defines it: between the last two intervals, `amount` = newSum − oldSum and
 * `ratio` = (newSum − oldSum) / oldSum, left out when either sum is zero (the plugin then shows ∞ or −∞ by the
 * sign of the amount). The plugin's own comparisons build on this: its "your savings/excess" figure is the
 * previous period's total times a difference of ratios. With a single interval there is no change.
 */
export function changeBetween(aggregation: DateAggregation[], intervals: DateRange[]): ChangeStatistic | undefined {
  if (intervals.length < 2) return undefined;
  const sumOf = (range: DateRange) =>
    aggregation.reduce((sum, point) => (point.date >= range.start && point.date <= range.end ? sum + point.amount : sum), 0);
  return changeOf(sumOf(intervals[intervals.length - 2]), sumOf(intervals[intervals.length - 1]));
}

export function changeOf(oldSum: number, newSum: number): ChangeStatistic {
  const amount = newSum - oldSum;
  return oldSum !== 0 && newSum !== 0 ? { ratio: amount / oldSum, amount } : { amount };
}

/**
 * The least-squares line through the daily amounts, with x in seconds since the epoch (`Date.parse(date) / 1000`),
 * which is how the plugin draws it (trend at a date = slope × seconds + intercept). Computed around the mean x, so
 * epoch-sized x values lose no precision; not rounded (rounding a per-second slope to a few decimals would change it).
 */
export function trendlineOf(aggregation: DateAggregation[]): Trendline {
  if (aggregation.length === 0) return { slope: 0, intercept: 0 };
  const xs = aggregation.map((point) => Date.parse(point.date) / 1000);
  const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const meanY = aggregation.reduce((sum, point) => sum + point.amount, 0) / aggregation.length;
  let covariance = 0;
  let variance = 0;
  aggregation.forEach((point, i) => {
    covariance += (xs[i] - meanX) * (point.amount - meanY);
    variance += (xs[i] - meanX) ** 2;
  });
  const slope = variance === 0 ? 0 : covariance / variance;
  return { slope, intercept: meanY - slope * meanX };
}

/** One point per day of `days`, the amount of that day from `amounts` (0 for a day without cost). */
export function dailyAggregation(days: string[], amounts: Map<string, number>): DateAggregation[] {
  return days.map((date) => ({ date, amount: amounts.get(date) ?? 0 }));
}
