import { isApplicableRate, isRateSource, lastDayOfPeriod, LoadedRate, RATE_RANGE, RateBook } from './exchange-rates';
import { parseExactDecimal } from './exact-decimal';

const rate = (date: string, base: string, quote: string, value: string, source = 'ECB'): LoadedRate => ({
  date,
  base,
  quote,
  rate: value,
  source,
});

// Expected quotients computed with Python's decimal module (60 digits, ROUND_HALF_EVEN, 18 places), not by this code.
describe('RateBook', () => {
  const book = new RateBook([
    rate('2024-11-22', 'EUR', 'USD', '1.0412'),
    rate('2024-11-22', 'EUR', 'JPY', '161.31'),
    rate('2024-11-22', 'EUR', 'GBP', '0.8567', 'treasury'),
    rate('2024-11-25', 'EUR', 'USD', '1.0493'),
    rate('2024-11-25', 'USD', 'EUR', '0.95', 'bank'), // direct wins over the inverse of EUR/USD on the same date
  ]);

  it('takes a direct rate as loaded', () => {
    expect(book.rateOn('EUR', 'USD', '2024-11-22')).toEqual({
      from: 'EUR',
      to: 'USD',
      date: '2024-11-22',
      rateDate: '2024-11-22',
      rate: '1.0412',
      derivation: 'direct',
      source: 'ECB',
    });
  });

  it('inverts a rate loaded the other way, to 18 places', () => {
    expect(book.rateOn('USD', 'EUR', '2024-11-22')).toMatchObject({ rate: '0.960430272762197464', derivation: 'inverse', source: 'ECB' });
  });

  it('prefers a direct rate to an inverse one of the same date', () => {
    expect(book.rateOn('USD', 'EUR', '2024-11-25')).toMatchObject({ rate: '0.95', derivation: 'direct', source: 'bank' });
  });

  it('crosses two rates of a common base, naming both sources when they differ', () => {
    expect(book.rateOn('USD', 'JPY', '2024-11-22')).toMatchObject({
      rate: '154.927007299270072993',
      derivation: 'cross',
      via: 'EUR',
      source: 'ECB',
    });
    expect(book.rateOn('USD', 'GBP', '2024-11-22')).toMatchObject({ rate: '0.822800614675374568', via: 'EUR', source: 'ECB+treasury' });
  });

  it('fills a day without a rate from the latest earlier one up to 7 days back, and no further', () => {
    expect(book.rateOn('EUR', 'JPY', '2024-11-24')).toMatchObject({ date: '2024-11-24', rateDate: '2024-11-22', rate: '161.31' });
    expect(book.rateOn('EUR', 'JPY', '2024-11-29')).toMatchObject({ rateDate: '2024-11-22' });
    expect(book.rateOn('EUR', 'JPY', '2024-11-30')).toBeUndefined();
    expect(book.rateOn('EUR', 'JPY', '2024-11-21')).toBeUndefined();
    // The latest date wins over a better derivation of an older one.
    expect(book.rateOn('EUR', 'USD', '2024-11-26')).toMatchObject({ rateDate: '2024-11-25', rate: '1.0493' });
  });

  it('knows nothing of currencies it has no rates for', () => {
    expect(book.rateOn('CHF', 'USD', '2024-11-22')).toBeUndefined();
  });

  it('refuses a rate that is not positive', () => {
    expect(() => new RateBook([rate('2024-11-22', 'EUR', 'USD', '0')])).toThrow('not a positive rate');
  });
});

