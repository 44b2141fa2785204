/**
 * RFC 4180 CSV: fields separated by commas, records ended by CRLF, every text field in double quotes
 * (a quote doubled inside), numbers bare: the same style as ClickHouse's own CSV output, so rows written
 * by ClickHouse and rows written here read alike.
 */
import { csvSafeText } from '../common/csv/spreadsheet-formulas';

export type CsvField = string | number;

export const CSV_RECORD_END = '\r\n';

/** One record, with its CRLF. */
export function csvRecord(fields: readonly CsvField[]): string {
  return fields.map(csvField).join(',') + CSV_RECORD_END;
}

function csvField(field: CsvField): string {
  // Numbers as JSON writes them, so a CSV value has the same digits as the JSON answer's; text never a formula.
  return typeof field === 'number' ? JSON.stringify(field) : `"${csvSafeText(field).replace(/"/g, '""')}"`;
}

/** A CSV answer: its records as chunks (some may be the bytes ClickHouse wrote), in order. */
export class CsvText {
  readonly chunks: Buffer[];

  constructor(...pieces: (string | Buffer)[]) {
    this.chunks = pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece));
  }
}
