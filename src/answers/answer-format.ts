import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** What an answer can be written as. JSON is the spec's format; CSV is offered where rows make a table. */
export const ANSWER_MEDIA_TYPES = { json: 'application/json', csv: 'text/csv' } as const;
export type AnswerFormat = keyof typeof ANSWER_MEDIA_TYPES;
export type AnswerMediaType = (typeof ANSWER_MEDIA_TYPES)[AnswerFormat];

/**
 * The format a request asks for on a route that can answer CSV: CSV when `Accept` prefers text/csv to
 * application/json, JSON otherwise, also when `Accept` is absent, allows any type or names neither (every body
 * stays JSON unless CSV is asked for by name, so no client meets a 406).
 */
export function requestedAnswerFormat(request: Request): AnswerFormat {
  return request.accepts([ANSWER_MEDIA_TYPES.json, ANSWER_MEDIA_TYPES.csv]) === ANSWER_MEDIA_TYPES.csv ? 'csv' : 'json';
}

/** The route parameter: the format the request asked for (requestedAnswerFormat). */
export const RequestedAnswerFormat = createParamDecorator((_data: unknown, context: ExecutionContext): AnswerFormat =>
  requestedAnswerFormat(context.switchToHttp().getRequest<Request>()),
);
