import { isoWeekday } from '../common/dates/calendar-date';

/**
 * Anomalies of a daily cost series: each day is compared with a robust baseline of the days before it — the median
 * level of the previous BASELINE_DAYS usable days, shaped by each weekday's typical share of its week — and scored by how many robust
 * standard deviations (1.4826 × the median absolute deviation of those days) it lies above. Medians make one spike
 * harmless to later baselines; a lasting change of level becomes the baseline once it fills half the window. A rise
 * the previous month had at the same place (the same date, or as many days before the month's end) is a monthly
 * habit, not an anomaly. Only increases are anomalies (a cost that falls is not an incident). Consecutive anomalous
 * days are one anomaly. Pure.
 */

/** Days before a day its baseline is taken from (four of each weekday). */
export const BASELINE_DAYS = 28;
/** Fewest usable days a baseline needs: a day with fewer before it is not judged. */
export const MIN_BASELINE_DAYS = 14;
/** Robust z-score from which a day is anomalous (with both impact thresholds met). */
export const SCORE_THRESHOLD = 4;
/** The scale is at least this share of the expected amount: a flat series is not alarmed by cents. */
const MIN_RELATIVE_SCALE = 0.02;
/** 1 / Φ⁻¹(3/4): the median absolute deviation of a normal sample times this estimates its standard deviation. */
const MAD_TO_SIGMA = 1.4826;
/** Days of history a judged day may look back: its baseline, and the previous month's same day with its own. */
export const LOOKBACK_DAYS = BASELINE_DAYS + 31;

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

/**
 * The anomalies of the series, oldest first. A day's score (three medians of its baseline) is computed only when its
 * rise already meets both impact thresholds, which do not depend on it: most days do not, and the score was most of
 * the scan's time in TypeScript.
 */
export function detectAnomalies(input: DetectionInput): DetectedAnomaly[] {
  const series = { ...input, centred: centredMedians(input.values) };
  const anomalous: DayJudgement[] = [];
  for (let index = Math.max(0, input.detectFrom - input.firstDay); index < input.values.length; index++) {
    const expectation = expectationOf(series, index);
    if (!expectation || !risesEnough(expectation, input)) continue;
    // Scored before recursMonthly, which reuses the baseline's scratch.
    const judgement = { day: expectation.day, expected: expectation.expected, actual: expectation.actual, score: scoreOf(expectation) };
    if (judgement.score >= SCORE_THRESHOLD && !recursMonthly(series, judgement)) anomalous.push(judgement);
  }
  return mergeConsecutive(anomalous);
}

/** A series being judged, with the median of the 7 days centred on each day (see weekdayShape). */
interface JudgedSeries extends DetectionInput {
  centred: Float64Array;
}

/** Each day's median of the 7 days centred on it (NaN where the series does not hold them all). */
function centredMedians(values: readonly number[]): Float64Array {
  const centred = new Float64Array(values.length).fill(Number.NaN);
  for (let i = WEEK_HALF; i + WEEK_HALF < values.length; i++) centred[i] = medianOf(values, 2 * WEEK_HALF + 1, i - WEEK_HALF);
  return centred;
}

/**
 * Whether the previous month rose alike at the same place — the same day of the month, or as many days before its
 * end (a month-end close, a mid-month batch): at least half this day's rise over its baseline. A monthly pattern is
 * the series' habit, not an anomaly.
 */
function recursMonthly(input: JudgedSeries, day: DayJudgement): boolean {
  const rise = day.actual / day.expected - 1;
  return monthBefore(day.day).some((earlier) => {
    const index = earlier - input.firstDay;
    const expectation = index >= 0 && index < input.values.length ? expectationOf(input, index) : undefined;
    return expectation !== undefined && expectation.expected > 0 && expectation.actual / expectation.expected - 1 >= rise / 2;
  });
}

/** The previous month's day of the same date, and the one as many days before that month's end (day numbers). */
function monthBefore(dayNumber: number): number[] {
  const date = new Date(dayNumber * 86_400_000);
  const [year, month, dayOfMonth] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  const toEnd = new Date(Date.UTC(year, month + 1, 0)).getUTCDate() - dayOfMonth;
  const previousLength = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const sameDate = dayOfMonth <= previousLength ? Date.UTC(year, month - 1, dayOfMonth) / 86_400_000 : undefined;
  const sameToEnd = Date.UTC(year, month - 1, previousLength - toEnd) / 86_400_000;
  return [...new Set([sameDate, sameToEnd].filter((day): day is number => day !== undefined))];
}

