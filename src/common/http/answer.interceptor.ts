import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';
import { AnswerDelivery } from './answer-delivery';
import { SuccessEnvelope } from './envelope';
import { serializeJson } from './json-text';
import type { AuthenticatedRequest } from './request-context';
import { AnswerToKeep, SerializedAnswer } from './serialized-answer';

/**
 * The one way an answer leaves, for every route (a global interceptor, outside any route's own): a
 * success envelope is serialized by serializeJson (parts ClickHouse already wrote as JSON are spliced
 * in, not re-parsed), an answer the cache already holds is sent as its bytes, and both go out through
 * AnswerDelivery. An organisation whose earlier answers are still unread is refused before any work.
 */
@Injectable()
export class AnswerInterceptor implements NestInterceptor {
  constructor(private readonly delivery: AnswerDelivery) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const organizationId = http.getRequest<AuthenticatedRequest>().principal?.organizationId ?? '';
    const response = http.getResponse<Response>();
    if (organizationId) this.delivery.admit(organizationId);
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof SerializedAnswer) return this.delivery.send(response, organizationId, result.bytes);
        if (result instanceof AnswerToKeep) {
          const bytes = serializeJson(result.envelope);
          result.keep(bytes);
          return this.delivery.send(response, organizationId, bytes);
        }
        if (result instanceof SuccessEnvelope) return this.delivery.send(response, organizationId, serializeJson(result));
        return result; // not an API answer (health checks, metrics): Nest's own handling
      }),
    );
  }
}
