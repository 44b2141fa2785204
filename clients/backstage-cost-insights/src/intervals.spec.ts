import { addMonths, daysOf, parseIntervals } from './intervals';
import { changeBetween, changeOf, trendlineOf } from './statistics';
import { entityName } from './client';

describe('intervals, as the plugin writes them', () => {
  it('R2/P30D/<exclusive end>: two 30-day intervals ending the day before', () => {
    // The plugin's intervalsOf(P30D, lastCompleteBillingDate 2020-06-05) is R2/P30D/2020-06-06.
    expect(parseIntervals('R2/P30D/2020-06-06')).toEqual({
      intervals: [
        { start: '2020-04-07', end: '2020-05-06' },
        { start: '2020-05-07', end: '2020-06-05' },
      ],
      window: { start: '2020-04-07', end: '2020-06-05' },
      duration: { amount: 30, unit: 'D' },
    });
    expect(daysOf(parseIntervals('R2/P30D/2020-06-06').window)).toHaveLength(60);
    expect(parseIntervals('R2/P7D/2021-01-01').intervals).toEqual([
      { start: '2020-12-18', end: '2020-12-24' },
      { start: '2020-12-25', end: '2020-12-31' },
    ]);
  });

  it('R2/P3M: the two calendar quarters before the end date', () => {
    // The plugin's intervalsOf(P3M, 2020-06-05) is R2/P3M/2020-04-01: Q4 2019 and Q1 2020.
    expect(parseIntervals('R2/P3M/2020-04-01').intervals).toEqual([
      { start: '2019-10-01', end: '2019-12-31' },
      { start: '2020-01-01', end: '2020-03-31' },
    ]);
    expect(parseIntervals('R2/P3M/2020-10-01').window).toEqual({ start: '2020-04-01', end: '2020-09-30' });
    // An end date inside a quarter counts only the completed quarters before it (as the plugin's quarter arithmetic).
    expect(parseIntervals('R2/P3M/2020-09-01').window).toEqual({ start: '2020-01-01', end: '2020-06-30' });
  });

  it('other repetitions and month lengths', () => {
    expect(parseIntervals('R3/P1M/2021-03-31').intervals).toEqual([
      { start: '2020-12-31', end: '2021-01-30' },
      { start: '2021-01-31', end: '2021-02-27' },
      { start: '2021-02-28', end: '2021-03-30' },
    ]);
    expect(addMonths('2020-03-31', -1)).toBe('2020-02-29');
    expect(parseIntervals('R1/P90D/2020-01-01').intervals).toEqual([{ start: '2019-10-03', end: '2019-12-31' }]);
  });

  it('refuses what the plugin never writes', () => {
    expect(() => parseIntervals('P30D/2020-06-06')).toThrow('Invalid intervals "P30D/2020-06-06"');
    expect(() => parseIntervals('R2/P30D/2020-02-30')).toThrow('2020-02-30 is not a calendar date');
    expect(() => parseIntervals('R0/P30D/2020-02-01')).toThrow('at least 1');
    expect(() => parseIntervals('R2/PT30H/2020-02-01')).toThrow('Invalid intervals');
  });
});

describe('change and trendline', () => {
  const intervals = parseIntervals('R2/P2D/2020-01-05').intervals; // 1–2 January, 3–4 January
  const points = (amounts: number[]) => amounts.map((amount, i) => ({ date: `2020-01-0${i + 1}`, amount }));

  it('change: the last interval against the one before, sums', () => {
    expect(changeBetween(points([1, 3, 2, 6]), intervals)).toEqual({ ratio: 1, amount: 4 });
    expect(changeBetween(points([0, 0, 2, 6]), intervals)).toEqual({ amount: 8 });
    expect(changeBetween(points([1, 1, 0, 0]), intervals)).toEqual({ amount: -2 });
    expect(changeBetween(points([1]), [intervals[0]])).toBeUndefined();
    expect(changeOf(200, 150)).toEqual({ ratio: -0.25, amount: -50 });
  });

  it('trendline: least squares over seconds since the epoch, as the plugin draws it', () => {
    const line = trendlineOf(points([10, 20, 30, 40]));
    const trendAt = (date: string) => line.slope * (Date.parse(date) / 1000) + line.intercept;
    expect(line.slope).toBeCloseTo(10 / 86400, 12);
    expect(trendAt('2020-01-01')).toBeCloseTo(10, 6);
    expect(trendAt('2020-01-04')).toBeCloseTo(40, 6);
    expect(trendlineOf([{ date: '2020-01-01', amount: 5 }])).toEqual({ slope: 0, intercept: 5 });
    expect(trendlineOf([])).toEqual({ slope: 0, intercept: 0 });
  });

  it('catalog entity names from refs', () => {
    expect(entityName('component:default/checkout')).toBe('checkout');
    expect(entityName('component:checkout')).toBe('checkout');
    expect(entityName('checkout')).toBe('checkout');
  });
});
