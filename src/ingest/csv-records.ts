/** One record of a CSV text: its fields and the line it starts on (1 = the first line). */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/**
 * The records of a CSV text (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks; CRLF or LF;
 * a UTF-8 BOM ignored; blank lines skipped). An unterminated quote is an error naming the line it opened on.
 */
export function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quotedFrom = 0;
  const endRecord = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0] !== '') records.push({ fields, line: recordLine });
    fields = [];
    field = '';
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (quotedFrom > 0) {
      if (ch === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quotedFrom = 0;
      else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"') quotedFrom = line;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && source[i + 1] === '\n') i++;
      endRecord();
      recordLine = ++line;
    } else field += ch;
  }
  if (quotedFrom > 0) throw new Error(`line ${quotedFrom}: a quoted field is never closed`);
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}
