import { HttpException, HttpStatus } from '@nestjs/common';

export const INVALID_REQUEST_PREFIX = 'Invalid request. Please see message details.';

/** 400 with the spec's fixed prefix followed by `path: detail` items. */
export class InvalidRequestException extends HttpException {
  constructor(readonly details: string[]) {
    super(`${INVALID_REQUEST_PREFIX} ${details.join('; ')}`, HttpStatus.BAD_REQUEST);
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
