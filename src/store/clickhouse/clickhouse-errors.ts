import { DataPartlyUnreachableException, QueryBudgetExceededException, QueryValuesTooLargeException } from '../../common/errors/api-errors';

/**
 * ClickHouse errors that mean "this query is too expensive for the configured budget", not "the
 * service is broken". The API answers them with a 400 that says how to narrow the query (like the
 * MAX_RESULT_ROWS guardrail) instead of a generic 500; the limits are the operator's, the fix is the caller's.
 */
const BUDGET_ERRORS: Record<string, { type: string; budget: string }> = {
  '158': { type: 'TOO_MANY_ROWS', budget: 'row limit' },
  '159': { type: 'TIMEOUT_EXCEEDED', budget: 'time limit (CLICKHOUSE_MAX_EXECUTION_SECONDS)' },
  '160': { type: 'TOO_SLOW', budget: 'time limit (CLICKHOUSE_MAX_EXECUTION_SECONDS)' },
  '241': { type: 'MEMORY_LIMIT_EXCEEDED', budget: 'memory limit (CLICKHOUSE_MAX_MEMORY_BYTES)' },
  '307': { type: 'TOO_MANY_BYTES', budget: 'data size limit' },
  '396': { type: 'TOO_MANY_ROWS_OR_BYTES', budget: 'result size limit' },
};

/**
 * The budget a ClickHouse error reports as exceeded (duck-typed on the client's ClickHouseError
 * `code`/`type`, which both the server and the embedded engine produce), or undefined.
 */
export function exceededQueryBudget(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, type } = error as Error & { code?: unknown; type?: unknown };
  const known = typeof code === 'string' ? BUDGET_ERRORS[code] : undefined;
  if (known && (type === undefined || type === known.type)) return known.budget;
  return undefined;
}

/**
 * Errors of the node a statement reached about another node it needed (a Distributed table's shard): the
 * connection was refused or lost. Raised by a server only for work it shares with other nodes.
 */
const UNREACHABLE_NODE_CODES = new Set([
  '32', // ATTEMPT_TO_READ_AFTER_EOF: a replica died while answering
  '209', // SOCKET_TIMEOUT
  '210', // NETWORK_ERROR: connection refused or reset
  '279', // ALL_CONNECTION_TRIES_FAILED: no replica of a shard accepted
]);

/** The statement failed because another node of the cluster did not answer (retrying may reach its twin). */
export function isUnreachableNodeError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as Error & { code?: unknown };
  return typeof code === 'string' && UNREACHABLE_NODE_CODES.has(code);
}

/**
 * The server's HTTP interface refused the request's parameters before reading the statement (its form limits:
 * `http_max_field_value_size` per value, `http_max_fields` in all). Reported as Poco's exception, code 1000.
 */
export function isRequestFormLimitError(error: unknown): boolean {
  return error instanceof Error && /HTML Form Exception: (Field value too long|Too many form fields)/.test(error.message);
}

/**
 * What ClickhouseService raises for a failed read: a budget error, or values more than the server's HTTP interface
 * takes, as the API's 400; a node that did not answer as the 500 that says so; anything else as it is.
 */
export function asApiError(error: unknown): unknown {
  const budget = exceededQueryBudget(error);
  if (budget) return new QueryBudgetExceededException(budget);
  if (isRequestFormLimitError(error)) return new QueryValuesTooLargeException();
  return isUnreachableNodeError(error) ? new DataPartlyUnreachableException() : error;
}
