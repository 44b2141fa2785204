import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';
import { ANSWER_MEDIA_TYPES } from './answer-format';
import { AnswerDelivery } from './answer-delivery';
import { CsvText } from './csv-text';
import { SuccessEnvelope } from '../common/http/envelope';
import { serializeJson } from './json-text';
import type { AuthenticatedRequest } from '../common/http/request-context';
import { AnswerToKeep, SerializedAnswer } from './serialized-answer';

/**
 * The one way an answer leaves, for every route (a global interceptor, outside any route's own): a
 * success envelope is serialized by serializeJson (parts ClickHouse already wrote as JSON are spliced
 * in, not re-parsed), a CSV answer is joined from its chunks, an answer the cache already holds is sent
 * as its bytes with its headers, and all go out through AnswerDelivery. An organisation whose earlier
 * answers are still unread is refused before any work.
 */
@Injectable()
export class AnswerInterceptor implements NestInterceptor {
  constructor(private readonly delivery: AnswerDelivery) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const organizationId = http.getRequest<AuthenticatedRequest>().principal?.organizationId ?? '';
    const response = http.getResponse<Response>();
    if (organizationId) this.delivery.admit(organizationId);
    const send = (answer: SerializedAnswer) => {
      for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
      return this.delivery.send(response, organizationId, answer.bytes, answer.mediaType);
    };
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof SerializedAnswer) return send(result);
        if (result instanceof AnswerToKeep) {
          const serialized = serialize(result.answer);
          result.keep(serialized);
          return send(serialized);
        }
        if (result instanceof SuccessEnvelope || result instanceof CsvText) return send(serialize(result));
        return result; // not an API answer (health checks, metrics): Nest's own handling
      }),
    );
  }
}

function serialize(answer: SuccessEnvelope<unknown> | CsvText): SerializedAnswer {
  return answer instanceof CsvText
    ? new SerializedAnswer(Buffer.concat(answer.chunks), ANSWER_MEDIA_TYPES.csv)
    : new SerializedAnswer(serializeJson(answer));
}
