import { json } from 'express';
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
    if (!hasBody(req)) return next();
    const type = req.headers['content-type'] ?? '';
    if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type)) {
      res.status(415).json(errorEnvelope('Unsupported content type: send the request body as application/json.'));
      return;
    }
    parse(req, res, (error?: { type?: string; status?: number }) => {
      if (!error) {
        // The validation pipe walks bodies recursively: refuse absurd nesting before it overflows the stack.
        if (nestingDepth(req.body) > MAX_BODY_DEPTH) {
          res.status(400).json(errorEnvelope(`${INVALID_REQUEST_PREFIX} body: nested more than ${MAX_BODY_DEPTH} levels deep`));
          return;
        }
        return next();
      }
      if (error.type === 'entity.too.large') {
        res.status(413).json(errorEnvelope(`Request body too large: the limit is ${limitBytes} bytes.`));
      } else if (error.type === 'entity.parse.failed') {
        res.status(400).json(errorEnvelope(`${INVALID_REQUEST_PREFIX} body: malformed JSON`));
      } else {
        res.status(error.status && error.status < 500 ? error.status : 400).json(
          errorEnvelope(`${INVALID_REQUEST_PREFIX} body: could not be read`),
        );
      }
    });
  };
}

/** Far deeper than any request of this API (about 5 levels), far shallower than a stack overflow. */
export const MAX_BODY_DEPTH = 32;

/** Depth of arrays and objects in a parsed JSON value, without recursion; stops once past the maximum. */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_BODY_DEPTH) break;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
