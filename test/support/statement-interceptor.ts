import { ClickhouseService, ReadOptions, StatementParameters } from '../../src/infrastructure/clickhouse/clickhouse.service';

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
