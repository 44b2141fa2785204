import {
  applyDecorators,
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiHeader, ApiInternalServerErrorResponse } from '@nestjs/swagger';
import { DataPartlyUnreachableException } from '../common/errors/api-errors';
import type { Response } from 'express';
import { map, Observable, of } from 'rxjs';
import { AnswerFormat, requestedAnswerFormat } from './answer-format';
import type { CsvText } from './csv-text';
import type { AuthenticatedRequest } from '../common/http/request-context';
import { AnswerToKeep, SerializedAnswer } from './serialized-answer';
import type { SuccessEnvelope } from '../common/http/envelope';
import { metrics } from '../observability/prometheus-metrics';
import { CostDataVersion } from '../store/data-version/cost-data-version.service';
import { DataFreshness, DataFreshnessService, FRESHNESS_HEADERS, freshnessHeaders } from './data-freshness.service';
import { ResultCache, resultCacheKey } from './result-cache';
import { AnswerCurrencyService } from '../currency/answer-currency.service';

/** RFC 9211 Cache-Status values this API sends. */
const CACHE_STATUS = {
  hit: 'cost-insights-api; hit',
  miss: 'cost-insights-api; fwd=miss',
  bypass: 'cost-insights-api; fwd=request',
} as const;

/** No freshness to tell: no headers, nulls in a payload. */
const UNKNOWN_FRESHNESS: DataFreshness = { dataThrough: null, importedAt: null };

/** Route metadata: the route answers CSV too (`Accept: text/csv`). */
const ANSWERS_CSV = 'answersCsv';
/** Route metadata: the answer holds money (or is ordered by it), in the currency X-Currency names. */
const ANSWERS_MONEY = 'answersMoney';

/** The response header naming the currency of a money answer (an extension of the spec). */
export const CURRENCY_HEADER = 'X-Currency';

/** The request of a data answer: its data's freshness, for a handler that also puts it in the payload. */
export interface DataAnswerRequest extends AuthenticatedRequest {
  dataFreshness?: DataFreshness;
}

/** The route parameter: the freshness of the data the answer is computed from (on a @DataAnswer() route). */
export const CurrentDataFreshness = createParamDecorator((_data: unknown, context: ExecutionContext): DataFreshness => {
  const freshness = context.switchToHttp().getRequest<DataAnswerRequest>().dataFreshness;
  return freshness ?? UNKNOWN_FRESHNESS; // the data version could not be read: the query reports it
});

/**
 * An answer computed from the organisation's cost data. It carries the freshness of that data
 * (X-Data-Through, X-Data-Imported-At) and is served again from memory while the data is unchanged: the
 * bytes the answer pipeline (AnswerInterceptor) serialized the first time, with the freshness they were
 * computed with. Runs after authentication, rate limiting (each request still counts) and body
 * validation (a body that is a 400 is never looked up): the key is the validated body, canonicalised,
 * with the route, the answer's format, the key's organisation, today's date (default windows move with
 * it) and the data version. Only successful answers are kept; errors pass through.
 */
@Injectable()
export class DataAnswerInterceptor implements NestInterceptor {
  constructor(
    private readonly cache: ResultCache,
    private readonly version: CostDataVersion,
    private readonly freshness: DataFreshnessService,
    private readonly currencies: AnswerCurrencyService,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<DataAnswerRequest>();
    const response = http.getResponse<Response>();
    const principal = request.principal;
    if (!principal) return next.handle(); // unreachable: these routes require a key (ScopesGuard)
    const organizationId = principal.organizationId;
    const answersCsv = this.reflector.get<boolean>(ANSWERS_CSV, context.getHandler());
    const format: AnswerFormat = answersCsv ? requestedAnswerFormat(request) : 'json';
    if (answersCsv) response.vary('Accept');

    let dataVersion: string;
    try {
      dataVersion = await this.version.current(organizationId);
    } catch {
      return next.handle(); // the store is unreachable: the query itself reports it
    }
    const freshness = await this.freshness.at(principal, dataVersion);
    request.dataFreshness = freshness;
    const headers = freshnessHeaders(freshness);
    if (this.reflector.get<boolean>(ANSWERS_MONEY, context.getHandler())) {
      headers[CURRENCY_HEADER] = await this.currencies.currencyOf(organizationId, requestedCurrency(request.body));
    }
    /** The handler's answer, computed now, with its freshness; under `keep`, what it is serialized to is kept with it. */
    const computed = (status?: string, keep?: string) =>
      next.handle().pipe(
        map((answer: SuccessEnvelope<unknown> | CsvText) => {
          // On answers only: an error envelope describes no data.
          for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
          if (status) response.setHeader('Cache-Status', status);
          if (keep === undefined) return answer;
          return new AnswerToKeep(answer, (serialized) =>
            this.cache.set(keep, new SerializedAnswer(serialized.bytes, serialized.mediaType, headers)),
          );
        }),
      );
    if (!this.cache.enabled) return computed();

    const directives = cacheControlDirectives(request.headers['cache-control'], request.headers.pragma);
    if (directives.has('no-store')) {
      metrics.resultCacheLookups.inc({ outcome: 'bypass' });
      return computed(CACHE_STATUS.bypass);
    }
    const key = resultCacheKey({
      route: `${request.method} ${request.route?.path ?? request.path} ${format}`,
      organizationId,
      dataScope: principal.dataScope ?? '',
      today: new Date().toISOString().slice(0, 10),
      dataVersion,
      body: request.body,
    });
    if (directives.has('no-cache')) {
      metrics.resultCacheLookups.inc({ outcome: 'bypass' });
      return computed(CACHE_STATUS.bypass, key);
    }
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      metrics.resultCacheLookups.inc({ outcome: 'hit' });
      response.setHeader('Cache-Status', CACHE_STATUS.hit);
      return of(cached); // with the freshness it was computed with (AnswerInterceptor sets its headers)
    }
    metrics.resultCacheLookups.inc({ outcome: 'miss' });
    return computed(CACHE_STATUS.miss, key);
  }
}

