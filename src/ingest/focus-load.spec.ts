import { FocusFile, FocusIngestError } from './focus-files';
import { loadFailure } from './focus-load';

const unread = () => Promise.reject(new Error('not read here'));
const parquet: FocusFile = { name: '/exports/focus-2025-01.parquet', open: unread, bytes: 1, format: 'Parquet', gzip: false };
const csv: FocusFile = { ...parquet, name: '/exports/focus-2025-01.csv', format: 'CSVWithNames' };

/** A ClickHouse error as the client raises it: message, numeric code as text, type. */
function clickhouseError(message: string, code: string, type: string): Error {
  return Object.assign(new Error(message), { code, type });
}

describe('loadFailure', () => {
  it('names the memory budget, not a parse error, when the server refused the read for memory', () => {
    const error = clickhouseError('Query memory limit exceeded: would use 1.50 GiB', '241', 'MEMORY_LIMIT_EXCEEDED');
    expect(loadFailure(error, parquet).message).toBe(
      '/exports/focus-2025-01.parquet: reading it exceeded the memory limit (CLICKHOUSE_MAX_MEMORY_BYTES); nothing was imported (raise the limit and import it again)',
    );
  });

  it('names the time budget when the read ran out of time', () => {
    const error = clickhouseError('Timeout exceeded: elapsed 600 seconds', '159', 'TIMEOUT_EXCEEDED');
    expect(loadFailure(error, csv).message).toContain('exceeded the time limit (CLICKHOUSE_MAX_EXECUTION_SECONDS)');
  });

  it("turns a CSV parse error's data row into the file's line", () => {
    const error = clickhouseError(
      'Cannot parse input: expected \',\' before: "x" (at row 41)\nRow 41: ...',
      '27',
      'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
    );
    expect(loadFailure(error, csv).message).toBe(
      `/exports/focus-2025-01.csv: cannot be parsed as CSV: line 42: Cannot parse input: expected ',' before: "x"`,
    );
  });

  it('passes an import error through as it is', () => {
    const error = new FocusIngestError('already explained');
    expect(loadFailure(error, parquet)).toBe(error);
  });
});
