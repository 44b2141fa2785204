import { parse } from 'csv-parse/sync';
import { csvSafeText } from '../common/csv/spreadsheet-formulas';
import { csvRecord } from './csv-text';

describe('csvRecord', () => {
  it('quotes every text field, doubles its quotes, leaves numbers bare and ends with CRLF', () => {
    expect(csvRecord(['a', 'b, c', 'say "hi"', 'two\r\nlines', '', 12.5, -0.001, 0])).toBe(
      '"a","b, c","say ""hi""","two\r\nlines","",12.5,-0.001,0\r\n',
    );
  });

  it('writes numbers with the digits JSON writes', () => {
    for (const value of [0.1 + 0.2, 1e21, 5e-7, 123456789.123456]) expect(csvRecord([value])).toBe(`${JSON.stringify(value)}\r\n`);
  });

  it('reads back with a CSV parser as the same fields', () => {
    const fields = ['Storage, "cold" tier', 'multi\nline', 'Zürich €', '1=1', '007'];
    expect(parse(csvRecord(fields) + csvRecord(fields))).toEqual([fields, fields]);
  });

  it('puts a quote mark in front of text a spreadsheet would evaluate (=, +, -, @, TAB, CR), never in front of numbers', () => {
    expect(csvRecord(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', -1.5, 'a=b', ''])).toBe(
      `"'=1+1","'+1","'-1","'@SUM(A1)","'\tx","'\rx",-1.5,"a=b",""\r\n`,
    );
    expect(csvSafeText("=cmd|' /C calc'!A0")).toBe("'=cmd|' /C calc'!A0");
    expect(csvSafeText('\n=1')).toBe('\n=1');
  });
});
