import { ClickHouseError } from '@clickhouse/client';
import { ArgumentsHost, Logger } from '@nestjs/common';
import { ApiExceptionFilter } from '../../common/http/api-exception.filter';
import { asApiError, exceededQueryBudget, isUnreachableNodeError } from './clickhouse-errors';

/** Answers the API gives for a statement's error (as ClickhouseService raises it, through the filter), via a minimal Express double. */
function answerFor(error: unknown): { status: number; body: unknown } {
  const exception = asApiError(error);
  const answer = { status: 0, body: undefined as unknown };
  const response = {
    headersSent: false,
    status(code: number) {
      answer.status = code;
      return this;
    },
    json(body: unknown) {
      answer.body = body;
      return this;
    },
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => response, getRequest: () => ({ method: 'POST', path: '/v1/cost-insights/data' }) }),
  } as unknown as ArgumentsHost;
  new ApiExceptionFilter().catch(exception, host);
  return answer;
}

const clickhouseError = (code: string, type: string) =>
  new ClickHouseError({ message: `${type}: elapsed 1000.172 ms, maximum: 1000 ms. (version 26.7.2.1)`, code, type });

describe('ClickHouse query-budget errors', () => {
  it.each([
    ['159', 'TIMEOUT_EXCEEDED', 'time limit (CLICKHOUSE_MAX_EXECUTION_SECONDS)'],
    ['160', 'TOO_SLOW', 'time limit (CLICKHOUSE_MAX_EXECUTION_SECONDS)'],
    ['241', 'MEMORY_LIMIT_EXCEEDED', 'memory limit (CLICKHOUSE_MAX_MEMORY_BYTES)'],
    ['158', 'TOO_MANY_ROWS', 'row limit'],
    ['307', 'TOO_MANY_BYTES', 'data size limit'],
    ['396', 'TOO_MANY_ROWS_OR_BYTES', 'result size limit'],
  ])('answers %s %s with a 400 that names the budget and says how to narrow the query', (code, type, budget) => {
    expect(exceededQueryBudget(clickhouseError(code, type))).toBe(budget);
    const { status, body } = answerFor(clickhouseError(code, type));
    expect(status).toBe(400);
    expect(body).toEqual({
      success: false,
      error: {
        message:
          `Invalid request. Please see message details. query: exceeds the server's ${budget}; narrow it: a shorter dateRange, ` +
          'a coarser groupBy.dateGrouping, fewer groupBy.dimensions, more filters, or fewer /filters fields.',
      },
    });
    expect(JSON.stringify(body)).not.toMatch(/version|elapsed|maximum/);
  });

  it.each([
    ['Field value too long', 'a list of values over the http_max_field_value_size'],
    ['Too many form fields', 'more parameters than http_max_fields'],
  ])("answers a server's refusal of the request's parameters (%s: %s) with a 400 saying what to shorten", (refusal) => {
    // As @clickhouse/client raises it from a server's answer (seen on libchdb's HTTP interface, 26.7).
    const error = new Error(`Poco::Exception. Code: 1000, e.code() = 0, HTML Form Exception: ${refusal}\n`);
    expect(answerFor(error)).toEqual({
      status: 400,
      body: {
        success: false,
        error: {
          message:
            'Invalid request. Please see message details. query: its values are more than the ClickHouse server takes in one ' +
            "request (a list of values too long, or too many values in all: the server's http_max_field_value_size and " +
            'http_max_fields); ask with fewer or shorter values, or in several questions',
        },
      },
    });
  });

  it('keeps every other ClickHouse error a generic 500 without internals, its cause in the log', () => {
    // The cause goes to the log (caught here: an expected error is no red line in the test output).
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      for (const error of [
        clickhouseError('60', 'UNKNOWN_TABLE'),
        clickhouseError('159', 'SOMETHING_ELSE'),
        new Error('socket hang up'),
        'text',
      ]) {
        expect(exceededQueryBudget(error)).toBeUndefined();
        expect(answerFor(error)).toEqual({ status: 500, body: { success: false, error: { message: 'Internal server error.' } } });
      }
      expect(logged.mock.calls.map(([line]) => String(line))).toEqual([
        expect.stringContaining('POST /v1/cost-insights/data failed: Error: UNKNOWN_TABLE'),
        expect.stringContaining('POST /v1/cost-insights/data failed: Error: SOMETHING_ELSE'),
        'POST /v1/cost-insights/data failed: Error: socket hang up',
        'POST /v1/cost-insights/data failed: text',
      ]);
    } finally {
      logged.mockRestore();
    }
  });

  it.each([
    ['279', 'ALL_CONNECTION_TRIES_FAILED'],
    ['210', 'NETWORK_ERROR'],
    ['32', 'ATTEMPT_TO_READ_AFTER_EOF'],
    ['209', 'SOCKET_TIMEOUT'],
  ])('answers %s %s (another node of the cluster did not answer) with the 500 that says so, without internals', (code, type) => {
    const error = new ClickHouseError({
      message: `Connection refused (127.0.0.1:9000, local address: 127.0.0.1:40000). (${type})`,
      code,
      type,
    });
    expect(isUnreachableNodeError(error)).toBe(true);
    expect(answerFor(error)).toEqual({
      status: 500,
      body: {
        success: false,
        error: {
          message:
            'Cost data is temporarily unavailable: part of the data store cannot be reached, and a partial answer is never given. Please retry shortly.',
        },
      },
    });
    expect(isUnreachableNodeError(clickhouseError('60', 'UNKNOWN_TABLE'))).toBe(false);
    expect(isUnreachableNodeError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
  });
});
