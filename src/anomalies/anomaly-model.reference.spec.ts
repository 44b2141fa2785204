import { isoWeekday } from '../common/dates/calendar-date';
import { BASELINE_DAYS, DetectedAnomaly, DetectionInput, detectAnomalies, MIN_BASELINE_DAYS, SCORE_THRESHOLD } from './anomaly-model';

/**
 * The method of anomaly-model.ts written plainly — sorted copies for medians, every day scored, arrays allocated —
 * as the oracle of its optimised form (reused scratch, selection, scores only for days that rise enough): both must
 * find the same anomalies, to the last digit, on any series.
 */
const median = (values: number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const weekday = (day: number) => isoWeekday(day) % 7;

function referenceJudge(input: DetectionInput, index: number) {
  const first = Math.max(0, input.historyFrom - input.firstDay);
  const days: number[] = [];
  for (let j = index - 1; j >= first && days.length < BASELINE_DAYS; j--) {
    if (!input.excluded.has(input.firstDay + j)) days.unshift(input.firstDay + j);
  }
  if (days.length < MIN_BASELINE_DAYS) return undefined;
  const values = days.map((day) => input.values[day - input.firstDay]);
  const ratios: number[][] = [[], [], [], [], [], [], []];
  values.forEach((value, i) => {
    const around = median(values.slice(Math.max(0, i - 3), Math.min(values.length, i + 4)));
    if (around > 0 && value >= 0) ratios[weekday(days[i])].push(value / around);
  });
  const shape = ratios.map((list) => (list.length >= 2 && median(list) > 0 ? median(list) : 1));
  const level = median(values.map((value, i) => value / shape[weekday(days[i])]));
  const deviation = median(values.map((value, i) => Math.abs(value - level * shape[weekday(days[i])])));
  const changes = days.flatMap((day, i) => {
    const j = days.indexOf(day - 7);
    return j >= 0 ? [(values[i] - values[j]) / level] : [];
  });
  const weekOverWeek =
    level > 0 && changes.length >= 7 ? (1.4826 * median(changes.map((c) => Math.abs(c - median(changes))))) / Math.SQRT2 : 0;
  const day = input.firstDay + index;
  const expected = level * shape[weekday(day)];
  const scale = Math.max(1.4826 * deviation, weekOverWeek * Math.abs(expected), 0.02 * Math.abs(expected), Number.EPSILON);
  const actual = input.values[index];
  return { day, expected, actual, score: (actual - expected) / scale };
}

function referenceDetect(input: DetectionInput): DetectedAnomaly[] {
  const anomalies: DetectedAnomaly[] = [];
  for (let index = Math.max(0, input.detectFrom - input.firstDay); index < input.values.length; index++) {
    const judged = referenceJudge(input, index);
    if (!judged) continue;
    const impact = judged.actual - judged.expected;
    const rises = impact >= input.minImpact && (judged.expected <= 0 || (impact / judged.expected) * 100 >= input.minImpactPercentage);
    if (!rises || judged.score < SCORE_THRESHOLD || recursMonthly(input, judged)) continue;
    const last = anomalies[anomalies.length - 1];
    if (last && last.endDay === judged.day - 1) {
      Object.assign(last, { endDay: judged.day, expected: last.expected + judged.expected, actual: last.actual + judged.actual });
      last.score = Math.max(last.score, judged.score);
    } else {
      const { day, expected, actual, score } = judged;
      anomalies.push({ startDay: day, endDay: day, expected, actual, impact: 0, impactPercentage: null, score });
    }
  }
  return anomalies.map((a) => ({
    ...a,
    impact: a.actual - a.expected,
    impactPercentage: a.expected > 0 ? ((a.actual - a.expected) / a.expected) * 100 : null,
  }));
}

/** The previous month's same date, or as many days before its end, rose at least half as much. */
function recursMonthly(input: DetectionInput, day: { day: number; expected: number; actual: number }): boolean {
  const date = new Date(day.day * 86_400_000);
  const [year, month, dayOfMonth] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  const toEnd = new Date(Date.UTC(year, month + 1, 0)).getUTCDate() - dayOfMonth;
  const previousLength = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const earlier = [Date.UTC(year, month - 1, previousLength - toEnd) / 86_400_000];
  if (dayOfMonth <= previousLength) earlier.push(Date.UTC(year, month - 1, dayOfMonth) / 86_400_000);
  return earlier.some((other) => {
    const index = other - input.firstDay;
    const judged = index >= 0 && index < input.values.length ? referenceJudge(input, index) : undefined;
    return judged !== undefined && judged.expected > 0 && judged.actual / judged.expected - 1 >= (day.actual / day.expected - 1) / 2;
  });
}

describe('anomaly model against its plain reference', () => {
  it('finds the same anomalies, digit for digit, on random series with spikes, shifts, zeros and left-out days', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    let found = 0;
    for (let series = 0; series < 120; series++) {
      const length = 60 + Math.floor(random() * 160);
      const base = random() < 0.2 ? random() * 20 : 100 + random() * 5000;
      const values = Array.from({ length }, (_, i) => {
        let value = base * (i % 7 < 5 ? 1 : 0.5 + random() * 0.3) * (0.85 + 0.3 * random());
        if (random() < 0.04) value *= 1.5 + random() * 3; // spikes
        if (random() < 0.01) value = 0;
        return series % 4 === 0 && i > length / 2 ? value * 1.6 : value; // a level shift
      });
      const excluded = new Set<number>();
      if (series % 3 === 0) for (let k = 0; k < 8; k++) excluded.add(20_000 + Math.floor(random() * length));
      const input: DetectionInput = {
        values,
        firstDay: 20_000,
        detectFrom: 20_000 + Math.floor(random() * 40),
        historyFrom: 20_000 + Math.floor(random() * 8),
        excluded,
        minImpact: [0, 10, 100][series % 3],
        minImpactPercentage: series % 2 ? 20 : 0,
      };
      const expected = referenceDetect(input);
      found += expected.length;
      expect(detectAnomalies(input)).toEqual(expected);
    }
    expect(found).toBeGreaterThan(100); // the series do hold anomalies
  });
});
