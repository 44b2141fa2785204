import { parseRatesFile, RatesFileError } from './rates-file';

const problemsOf = (text: string, source?: string): string[] => {
  try {
    parseRatesFile(text, source);
  } catch (error) {
    if (error instanceof RatesFileError) return error.problems;
    throw error;
  }
  throw new Error('parsed');
};

describe('rates files', () => {
  it('reads the ECB file as published: EUR base, trailing commas, N/A and empty cells skipped, withdrawn codes', () => {
    const text =
      '\uFEFFDate,USD,JPY,CYP,\r\n2024-11-22,1.0412,161.31,N/A,\r\n2024-11-21,1.0474,161.89,,\r\n\r\n2007-12-31,1.4721,164.93,0.585274,\r\n';
    const parsed = parseRatesFile(text);
    expect(parsed.format).toBe('ecb');
    expect(parsed.rates).toEqual([
      { date: '2024-11-22', base: 'EUR', quote: 'USD', rate: '1.0412', source: 'ECB' },
      { date: '2024-11-22', base: 'EUR', quote: 'JPY', rate: '161.31', source: 'ECB' },
      { date: '2024-11-21', base: 'EUR', quote: 'USD', rate: '1.0474', source: 'ECB' },
      { date: '2024-11-21', base: 'EUR', quote: 'JPY', rate: '161.89', source: 'ECB' },
      { date: '2007-12-31', base: 'EUR', quote: 'USD', rate: '1.4721', source: 'ECB' },
      { date: '2007-12-31', base: 'EUR', quote: 'JPY', rate: '164.93', source: 'ECB' },
      { date: '2007-12-31', base: 'EUR', quote: 'CYP', rate: '0.585274', source: 'ECB' },
    ]);
    expect(parsed.pairs).toEqual([
      { pair: 'EUR/CYP', rates: 1, first: '2007-12-31', last: '2007-12-31' },
      { pair: 'EUR/JPY', rates: 3, first: '2007-12-31', last: '2024-11-22' },
      { pair: 'EUR/USD', rates: 3, first: '2007-12-31', last: '2024-11-22' },
    ]);
  });

  it('reads a pairs file, with or without a source column; an exact repeat is one rate', () => {
    expect(parseRatesFile('date,from,to,rate\n2024-11-22,GBP,USD,1.2530\n2024-11-22,GBP,USD,1.253\n', 'treasury.csv').rates).toEqual([
      { date: '2024-11-22', base: 'GBP', quote: 'USD', rate: '1.253', source: 'treasury.csv' },
    ]);
    expect(parseRatesFile('date,from,to,rate,source\n2024-11-22,GBP,USD,1.253,bank\n').rates[0].source).toBe('bank');
  });

  it('refuses a bad header', () => {
    expect(problemsOf('when,USD\n')).toEqual([
      'line 1: expected the header of an ECB reference-rate file (Date,USD,JPY,…) or of a pairs file (date,from,to,rate or date,from,to,rate,source)',
    ]);
    expect(problemsOf('date,from,to,value\n', 'x')).toEqual([
      'line 1: the header must be date,from,to,rate or date,from,to,rate,source, not date,from,to,value',
    ]);
    expect(problemsOf('Date,USD,EURO,\n')).toEqual(['line 1: column 3 ("EURO") is not an ISO 4217 currency code']);
    expect(problemsOf('date,from,to,rate\n2024-11-22,GBP,USD,1.25\n')).toEqual([
      'line 1: the file has no source column; name the source of its rates with ?source=<name> on POST /v1/admin/exchange-rates (--source <name> for `rates import`), or add a source column',
    ]);
  });

  it('refuses non-numeric, zero, negative and over-precise rates, bad and out-of-range dates, unknown codes, naming each line', () => {
    const text = [
      'date,from,to,rate,source',
      '2024-11-22,GBP,USD,abc,x',
      '2024-11-22,GBP,USD,0,x',
      '2024-11-22,GBP,CHF,-1.2,x',
      '2024-11-31,GBP,USD,1.2,x',
      '2100-01-01,GBP,USD,1.2,x',
      '2024-11-22,GBP,usd,1.2,x',
      '2024-11-22,GBP,GBP,1,x',
      '2024-11-22,GBP,JPY,1.1234567890123456789,x',
      '2024-11-22,GBP,JPY',
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      'line 2: the rate "abc" is not a decimal number',
      'line 3: the rate 0 is not positive',
      'line 4: the rate -1.2 is not positive',
      'line 5: "2024-11-31" is not a date (YYYY-MM-DD)',
      'line 6: 2100-01-01 is outside the dates rates may have (1990-01-01 to 2099-12-31)',
      'line 7: "usd" is not an ISO 4217 currency code',
      'line 8: a rate from GBP to itself',
      'line 9: the rate 1.1234567890123456789 has more than 18 decimal places',
      'line 10: expected 5 fields, found 3',
    ]);
  });

  it('refuses two different values for one date and pair, naming both lines', () => {
    expect(problemsOf('Date,USD,\n2024-11-22,1.0412,\n2024-11-21,1.0474,\n2024-11-22,1.0413,\n')).toEqual([
      'lines 2 and 4: two rates for EUR/USD on 2024-11-22 (1.0412 and 1.0413)',
    ]);
  });

  it('refuses a rate outside 1e-12 to 1e12, naming the line; takes the bounds themselves', () => {
    const text = [
      'date,from,to,rate,source',
      '2024-11-22,EUR,USD,99999999999999999999,x',
      '2024-11-22,EUR,GBP,0.000000000000000001,x',
      '2024-11-22,EUR,JPY,1000000000000.000000000000000001,x',
      '2024-11-22,EUR,CHF,0.000000000000999999,x',
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      'line 2: the rate 99999999999999999999 is outside 1e-12 to 1e12',
      'line 3: the rate 0.000000000000000001 is outside 1e-12 to 1e12',
      'line 4: the rate 1000000000000.000000000000000001 is outside 1e-12 to 1e12',
      'line 5: the rate 0.000000000000999999 is outside 1e-12 to 1e12',
    ]);
    expect(problemsOf('Date,USD,\n2024-11-22,1000000000000.000000000000000001,\n2024-11-21,1000000000001,\n')).toEqual([
      'line 2: the USD rate 1000000000000.000000000000000001 is outside 1e-12 to 1e12',
      'line 3: the USD rate 1000000000001 is outside 1e-12 to 1e12',
    ]);
    expect(
      parseRatesFile('date,from,to,rate,source\n2024-11-22,EUR,USD,1000000000000,x\n2024-11-23,EUR,USD,0.000000000001,x\n').rates,
    ).toHaveLength(2);
  });

  it('refuses two rates of one base and date whose cross rate is outside 1e-12 to 1e12, naming both lines', () => {
    // 7e11 ÷ 0.5 = 1.4e12; the other way 0.5 ÷ 7e11 rounds (18 places) to 0.000000000000714286.
    expect(
      problemsOf('date,from,to,rate,source\n2024-11-22,USD,CHF,0.5,x\n2024-11-22,USD,EUR,2,x\n2024-11-22,USD,JPY,700000000000,x\n'),
    ).toEqual([
      'lines 2 and 4: USD/CHF 0.5 and USD/JPY 700000000000 of 2024-11-22 give the cross rate CHF/JPY 1400000000000, outside 1e-12 to 1e12',
    ]);
    // The highest before the lowest, on one ECB line; another date and another base are other crosses.
    expect(problemsOf('Date,USD,JPY,\n2024-11-22,20000000,0.00001,\n2024-11-21,1,1,\n')).toEqual([
      'line 2: EUR/JPY 0.00001 and EUR/USD 20000000 of 2024-11-22 give the cross rate JPY/USD 2000000000000, outside 1e-12 to 1e12',
    ]);
    // Exactly 1e12 apart: on the bound, taken; a leg of another date or base is no cross.
    expect(parseRatesFile('Date,USD,JPY,\n2024-11-22,1000000,0.000001,\n').rates).toHaveLength(2);
    expect(
      parseRatesFile(
        'date,from,to,rate,source\n2024-11-22,EUR,USD,1000000,x\n2024-11-21,EUR,JPY,0.000001,x\n2024-11-22,GBP,JPY,0.000001,x\n',
      ).rates,
    ).toHaveLength(3);
  });

  it('takes a source of at most 64 letters, digits, spaces or ._:/()+- starting with a letter or digit; refuses any other, naming the line', () => {
    const rule = 'must be 1 to 64 letters, digits, spaces or ._:/()+-, starting with a letter or digit';
    const sources = ['a'.repeat(65), '=HYPERLINK(http://evil.example/x)', '+SUM(A1)', '-2+3', '@cmd', 'bank;x', 'ÉCB"', ''];
    const text = ['date,from,to,rate,source', ...sources.map((source, i) => `2024-11-${10 + i},EUR,USD,1.1,${source}`)].join('\n');
    expect(problemsOf(text)).toEqual(sources.map((_, i) => `line ${i + 2}: the source ${rule}`));
    const fine = ['a'.repeat(64), 'ECB', 'Banque de France (BdF) 2024/11', 'treasury.csv', 'ÉCB+FX_desk-1:a'];
    const parsed = parseRatesFile(
      ['date,from,to,rate,source', ...fine.map((source, i) => `2024-11-${10 + i},EUR,USD,1.1,${source}`)].join('\n'),
    );
    expect(parsed.rates.map((rate) => rate.source)).toEqual(fine);
    // The name of a file without a source column follows the same rule.
    expect(problemsOf('date,from,to,rate\n2024-11-22,GBP,USD,1.25\n', '=HYPERLINK(x)')).toEqual([`the source of its rates ${rule}`]);
    expect(problemsOf('Date,USD,\n2024-11-22,1.1,\n', 'a'.repeat(65))).toEqual([`the source of its rates ${rule}`]);
  });

  it('refuses a file without rates', () => {
    expect(problemsOf('Date,USD,\n2024-11-22,N/A,\n')).toEqual(['the file holds no rate']);
  });
});
