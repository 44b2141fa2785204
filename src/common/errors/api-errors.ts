import { HttpException, HttpStatus } from '@nestjs/common';

export const INVALID_REQUEST_PREFIX = 'Invalid request. Please see message details.';

/** 400 with the spec's fixed prefix followed by `path: detail` items. */
export class InvalidRequestException extends HttpException {
  constructor(readonly details: string[]) {
    super(`${INVALID_REQUEST_PREFIX} ${details.join('; ')}`, HttpStatus.BAD_REQUEST);
  }
}

/** How to make a query cheaper, in the request's own terms. */
export const NARROW_THE_QUERY =
  'narrow it: a shorter dateRange, a coarser groupBy.dateGrouping, fewer groupBy.dimensions, more filters, or fewer /filters fields';

/**
 * A query over the operator's per-query budgets (time, memory, rows): the caller's to narrow, so a
 * documented 400, not a server failure. `budget` names the limit, e.g. `memory limit (CLICKHOUSE_MAX_MEMORY_BYTES)`.
 */
export class QueryBudgetExceededException extends InvalidRequestException {
  constructor(budget: string) {
    super([`query: exceeds the server's ${budget}; ${NARROW_THE_QUERY}.`]);
  }
}

/**
 * A question whose values are more than a ClickHouse server's HTTP interface takes in one request (a list of values
 * over its `http_max_field_value_size`, 128 KiB by default, or more parameters than its `http_max_fields`): the
 * caller's to shorten, so a documented 400. The embedded engine has no such limit.
 */
export class QueryValuesTooLargeException extends InvalidRequestException {
  constructor() {
    super([
      "query: its values are more than the ClickHouse server takes in one request (a list of values too long, or too many values in all: the server's http_max_field_value_size and http_max_fields); ask with fewer or shorter values, or in several questions",
    ]);
  }
}

/** An error whose message is safe to show to the client, with its status. */
export class ApiError extends HttpException {
  constructor(status: HttpStatus, message: string) {
    super(message, status);
  }
}

/**
 * Missing, expired or another organisation's shared filter: the spec's 500 envelope.
 * One message for all three, so a caller cannot tell them apart.
 */
export class SharedFilterNotFoundException extends ApiError {
  constructor() {
    super(HttpStatus.INTERNAL_SERVER_ERROR, 'Shared filter not found or has expired.');
  }
}

/** A backing store (ClickHouse or Redis) did not answer; details stay in the server log. */
export class UpstreamUnavailableException extends ApiError {
  constructor(what: string) {
    super(HttpStatus.INTERNAL_SERVER_ERROR, `${what} is temporarily unavailable. Please retry shortly.`);
  }
}

/**
 * On a ClickHouse cluster, a shard none of whose replicas answers: the spec's 500, saying what happened. The
 * other shards' rows alone would be a partial answer looking complete, so none is given.
 */
export class DataPartlyUnreachableException extends ApiError {
  constructor() {
    super(
      HttpStatus.INTERNAL_SERVER_ERROR,
      'Cost data is temporarily unavailable: part of the data store cannot be reached, and a partial answer is never given. Please retry shortly.',
    );
  }
}

/** 429 from a limit other than the request rate: the same message shape, with Retry-After (set by the filter). */
export class RetryLaterException extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    why: string,
  ) {
    super(HttpStatus.TOO_MANY_REQUESTS, `Rate limit exceeded: ${why}. Please retry after ${retryAfterSeconds} seconds.`);
  }
}

/**
 * An organisation already has as many statements running and queued on this instance as it may
 * (MAX_CONCURRENT_STATEMENTS_PER_ORGANIZATION + MAX_QUEUED_STATEMENTS_PER_ORGANIZATION).
 */
export class ConcurrencyLimitExceededException extends RetryLaterException {
  /** `byKey`: the asking API key holds its share of the organisation's queue (MAX_QUEUED_STATEMENTS_PER_KEY). */
  constructor(byKey = false) {
    super(1, byKey ? 'too many queries of this API key are in progress' : 'too many queries of this organisation are in progress');
  }
}

/**
 * An organisation's answers already being sent hold MAX_UNSENT_ANSWER_MB_PER_ORGANIZATION: its clients
 * are not reading them (or not yet); more would only pile up in the server's memory.
 */
export class AnswersUndeliveredException extends RetryLaterException {
  constructor() {
    super(5, 'earlier answers of this organisation are still being delivered (read them first)');
  }
}
