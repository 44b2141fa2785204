import { backtest, estimateTotal, fitCalibrated, fitModel, MIN_HISTORY_DAYS, normalQuantile, TRAINING_DAYS } from './forecast-model';

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
/** 100 + 0.5 per day, +20 on Saturdays and Sundays, +300 on the first of a month. */
const exactSeries = (first: string, days: number) =>
  Array.from({ length: days }, (_, i) => {
    const date = new Date((dayNumber(first) + i) * 86_400_000);
    return 100 + 0.5 * i + ([0, 6].includes(date.getUTCDay()) ? 20 : 0) + (date.getUTCDate() === 1 ? 300 : 0);
  });

describe('forecast model', () => {
  it('continues a series its terms explain exactly, with no spread', () => {
    const first = dayNumber('2026-06-01');
    const history = exactSeries('2026-06-01', 120);
    const future = exactSeries('2026-06-01', 150).slice(120);
    const model = fitModel(history, first);
    expect(model.trainingDays).toBe(TRAINING_DAYS);
    expect(model.sigma).toBe(0);
    future.forEach((value, i) => {
      const estimate = estimateTotal(model, [first + 120 + i], 80, true);
      expect(estimate.mean).toBeCloseTo(value, 6);
      expect(estimate.upper - estimate.lower).toBeCloseTo(0, 6);
    });
    const total = estimateTotal(
      model,
      future.map((_, i) => first + 120 + i),
      80,
      true,
    );
    expect(total.mean).toBeCloseTo(
      future.reduce((sum, value) => sum + value, 0),
      4,
    );
  });

  it('leaves out a term its training days cannot fit (no first of a month in two weeks)', () => {
    const model = fitModel(exactSeries('2026-06-10', MIN_HISTORY_DAYS), dayNumber('2026-06-10'));
    expect(model.terms.map((term) => term.kind)).not.toContain('monthStart');
    expect(model.sigma).toBe(0);
  });

  describe('calibrated on its own errors out of sample', () => {
    const first = dayNumber('2026-06-01');
    const steady = Array.from({ length: 119 }, (_, i) => 100 + 10 * Math.sin(i * 1.7));
    // The same noise, up by 60 for the last 19 days: the origins before the jump did not see it coming.
    const jumped = steady.map((value, i) => value + (i >= 100 ? 60 : 0));
    const calibrated = fitCalibrated(jumped, first, 80);
    /** The calibrated estimate of `days` has the plain one's mean and its half-width times `factor`. */
    const expectWidened = (days: number[], factor: number) => {
      const plain = estimateTotal(fitModel(jumped, first), days, 80, true);
      const wide = estimateTotal(calibrated, days, 80, true);
      expect(wide.mean).toBeCloseTo(plain.mean, 9);
      expect(wide.upper - wide.mean).toBeCloseTo((plain.upper - plain.mean) * factor, 9);
    };

    it('widens a day by the days’ errors: a level that moved in the last weeks widens it, steady noise not', () => {
      expect(fitCalibrated(steady, first, 80).inflation).toBe(1);
      expect(calibrated.inflation).toBeGreaterThan(2);
      expectWidened([first + 119], calibrated.inflation);
    });

    it('widens a total by the totals’ errors: the days’ noise averages out in it, a moved level does not', () => {
      expect(fitCalibrated(steady, first, 80).totalInflation).toBe(1);
      expect(calibrated.totalInflation).toBeGreaterThan(calibrated.inflation);
      expectWidened(
        Array.from({ length: 28 }, (_, i) => first + 119 + i),
        calibrated.totalInflation,
      );
    });
  });

  it('widens the interval with noise and with the level asked', () => {
    // A deterministic wobble around a flat 100.
    const noisy = Array.from({ length: 91 }, (_, i) => 100 + 10 * Math.sin(i * 1.7) + 5 * Math.cos(i * 0.3));
    const first = dayNumber('2026-06-01');
    const model = fitModel(noisy, first);
    expect(model.sigma).toBeGreaterThan(1);
    const at80 = estimateTotal(model, [first + 91], 80, true);
    const at95 = estimateTotal(model, [first + 91], 95, true);
    expect(at80.lower).toBeLessThan(at80.mean);
    expect(at95.upper - at95.lower).toBeGreaterThan(at80.upper - at80.lower);
    // A week's total: its spread grows more slowly than 7 days' spreads added up.
    const week = estimateTotal(
      model,
      [0, 1, 2, 3, 4, 5, 6].map((i) => first + 91 + i),
      80,
      true,
    );
    expect(week.upper - week.mean).toBeLessThan(7 * (at80.upper - at80.mean));
  });

  it('scores itself on its own history: an exactly explained series has no error and every day inside', () => {
    expect(backtest(exactSeries('2026-06-01', 120), dayNumber('2026-06-01'), 80)).toEqual({
      origins: 4,
      horizonDays: 7,
      mape: expect.closeTo(0, 9) as number,
      intervalCoverage: 1,
    });
    // Too short for any origin with two weeks before it.
    expect(backtest(exactSeries('2026-06-01', 20), dayNumber('2026-06-01'), 80)).toEqual({
      origins: 0,
      horizonDays: 7,
      mape: null,
      intervalCoverage: null,
    });
  });

  it('knows the normal quantiles', () => {
    expect(normalQuantile(0.9)).toBeCloseTo(1.2815515655, 8);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963985, 8);
    expect(normalQuantile(0.005)).toBeCloseTo(-2.5758293035, 8);
  });
});