/** A day's expected amount, with the baseline and the fit its score is computed from (valid until the next expectationOf). */
interface Expectation {
  day: number;
  expected: number;
  actual: number;
  level: number;
  shape: Float64Array;
  baseline: BaselineWindow;
}

/**
 * The expected amount of day `index`: the median level of its baseline shaped by its weekday; undefined without
 * enough usable days before it. Computed for every day of every series, so written on reused typed arrays (a year of
 * 50 series in tens of ms).
 */
function expectationOf(input: JudgedSeries, index: number): Expectation | undefined {
  const baseline = baselineOf(input, index);
  if (baseline.count < MIN_BASELINE_DAYS) return undefined;
  const shape = weekdayShape(baseline, input);
  const { count, values, weekdays } = baseline;
  for (let i = 0; i < count; i++) work[i] = values[i] / shape[weekdays[i]];
  const level = medianOf(work, count);
  const day = input.firstDay + index;
  return { day, expected: level * shape[weekdayOf(day)], actual: input.values[index], level, shape, baseline };
}

/**
 * How unusual the actual amount is: its rise over the expected one in units of scale, the larger of the residuals'
 * spread around the weekday-shaped level and the spread of week-over-week changes (the same weekday a week apart,
 * which no fitted shape can absorb: four days per weekday would flatter the first).
 */
function scoreOf({ expected, actual, level, shape, baseline }: Expectation): number {
  const { count, values, weekdays } = baseline;
  for (let i = 0; i < count; i++) work[i] = Math.abs(values[i] - level * shape[weekdays[i]]);
  const deviation = medianOf(work, count);
  const spread = Math.max(MAD_TO_SIGMA * deviation, weekOverWeekSpread(baseline, level) * Math.abs(expected));
  const scale = Math.max(spread, MIN_RELATIVE_SCALE * Math.abs(expected), Number.EPSILON);
  return (actual - expected) / scale;
}

/** A day's baseline: up to BASELINE_DAYS usable days before it, oldest first (reused between calls). */
interface BaselineWindow {
  count: number;
  days: Int32Array;
  weekdays: Uint8Array;
  values: Float64Array;
}

const reusedWindow: BaselineWindow = {
  count: 0,
  days: new Int32Array(BASELINE_DAYS),
  weekdays: new Uint8Array(BASELINE_DAYS),
  values: new Float64Array(BASELINE_DAYS),
};
/** Scratch for medians and ratios. */
const work = new Float64Array(BASELINE_DAYS);
const sorted = new Float64Array(BASELINE_DAYS);
const ratios = Array.from({ length: 7 }, () => new Float64Array(BASELINE_DAYS));
const ratioCounts = new Uint8Array(7);
/** The weekday factors of the day last expected. */
const shapeFactors = new Float64Array(7);
/** Days each side of a day in the week centred on it. */
const WEEK_HALF = 3;

function baselineOf(input: DetectionInput, index: number): BaselineWindow {
  const first = Math.max(0, input.historyFrom - input.firstDay);
  const { excluded, firstDay } = input;
  let i = Math.max(first - 1, index - 1 - BASELINE_DAYS);
  if (excluded.size > 0) {
    i = index - 1;
    for (let count = 0; i >= first && count < BASELINE_DAYS; i--) if (!excluded.has(firstDay + i)) count++;
  }
  let at = 0;
  for (let j = i + 1; j < index; j++) {
    const day = firstDay + j;
    if (excluded.size > 0 && excluded.has(day)) continue;
    reusedWindow.days[at] = day;
    reusedWindow.weekdays[at] = weekdayOf(day);
    reusedWindow.values[at++] = input.values[j];
  }
  reusedWindow.count = at;
  return reusedWindow;
}

