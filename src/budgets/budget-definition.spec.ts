import {
  amountFor,
  amountsProblems,
  amountText,
  periodContaining,
  periodOfLabel,
  reaches,
  shiftPeriod,
  thresholdAmount,
  thresholdsProblems,
} from './budget-definition';
import { scaled } from '../common/money/scaled-decimal';

describe('budget periods', () => {
  it('names the month, quarter and year holding a day, ends included', () => {
    expect(periodContaining('monthly', '2024-02-29')).toEqual({ label: '2024-02', start: '2024-02-01', end: '2024-02-29' });
    expect(periodContaining('quarterly', '2026-11-29')).toEqual({ label: '2026-Q4', start: '2026-10-01', end: '2026-12-31' });
    expect(periodContaining('quarterly', '2026-01-01')).toEqual({ label: '2026-Q1', start: '2026-01-01', end: '2026-03-31' });
    expect(periodContaining('yearly', '2026-07-04')).toEqual({ label: '2026', start: '2026-01-01', end: '2026-12-31' });
  });

  it('steps back and forth across year ends', () => {
    const january = periodContaining('monthly', '2027-01-15');
    expect(shiftPeriod('monthly', january, -1).label).toBe('2026-12');
    expect(shiftPeriod('quarterly', periodContaining('quarterly', '2027-02-01'), -1).label).toBe('2026-Q4');
    expect(shiftPeriod('yearly', periodContaining('yearly', '2027-02-01'), -12).label).toBe('2015');
  });

  it('reads labels of its own kind only', () => {
    expect(periodOfLabel('quarterly', '2026-Q3')).toEqual({ label: '2026-Q3', start: '2026-07-01', end: '2026-09-30' });
    expect(periodOfLabel('monthly', '2026-Q3')).toBeUndefined();
    expect(periodOfLabel('monthly', '2026-13')).toBeUndefined();
    expect(periodOfLabel('yearly', '2026')).toEqual({ label: '2026', start: '2026-01-01', end: '2026-12-31' });
  });
});

describe('budget amounts', () => {
  it('takes positive decimals as text or number, at most 10 places', () => {
    expect(amountText('3000')).toBe('3000');
    expect(amountText(3500.25)).toBe('3500.25');
    expect(amountText('007.5')).toBe('7.5');
    for (const bad of ['0', '-1', 'abc', '1e3', '1.12345678901', '', null, -2, 0]) expect(amountText(bad)).toBeUndefined();
  });

  it('plans a period its own amount, else the default', () => {
    const amounts = { default: '3000', '2026-12': '3500' };
    expect(amountFor(amounts, periodContaining('monthly', '2026-12-05'))).toBe('3500');
    expect(amountFor(amounts, periodContaining('monthly', '2027-01-05'))).toBe('3000');
    expect(amountFor({ '2026-12': '1' }, periodContaining('monthly', '2027-01-05'))).toBeUndefined();
  });

  it('refuses gaps and plans that miss the current period, when there is no default', () => {
    expect(amountsProblems('monthly', { '2026-11': '1', '2026-12': '2' }, '2026-11-29')).toEqual([]);
    expect(amountsProblems('monthly', { '2026-10': '1', '2027-01': '2' }, '2026-11-29')).toEqual([
      'amounts: without a default, every period from the first planned to the last needs an amount; missing 2026-11, 2026-12',
    ]);
    expect(amountsProblems('quarterly', { '2027-Q1': '1' }, '2026-11-29')).toEqual([
      'amounts: without a default, the planned periods must include the current one (2026-Q4)',
    ]);
    expect(amountsProblems('yearly', { default: '5', '2026-Q1': '1' }, '2026-11-29')).toEqual([
      'amounts.2026-Q1: expected "default" or a yearly period such as 2026',
    ]);
    expect(amountsProblems('monthly', {}, '2026-11-29')[0]).toMatch(/^amounts: expected/);
  });
});

describe('budget thresholds', () => {
  it('compares exactly: 80 % of 0.1 is reached by 0.08, not by 0.0799999999', () => {
    expect(reaches(scaled('0.08'), '0.1', 80)).toBe(true);
    expect(reaches(scaled('0.0799999999'), '0.1', 80)).toBe(false);
    expect(thresholdAmount('3000', 150)).toBe('4500');
    expect(thresholdAmount('0.0000000003', 50)).toBe('0.0000000002'); // half up at the 10th place
  });

  it('names a kind and percent given twice', () => {
    expect(
      thresholdsProblems([
        { kind: 'actual', percent: 80 },
        { kind: 'forecast', percent: 80 },
        { kind: 'actual', percent: 80 },
      ]),
    ).toEqual(['thresholds[2]: actual 80 % is given twice']);
  });
});
