import { lastDayOfPeriod, LoadedRate, RateBook } from './exchange-rates';

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