/** The relative spread of one day's amount: from the changes between days a week apart, over the level (√2: two days' noise). */
function weekOverWeekSpread({ count, days, values }: BaselineWindow, level: number): number {
  if (level <= 0) return 0;
  let changes = 0;
  for (let i = 0, earlier = 0; i < count; i++) {
    while (days[earlier] < days[i] - 7) earlier++;
    if (days[earlier] === days[i] - 7) work[changes++] = (values[i] - values[earlier]) / level;
  }
  if (changes < 7) return 0;
  const centre = medianOf(work, changes);
  for (let i = 0; i < changes; i++) work[i] = Math.abs(work[i] - centre);
  return (MAD_TO_SIGMA * medianOf(work, changes)) / Math.SQRT2;
}

/** Whether a day rose enough to be an anomaly if its score is high enough: both impact thresholds met. */
function risesEnough({ expected, actual }: Expectation, input: DetectionInput): boolean {
  const impact = actual - expected;
  if (impact < input.minImpact) return false;
  return expected <= 0 || (impact / expected) * 100 >= input.minImpactPercentage;
}

/**
 * Each weekday's factor: the median, over its days, of the day's amount relative to the median of the week around it
 * (so a change of level inside the window does not pass for a weekly pattern); 1 for a weekday with fewer than two
 * such days, or where the amounts around it are not positive. Written on scratch: valid until the next call.
 */
function weekdayShape({ count, days, values, weekdays }: BaselineWindow, series: JudgedSeries): Float64Array {
  ratioCounts.fill(0);
  // Without left-out days the window is a run of the series: its inner days' weeks are the series' centred ones.
  const start = days[0] - series.firstDay;
  const contiguous = count > 0 && days[count - 1] - days[0] === count - 1;
  for (let i = 0; i < count; i++) {
    const from = Math.max(0, i - WEEK_HALF);
    const to = Math.min(count, i + WEEK_HALF + 1);
    const around = contiguous && to - from === 2 * WEEK_HALF + 1 ? series.centred[start + i] : medianOf(values, to - from, from);
    if (around > 0 && values[i] >= 0) ratios[weekdays[i]][ratioCounts[weekdays[i]]++] = values[i] / around;
  }
  for (let weekday = 0; weekday < 7; weekday++) {
    const factor = ratioCounts[weekday] >= 2 ? medianOf(ratios[weekday], ratioCounts[weekday]) : 1;
    shapeFactors[weekday] = factor > 0 ? factor : 1;
  }
  return shapeFactors;
}

/** The median of `count` values from `from`, found in scratch (at most BASELINE_DAYS of them; the input is not reordered). */
export function medianOf(values: ArrayLike<number>, count: number, from = 0): number {
  if (count === 0) return 0;
  const middle = count >> 1;
  if (count <= SMALL_SAMPLE) {
    insertionSort(values, count, from);
    return count % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
  for (let i = 0; i < count; i++) sorted[i] = values[from + i];
  const upper = selectNth(sorted, count, middle);
  if (count % 2) return upper;
  // The lower middle is the largest of the values the selection left before the middle.
  let lower = sorted[0];
  for (let i = 1; i < middle; i++) if (sorted[i] > lower) lower = sorted[i];
  return (lower + upper) / 2;
}

/** Up to this many values, insertion sort beats selection. */
const SMALL_SAMPLE = 12;

function insertionSort(values: ArrayLike<number>, count: number, from: number): void {
  for (let i = 0; i < count; i++) {
    const value = values[from + i];
    let j = i - 1;
    for (; j >= 0 && sorted[j] > value; j--) sorted[j + 1] = sorted[j];
    sorted[j + 1] = value;
  }
}

/** Reorders the first `count` values so that the n-th smallest is at n, the smaller ones before it (quickselect). */
function selectNth(values: Float64Array, count: number, n: number): number {
  let left = 0;
  let right = count - 1;
  while (left < right) {
    const pivot = values[(left + right) >> 1];
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const swapped = values[i];
        values[i++] = values[j];
        values[j--] = swapped;
      }
    }
    if (n <= j) right = j;
    else if (n >= i) left = i;
    else break;
  }
  return values[n];
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

/** 0 = Sunday … 6 = Saturday. */
function weekdayOf(dayNumber: number): number {
  return isoWeekday(dayNumber) % 7;
}