describe('rates outside 1e-12 to 1e12 (RATE_RANGE)', () => {
  it('are the rates below 10^-12 or above 10^12, the bounds included', () => {
    const applicable = (text: string) => isApplicableRate(parseExactDecimal(text)!);
    expect(RATE_RANGE.text).toBe('1e-12 to 1e12');
    expect(['0.000000000001', '1000000000000', '1000000000000.000000000000000000', '1'].map(applicable)).toEqual([true, true, true, true]);
    expect(['0', '0.000000000000999999999999', '1000000000000.000000000000000001', '99999999999999999999'].map(applicable)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  // The finding: EUR→USD ~1e20 and EUR→GBP 1e-18 cross USD→GBP at 1e-38, which rounds to 0 at 18 places.
  const book = new RateBook([
    rate('2024-11-22', 'EUR', 'USD', '99999999999999999999', 'legacy'),
    rate('2024-11-22', 'EUR', 'GBP', '0.000000000000000001', 'legacy'),
    rate('2024-11-22', 'EUR', 'JPY', '1000000000000'),
    rate('2024-11-22', 'EUR', 'CHF', '0.000000000001'),
    rate('2024-11-21', 'EUR', 'GBP', '0.85'),
    rate('2024-11-21', 'EUR', 'USD', '1.05'),
  ]);

  it('are found, as derived and rounded, but never applied: not replaced by an older or less preferred rate', () => {
    expect(book.rateFoundOn('USD', 'GBP', '2024-11-22')).toMatchObject({
      rate: '0',
      derivation: 'cross',
      via: 'EUR',
      rateDate: '2024-11-22',
    });
    expect(book.rateOn('USD', 'GBP', '2024-11-22')).toBeUndefined();
    expect(book.rateFoundOn('EUR', 'USD', '2024-11-22')).toMatchObject({ rate: '99999999999999999999', derivation: 'direct' });
    expect(book.rateOn('EUR', 'USD', '2024-11-22')).toBeUndefined();
    expect(book.rateFoundOn('GBP', 'EUR', '2024-11-22')).toMatchObject({ rate: '1000000000000000000', derivation: 'inverse' });
    expect(book.rateOn('GBP', 'EUR', '2024-11-22')).toBeUndefined();
    // 21 November's rates are in range; the 22nd's are not, and are not passed over for them.
    expect(book.rateOn('USD', 'GBP', '2024-11-21')).toMatchObject({ rate: '0.809523809523809524' });
    expect(book.rateOn('USD', 'GBP', '2024-11-23')).toBeUndefined();
  });

  it('apply on the bounds: the inverse of a rate inside is inside; a cross of two bounds is outside', () => {
    expect(book.rateOn('JPY', 'EUR', '2024-11-22')).toMatchObject({ rate: '0.000000000001', derivation: 'inverse' });
    expect(book.rateOn('CHF', 'EUR', '2024-11-22')).toMatchObject({ rate: '1000000000000', derivation: 'inverse' });
    expect(book.rateFoundOn('CHF', 'JPY', '2024-11-22')).toMatchObject({ rate: '1000000000000000000000000', derivation: 'cross' });
    expect(book.rateOn('CHF', 'JPY', '2024-11-22')).toBeUndefined();
    expect(book.rateOn('JPY', 'CHF', '2024-11-22')).toBeUndefined();
  });
});

describe('isRateSource', () => {
  it('takes 1 to 64 letters, digits, spaces or ._:/()+- starting with a letter or digit', () => {
    expect(['ECB', 'a'.repeat(64), 'Banque de France (BdF) 2024/11', 'ÉCB+FX_desk-1:a', '7'].map(isRateSource)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    const refused = ['', 'a'.repeat(65), '=HYPERLINK(x)', '+SUM(A1)', '-2+3', '@cmd', ' ECB', 'a\tb', 'a"b', 'a,b', 'a|b', 'e\u0301cb'];
    expect(refused.filter(isRateSource)).toEqual([]);
  });
});

describe('lastDayOfPeriod', () => {
  it('is the last day of the month, leap years included', () => {
    expect(['2024-02', '2023-02', '2024-12', '2026-04'].map(lastDayOfPeriod)).toEqual([
      '2024-02-29',
      '2023-02-28',
      '2024-12-31',
      '2026-04-30',
    ]);
  });
});
