import { dayNumber } from '../common/dates/calendar-date';
import { BASELINE_DAYS, detectAnomalies, medianOf, MIN_BASELINE_DAYS } from './anomaly-model';

const FIRST = dayNumber('2026-08-03'); // a Monday
const defaults = {
  firstDay: FIRST,
  detectFrom: FIRST,
  historyFrom: FIRST,
  excluded: new Set<number>(),
  minImpact: 10,
  minImpactPercentage: 20,
};
/** A deterministic ±2 % wobble, so the baselines have a spread. */
const wobble = (i: number) => 1 + 0.02 * Math.sin(i * 2.3);
/** 100 a day on weekdays, 40 on weekends. */
const weekly = (i: number) => ([5, 6].includes(i % 7) ? 40 : 100) * wobble(i);

describe('anomaly model', () => {
  it('finds nothing in a weekly pattern with noise', () => {
    const values = Array.from({ length: 90 }, (_, i) => weekly(i));
    expect(detectAnomalies({ ...defaults, values })).toEqual([]);
  });

  it('finds a one-day spike with its expected amount, and judges no day before the baseline fills', () => {
    const values = Array.from({ length: 60 }, (_, i) => weekly(i));
    values[40] = 100 * wobble(40) + 80; // a Saturday? no: day 40 is a Friday (40 % 7 = 5 → Saturday in this series)
    const [anomaly, ...rest] = detectAnomalies({ ...defaults, values });
    expect(rest).toEqual([]);
    expect(anomaly.startDay).toBe(FIRST + 40);
    expect(anomaly.endDay).toBe(FIRST + 40);
    // Day 40 is a weekend day of this series: 40 expected, the actual far above.
    expect(anomaly.expected).toBeCloseTo(40, 0);
    expect(anomaly.actual).toBeCloseTo(values[40], 6);
    expect(anomaly.impact).toBeCloseTo(values[40] - anomaly.expected, 6);
    expect(anomaly.score).toBeGreaterThan(10);

    const early = [...values];
    early[MIN_BASELINE_DAYS - 1] = 1000; // too early to judge: fewer than MIN_BASELINE_DAYS days before it
    expect(detectAnomalies({ ...defaults, values: early }).map((a) => a.startDay - FIRST)).toEqual([40]);
  });

  it('merges consecutive days, and a lasting new level stops being anomalous once it fills half the window', () => {
    const values = Array.from({ length: 100 }, (_, i) => (i >= 50 ? 2 : 1) * 100 * wobble(i));
    const anomalies = detectAnomalies({ ...defaults, values });
    expect(anomalies).toHaveLength(1);
    expect(anomalies[0].startDay - FIRST).toBe(50);
    expect(anomalies[0].endDay - FIRST).toBeLessThan(50 + BASELINE_DAYS / 2 + 1);
    expect(anomalies[0].impactPercentage).toBeGreaterThan(50);
  });

  it('leaves excluded days out of the baselines', () => {
    // 30 days at 100, 16 marked days at 300 (a planned load test), then 180.
    const values = Array.from({ length: 50 }, (_, i) => (i < 30 ? 100 : i < 46 ? 300 : 180) * wobble(i));
    const after = (excluded: Set<number>) =>
      detectAnomalies({ ...defaults, values, excluded, detectFrom: FIRST + 46 }).map((a) => [a.startDay - FIRST, a.endDay - FIRST]);
    expect(after(new Set())).toEqual([]);
    const marked = new Set(Array.from({ length: 16 }, (_, i) => FIRST + 30 + i));
    expect(after(marked)).toEqual([[46, 49]]);
  });

  it('ignores falls and increases under either impact threshold', () => {
    const values = Array.from({ length: 60 }, () => 100);
    values[40] = 10; // a fall
    values[41] = 115; // +15 %: under 20 %
    values[42] = 125; // +25 %, but an impact of 25 under 30
    expect(detectAnomalies({ ...defaults, values, minImpact: 30 })).toEqual([]);
    expect(detectAnomalies({ ...defaults, values, minImpact: 20 }).map((a) => a.startDay - FIRST)).toEqual([42]);
  });

  it('takes no baseline from the days before the history starts: its first days are not judged', () => {
    const values = [...Array.from({ length: 20 }, () => 0), ...Array.from({ length: 40 }, () => 100)];
    expect(detectAnomalies({ ...defaults, values }).map((a) => a.startDay - FIRST)).toEqual([20]);
    expect(detectAnomalies({ ...defaults, values, historyFrom: FIRST + 20 })).toEqual([]);
  });

  it('takes a rise the previous month had at the same place for a monthly habit', () => {
    // 2026-08-03 … 2026-11-30: 100 a day, 160 on each month's last three days.
    const values = Array.from({ length: 120 }, (_, i) => {
      const date = new Date((FIRST + i) * 86_400_000);
      const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
      return date.getUTCDate() > last - 3 ? 160 : 100;
    });
    const found = detectAnomalies({ ...defaults, values }).map((a) => [a.startDay - FIRST, a.endDay - FIRST]);
    // Only August's close (days 26–28: no earlier month to compare with) is an anomaly.
    expect(found).toEqual([[26, 28]]);
  });

  it('judges a day against the spread of a noisy series', () => {
    // 8 % normal noise (a fixed linear congruential sequence): a +22 % day is within it; a +80 % day is not.
    let state = 7;
    const uniform = () => (state = (state * 48271) % 2147483647) / 2147483647;
    const values = Array.from(
      { length: 60 },
      () => 100 * (1 + 0.08 * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())),
    );
    values[45] = 122;
    values[52] = 180;
    expect(detectAnomalies({ ...defaults, values }).map((a) => a.startDay - FIRST)).toEqual([52]);
  });

  it('selects the median of any window of up to BASELINE_DAYS values as sorting them does, leaving them in place', () => {
    let state = 11;
    const next = () => (state = (state * 48271) % 2147483647);
    for (let round = 0; round < 500; round++) {
      const values = Array.from({ length: 40 }, () => (next() % 9 === 0 ? 5 : (next() % 1000) / 7)); // with ties
      const copy = [...values];
      const count = 1 + (next() % BASELINE_DAYS);
      const from = next() % (values.length - count + 1);
      const window = values.slice(from, from + count).sort((a, b) => a - b);
      const middle = count >> 1;
      const expected = count % 2 ? window[middle] : (window[middle - 1] + window[middle]) / 2;
      expect(medianOf(values, count, from)).toBe(expected);
      expect(values).toEqual(copy);
    }
  });

  it('takes 0 as the median of no values', () => {
    expect(medianOf([1, 2, 3], 0)).toBe(0);
  });
});
