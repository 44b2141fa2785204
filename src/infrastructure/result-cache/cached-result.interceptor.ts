import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Response } from 'express';
import { map, Observable, of } from 'rxjs';
import type { AuthenticatedRequest } from '../../common/http/request-context';
import { AnswerToKeep, SerializedAnswer } from '../../common/http/serialized-answer';
import type { SuccessEnvelope } from '../../common/http/envelope';
import { metrics } from '../../observability/prometheus-metrics';
import { CostDataVersion } from './cost-data-version.service';
import { ResultCache, resultCacheKey } from './result-cache';

/** RFC 9211 Cache-Status values this API sends. */
const CACHE_STATUS = {
  hit: 'cost-insights-api; hit',
  miss: 'cost-insights-api; fwd=miss',
  bypass: 'cost-insights-api; fwd=request',
} as const;

/**
 * Serves a repeated question from memory: the bytes the answer pipeline (AnswerInterceptor) serialized
 * the first time, handed back to it as a SerializedAnswer. Runs after authentication, rate limiting (each request still counts) and body validation (a body that
 * is a 400 is never looked up): the key is the validated body, canonicalised, with the route, the key's
 * organisation, today's date (default windows move with it) and the data version. Only successful
 * answers are kept; errors pass through.
 */
@Injectable()
export class CachedResultInterceptor implements NestInterceptor {
  constructor(
    private readonly cache: ResultCache,
    private readonly version: CostDataVersion,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<Response>();
    const principal = request.principal;
    if (!principal) return next.handle(); // unreachable: these routes require a key (ScopesGuard)
    const organizationId = principal.organizationId;
    /** The handler's answer, computed now; under `keep`, the bytes it is serialized to are kept. */
    const computed = (status?: string, keep?: string) =>
      next.handle().pipe(
        map((envelope: SuccessEnvelope<unknown>) => {
          if (status) response.setHeader('Cache-Status', status);
          return keep === undefined ? envelope : new AnswerToKeep(envelope, (bytes) => this.cache.set(keep, bytes));
        }),
      );
    if (!this.cache.enabled) return computed();

    const directives = cacheControlDirectives(request.headers['cache-control'], request.headers.pragma);
    if (directives.has('no-store')) {
      // Neither looked up nor kept: no key (nor data version) is needed.
      metrics.resultCacheLookups.inc({ outcome: 'bypass' });
      return computed(CACHE_STATUS.bypass);
    }
    let key: string;
    try {
      key = resultCacheKey({
        route: `${request.method} ${request.route?.path ?? request.path}`,
        organizationId,
        today: new Date().toISOString().slice(0, 10),
        dataVersion: await this.version.current(organizationId),
        body: request.body,
      });
    } catch {
      return computed(); // the store is unreachable: the query itself reports it
    }

    if (directives.has('no-cache')) {
      metrics.resultCacheLookups.inc({ outcome: 'bypass' });
      return computed(CACHE_STATUS.bypass, key);
    }
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      metrics.resultCacheLookups.inc({ outcome: 'hit' });
      response.setHeader('Cache-Status', CACHE_STATUS.hit);
      return of(new SerializedAnswer(cached));
    }
    metrics.resultCacheLookups.inc({ outcome: 'miss' });
    return computed(CACHE_STATUS.miss, key);
  }
}

/** The response header of a cached route, for its @ApiOkResponse. */
export const CACHE_STATUS_HEADER = {
  'Cache-Status': {
    description: `RFC 9211: \`${CACHE_STATUS.hit}\` (from memory), \`${CACHE_STATUS.miss}\` (computed now) or \`${CACHE_STATUS.bypass}\` (computed now, as the request asked).`,
    schema: { type: 'string' as const },
  },
};

function cacheControlDirectives(...headers: (string | string[] | undefined)[]): Set<string> {
  return new Set(
    headers
      .flat()
      .filter((value): value is string => typeof value === 'string')
      .flatMap((value) => value.split(','))
      .map((directive) => directive.trim().toLowerCase().split('=')[0]),
  );
}

/**
 * A read route whose answers an instance may serve again from memory, documented in Swagger:
 * `Cache-Control: no-cache` forces a fresh answer; the route's 200 response lists CACHE_STATUS_HEADER.
 */
export function CachedResult() {
  return applyDecorators(
    UseInterceptors(CachedResultInterceptor),
    ApiHeader({
      name: 'Cache-Control',
      required: false,
      description:
        'Answers are cached per instance by organisation, route, request body and data version, so a repeated question is answered from memory; an import is visible at once on the instance that made it and elsewhere within RESULT_CACHE_VERSION_CHECK_MS (1 s) plus one version read, at most twice that. `no-cache` asks for a fresh answer (it is then cached); `no-store` asks for a fresh answer that is not kept.',
      schema: { type: 'string', example: 'no-cache' },
    }),
  );
}
