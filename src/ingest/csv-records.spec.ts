import { csvRecords } from './csv-records';

describe('csvRecords', () => {
  it('reads quoted fields holding commas and doubled quotes', () => {
    // "a, b" is one field; "say ""hi""" is say "hi"; an empty quoted field is ''.
    expect(csvRecords('id,text\n1,"a, b"\n2,"say ""hi""",""\n')).toEqual([
      { fields: ['id', 'text'], line: 1 },
      { fields: ['1', 'a, b'], line: 2 },
      { fields: ['2', 'say "hi"', ''], line: 3 },
    ]);
  });

  it('keeps a line break inside quotes in the field, and counts it in the next record’s line', () => {
    // Record 2 opens on line 2 and ends on line 3 (its field spans both); record 3 starts on line 4.
    expect(csvRecords('a,b\n1,"two\nlines"\n2,x\n')).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['1', 'two\nlines'], line: 2 },
      { fields: ['2', 'x'], line: 4 },
    ]);
  });

  it('reads CRLF line ends and ignores a UTF-8 BOM', () => {
    expect(csvRecords('\uFEFFa,b\r\n1,2\r\n3,"x\r\ny"\r\n4,5\r\n')).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['1', '2'], line: 2 },
      { fields: ['3', 'x\r\ny'], line: 3 },
      { fields: ['4', '5'], line: 5 },
    ]);
  });

  it('skips blank lines (still counting them) and reads a last line without a newline', () => {
    // Lines: 1 'a', 2 '', 3 'b', 4 '' (CRLF), 5 '', 6 'c,d' with no newline after it.
    expect(csvRecords('a\n\nb\r\n\r\n\nc,d')).toEqual([
      { fields: ['a'], line: 1 },
      { fields: ['b'], line: 3 },
      { fields: ['c', 'd'], line: 6 },
    ]);
    expect(csvRecords('')).toEqual([]);
    expect(csvRecords('\n\r\n')).toEqual([]);
    // A trailing comma is an empty last field, also on a last line without a newline.
    expect(csvRecords('x,')).toEqual([{ fields: ['x', ''], line: 1 }]);
  });

  it('names the line an unterminated quote opened on', () => {
    // The quote opens on line 3 and is still open at the end (line 4).
    expect(() => csvRecords('a,b\n1,2\n3,"open\nstill open')).toThrow(new Error('line 3: a quoted field is never closed'));
    expect(() => csvRecords('"')).toThrow('line 1: a quoted field is never closed');
  });
});
