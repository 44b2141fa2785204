import { json, text } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { INVALID_REQUEST_PREFIX } from '../errors/api-errors';
import { errorEnvelope } from './envelope';

/**
 * JSON body parsing with envelope errors: a body in another content type is 415, malformed JSON
 * is 400, an oversized body is 413. (Express' own parser errors would bypass the Nest filter.)
 */
export function jsonBody(limitBytes: number) {
  const parse = json({ limit: limitBytes, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req) || isParsed(req)) return next();
    const type = req.headers['content-type'] ?? '';
    if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type)) {
      res.status(415).json(errorEnvelope('Unsupported content type: send the request body as application/json.'));
      return;
    }
    parse(req, res, (error?: { type?: string; status?: number }) => {
      if (!error) {
        // Refused before anything walks the body: the validation pipe recurses (absurd nesting would overflow
        // the stack) and class-transformer de-duplicates each object's keys in quadratic time.
        const problem = bodyShapeProblem(req.body);
        if (problem) {
          res.status(400).json(errorEnvelope(`${INVALID_REQUEST_PREFIX} ${problem}`));
          return;
        }
        return next();
      }
      if (error.type === 'entity.too.large') {
        res.status(413).json(errorEnvelope(`Request body too large: the limit is ${limitBytes} bytes.`));
      } else if (error.type === 'entity.parse.failed') {
        res.status(400).json(errorEnvelope(`${INVALID_REQUEST_PREFIX} body: malformed JSON`));
      } else {
        res
          .status(error.status && error.status < 500 ? error.status : 400)
          .json(errorEnvelope(`${INVALID_REQUEST_PREFIX} body: could not be read`));
      }
    });
  };
}

/**
 * Shape bounds of a request body, far beyond any request of this API (about 5 levels deep, at most 16
 * fields per object, a few dozen fields in all) and far below what costs a parser or validator seconds.
 */
/** `fields`: a cost category of 500 rules, each with a condition (PUT /v1/admin/cost-categories), holds about 6,000. */
export const BODY_SHAPE_LIMITS = { depth: 32, fieldsPerObject: 100, fields: 10_000 } as const;

/**
 * A `path: detail` line when the parsed body is nested deeper, or has objects wider or more fields in
 * all, than BODY_SHAPE_LIMITS; undefined otherwise. Iterative, and stops at the first excess, so a
 * hostile body costs one pass over at most BODY_SHAPE_LIMITS.fields keys.
 */
export function bodyShapeProblem(body: unknown): string | undefined {
  const { depth: maxDepth, fieldsPerObject, fields: maxFields } = BODY_SHAPE_LIMITS;
  let fields = 0;
  // Only objects and arrays are queued (a long list of strings costs no allocation); paths are built
  // only for the message.
  const pending: Array<{ value: object; depth: number; parent?: (typeof pending)[number]; key?: string | number }> = [];
  const queue = (value: unknown, depth: number, parent?: (typeof pending)[number], key?: string | number) => {
    if (value !== null && typeof value === 'object') pending.push({ value, depth, parent, key });
  };
  queue(body, 1);
  while (pending.length) {
    const entry = pending.pop()!;
    if (entry.depth > maxDepth) return `body: nested more than ${maxDepth} levels deep`;
    if (Array.isArray(entry.value)) {
      entry.value.forEach((element: unknown, index) => queue(element, entry.depth + 1, entry, index));
      continue;
    }
    const keys = Object.keys(entry.value);
    if (keys.length > fieldsPerObject) {
      return `${pathOf(entry)}: has ${keys.length} fields; at most ${fieldsPerObject} are allowed in one object`;
    }
    fields += keys.length;
    if (fields > maxFields) return `body: has more than ${maxFields} fields in all`;
    for (const key of keys) queue((entry.value as Record<string, unknown>)[key], entry.depth + 1, entry, key);
  }
  return undefined;
}

/** `filters.inclusions`, `list[2]`, or `body` for the body itself. */
function pathOf(entry: { parent?: { parent?: unknown; key?: string | number }; key?: string | number }): string {
  const keys: (string | number)[] = [];
  for (let at: typeof entry | undefined = entry; at?.key !== undefined; at = at.parent as typeof entry | undefined) keys.unshift(at.key);
  if (keys.length === 0) return 'body';
  return keys.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');
}

/**
 * A `text/csv` body read as text (req.body a string), with envelope errors like jsonBody's; any other content type is
 * left to jsonBody. Mounted on the routes that take a file (POST /v1/admin/exchange-rates), with their own limit.
 */
export function csvBody(limitBytes: number) {
  const parse = text({ limit: limitBytes, type: () => true, defaultCharset: 'utf-8' });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req) || !/^text\/csv\s*(;|$)/i.test(req.headers['content-type'] ?? '')) return next();
    parse(req, res, (error?: { type?: string; status?: number }) => {
      if (!error) return next();
      if (error.type === 'entity.too.large')
        res.status(413).json(errorEnvelope(`Request body too large: the limit is ${limitBytes} bytes.`));
      else
        res
          .status(error.status && error.status < 500 ? error.status : 400)
          .json(errorEnvelope(`${INVALID_REQUEST_PREFIX} body: could not be read`));
    });
  };
}

/** A parser earlier in the chain (csvBody) has read the body (Express 5 leaves req.body undefined until one does). */
function isParsed(req: Request): boolean {
  return req.body !== undefined;
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
