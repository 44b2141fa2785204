import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Accepted as given when it looks like an id; anything else (log injection, megabyte headers) gets a new one. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id: the caller's (or the load balancer's) X-Request-Id when acceptable, else a new UUID; echoed back. */
export function requestId(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader('X-Request-Id', id);
  return id;
}

/** Express middleware: assigns the id before anything else answers (even 413/415), so every response carries it. */
export function assignRequestId(request: IncomingMessage, response: ServerResponse, next: () => void): void {
  request.id = requestId(request, response);
  next();
}
