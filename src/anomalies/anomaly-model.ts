/**
 * Anomalies of a daily cost series: each day is compared with a robust baseline of the days before it — the median
 * level of the previous BASELINE_DAYS usable days, shaped by each weekday's typical share of its week — and scored by how many robust
 * standard deviations (1.4826 × the median absolute deviation of those days) it lies above. Medians make one spike
 * harmless to later baselines; a lasting change of level becomes the baseline once it fills half the window. Only
 * increases are anomalies (a cost that falls is not an incident). Consecutive anomalous days are one anomaly. Pure.
 */

/** Days before a day its baseline is taken from (four of each weekday). */
export const BASELINE_DAYS = 28;
/** Fewest usable days a baseline needs: a day with fewer before it is not judged. */
export const MIN_BASELINE_DAYS = 14;
/** Robust z-score from which a day is anomalous (with both impact thresholds met). */
export const SCORE_THRESHOLD = 3.5;
/** The scale is at least this share of the expected amount: a flat series is not alarmed by cents. */
const MIN_RELATIVE_SCALE = 0.02;
/** 1 / Φ⁻¹(3/4): the median absolute deviation of a normal sample times this estimates its standard deviation. */
const MAD_TO_SIGMA = 1.4826;

/** The name of the method, as answers state it. */
export const ANOMALY_METHOD = `robust baseline: median of the previous ${BASELINE_DAYS} days by day of week, score in median absolute deviations`;

export interface DetectionInput {
  /** One amount per day from `firstDay` (a day number: days since 1970-01-01), oldest first. */
  values: readonly number[];
  firstDay: number;
  /** The first day judged (earlier days only serve as baselines). */
  detectFrom: number;
  /** The first day of the history (the organisation's first day with costs): earlier days are no baseline. */
  historyFrom: number;
  /** Days left out of every baseline (feedback: expected, seasonal or migration). */
  excluded: ReadonlySet<number>;
  minImpact: number;
  minImpactPercentage: number;
}

export interface DetectedAnomaly {
  startDay: number;
  endDay: number;
  expected: number;
  actual: number;
  impact: number;
  /** Impact over expected, in percent; null when nothing was expected. */
  impactPercentage: number | null;
  /** The largest robust z-score of its days. */
  score: number;
}

/** A day's judgement: what was expected, and how unusual the actual amount is. */
interface DayJudgement {
  day: number;
  expected: number;
  actual: number;
  score: number;
}

/** The anomalies of the series, oldest first. */
export function detectAnomalies(input: DetectionInput): DetectedAnomaly[] {
  const anomalous: DayJudgement[] = [];
  for (let index = Math.max(0, input.detectFrom - input.firstDay); index < input.values.length; index++) {
    const judgement = judge(input, index);
    if (judgement && isAnomalous(judgement, input)) anomalous.push(judgement);
  }
  return mergeConsecutive(anomalous);
}

/** The expected amount of day `index` and its score, or undefined without enough usable days before it. */
function judge(input: DetectionInput, index: number): DayJudgement | undefined {
  const days: Array<{ weekday: number; value: number }> = [];
  const first = Math.max(0, input.historyFrom - input.firstDay);
  for (let i = index - 1; i >= first && days.length < BASELINE_DAYS; i--) {
    if (!input.excluded.has(input.firstDay + i)) days.push({ weekday: weekdayOf(input.firstDay + i), value: input.values[i] });
  }
  if (days.length < MIN_BASELINE_DAYS) return undefined;
  const shape = weekdayShape(days);
  const level = median(days.map(({ weekday, value }) => value / shape[weekday]));
  const deviation = median(days.map(({ weekday, value }) => Math.abs(value - level * shape[weekday])));
  const day = input.firstDay + index;
  const expected = level * shape[weekdayOf(day)];
  const scale = Math.max(MAD_TO_SIGMA * deviation, MIN_RELATIVE_SCALE * Math.abs(expected), Number.EPSILON);
  const actual = input.values[index];
  return { day, expected, actual, score: (actual - expected) / scale };
}

function isAnomalous({ expected, actual, score }: DayJudgement, input: DetectionInput): boolean {
  const impact = actual - expected;
  if (score < SCORE_THRESHOLD || impact < input.minImpact) return false;
  return expected <= 0 || (impact / expected) * 100 >= input.minImpactPercentage;
}

/**
 * Each weekday's factor: the median, over its days, of the day's amount relative to the median of the week around it
 * (so a change of level inside the window does not pass for a weekly pattern); 1 for a weekday with fewer than two
 * such days, or where the amounts around it are not positive.
 */
function weekdayShape(newestFirst: ReadonlyArray<{ weekday: number; value: number }>): number[] {
  const days = [...newestFirst].reverse();
  const ratios: number[][] = Array.from({ length: 7 }, () => []);
  days.forEach((day, i) => {
    const around = median(days.slice(Math.max(0, i - 3), i + 4).map((other) => other.value));
    if (around > 0 && day.value >= 0) ratios[day.weekday].push(day.value / around);
  });
  return ratios.map((values) => {
    const factor = values.length >= 2 ? median(values) : 1;
    return factor > 0 ? factor : 1;
  });
}

function mergeConsecutive(days: DayJudgement[]): DetectedAnomaly[] {
  const anomalies: DetectedAnomaly[] = [];
  for (const day of days) {
    const last = anomalies[anomalies.length - 1];
    if (last && last.endDay === day.day - 1) {
      last.endDay = day.day;
      last.expected += day.expected;
      last.actual += day.actual;
      last.score = Math.max(last.score, day.score);
    } else {
      anomalies.push({
        startDay: day.day,
        endDay: day.day,
        expected: day.expected,
        actual: day.actual,
        impact: 0,
        impactPercentage: null,
        score: day.score,
      });
    }
  }
  return anomalies.map((anomaly) => {
    const impact = anomaly.actual - anomaly.expected;
    return { ...anomaly, impact, impactPercentage: anomaly.expected > 0 ? (impact / anomaly.expected) * 100 : null };
  });
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
function weekdayOf(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}