/** The response headers of a data answer, for its @ApiOkResponse. */
export const DATA_ANSWER_HEADERS = {
  'Cache-Status': {
    description: `RFC 9211: \`${CACHE_STATUS.hit}\` (from memory), \`${CACHE_STATUS.miss}\` (computed now) or \`${CACHE_STATUS.bypass}\` (computed now, as the request asked).`,
    schema: { type: 'string' as const },
  },
  [FRESHNESS_HEADERS.dataThrough]: {
    description:
      'The last usage date (YYYY-MM-DD, UTC) with cost data for the API key\'s organisation: billing data arrives late, so a dashboard shows "data through" this date. For a key with a data scope, the last date inside its scope. Absent without data. A cached answer carries the value of the data it was computed from.',
    schema: { type: 'string' as const, format: 'date', example: '2026-11-22' },
  },
  [FRESHNESS_HEADERS.importedAt]: {
    description:
      "When the organisation's latest cost rows were written (an import's load, a demo load or an insert), ISO 8601 UTC to the second; for a key with a data scope, of the rows inside its scope. Absent without data.",
    schema: { type: 'string' as const, format: 'date-time', example: '2026-11-23T06:00:12Z' },
  },
};

/** The body's `currency` (validated before this interceptor runs), if any. */
function requestedCurrency(body: unknown): string | undefined {
  const currency = (body as { currency?: unknown } | undefined)?.currency;
  return typeof currency === 'string' ? currency : undefined;
}

/** The response headers of a money answer (`@DataAnswer({ money: true })`). */
export const MONEY_ANSWER_HEADERS = {
  ...DATA_ANSWER_HEADERS,
  [CURRENCY_HEADER]: {
    description:
      "Extension: the ISO 4217 currency of the answer's amounts (or of the costs that order it): the request's `currency`, else the organisation's reporting currency (USD unless an admin set another). Every amount of one answer is in this currency.",
    schema: { type: 'string' as const, example: 'USD' },
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
 * A read route answered from the organisation's cost data (DataAnswerInterceptor), documented in Swagger:
 * `Cache-Control: no-cache` forces a fresh answer; the route's 200 response lists DATA_ANSWER_HEADERS.
 * `{ csv: true }`: the route also answers `Accept: text/csv`, its handler takes @RequestedAnswerFormat().
 * `{ money: true }`: the answer's amounts (or its order) are in one currency, named by X-Currency.
 */
export function DataAnswer(options: { csv?: boolean; money?: boolean } = {}) {
  return applyDecorators(
    SetMetadata(ANSWERS_CSV, options.csv === true),
    SetMetadata(ANSWERS_MONEY, options.money === true),
    UseInterceptors(DataAnswerInterceptor),
    ApiHeader({
      name: 'Cache-Control',
      required: false,
      description:
        'Answers are cached per instance by organisation, route, request body and data version, so a repeated question is answered from memory; an import is visible at once on the instance that made it and elsewhere within RESULT_CACHE_VERSION_CHECK_MS (1 s) plus one version read, at most twice that. `no-cache` asks for a fresh answer (it is then cached); `no-store` asks for a fresh answer that is not kept.',
      schema: { type: 'string', example: 'no-cache' },
    }),
    ApiInternalServerErrorResponse({
      description:
        'Server or upstream error (`Internal server error.`). On a ClickHouse cluster, a shard none of whose replicas answers: ' +
        `\`${new DataPartlyUnreachableException().message}\` — the other shards' rows alone would look complete, so no answer is given.`,
    }),
  );
}
