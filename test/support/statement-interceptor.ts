import { ClickhouseService, ReadOptions, StatementParameters } from '../../src/store/clickhouse/clickhouse.service';

/**
 * Test-only: every statement the app reads with (query and queryRaw) passes through `onStatement`,
 * which sees it and returns the SQL to run (the same, or e.g. with a SETTINGS clause appended).
 */
export function interceptStatements(
  clickhouse: ClickhouseService,
  onStatement: (sql: string, params: StatementParameters) => string,
): void {
  const query = clickhouse.query.bind(clickhouse);
  const queryRaw = clickhouse.queryRaw.bind(clickhouse);
  clickhouse.query = (async (sql: string, params: StatementParameters = {}, options?: ReadOptions) =>
    query(onStatement(sql, params), params, options)) as typeof clickhouse.query;
  clickhouse.queryRaw = (async (sql: string, params: StatementParameters = {}, options?: ReadOptions) =>
    queryRaw(onStatement(sql, params), params, options)) as typeof clickhouse.queryRaw;
}

/**
 * `sql` with `settings` added: to its closing SETTINGS clause when it has one (a statement names the projection it
 * prefers, projection-preference.ts), where a setting named twice takes the later value. A UNION ALL whose last
 * branch closes on its own SETTINGS (`… SETTINGS x = 'y')`, /filters) gets a clause of its own, for every branch.
 */
export function withSettings(sql: string, settings: string): string {
  return /\nSETTINGS [^\n)]*$/.test(sql) ? `${sql}, ${settings}` : `${sql}\nSETTINGS ${settings}`;
}

/** What one read statement sent back to the application: its rows (lines) and bytes. */
export interface StatementResult {
  sql: string;
  rows: number;
  /** queryRaw: the bytes received; query: the bytes of its rows as JSON lines (JSONEachRow, as received). */
  bytes: number;
}

/**
 * Test-only: reports the size of every read's result (query and queryRaw) to `onResult`, after it arrived, so a test
 * can count what ClickHouse returned for a request (rows and bytes, never time).
 */
export function measureResults(clickhouse: ClickhouseService, onResult: (result: StatementResult) => void): void {
  const query = clickhouse.query.bind(clickhouse);
  const queryRaw = clickhouse.queryRaw.bind(clickhouse);
  clickhouse.query = (async (sql: string, params: StatementParameters = {}, options?: ReadOptions) => {
    const rows = await query<unknown>(sql, params, options);
    onResult({ sql, rows: rows.length, bytes: rows.reduce<number>((sum, row) => sum + Buffer.byteLength(JSON.stringify(row)) + 1, 0) });
    return rows;
  }) as typeof clickhouse.query;
  clickhouse.queryRaw = (async (sql: string, params: StatementParameters = {}, options?: ReadOptions) => {
    const chunks = await queryRaw(sql, params, options);
    const newlines = chunks.reduce((sum, chunk) => sum + chunk.toString('latin1').split('\n').length - 1, 0);
    onResult({ sql, rows: newlines, bytes: chunks.reduce((sum, chunk) => sum + chunk.length, 0) });
    return chunks;
  }) as typeof clickhouse.queryRaw;
}
