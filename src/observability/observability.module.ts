import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { AuthenticatedRequest } from '../common/http/request-context';
import { chooseLogFormat, logDestination } from './log-format';
import { loggableUrl } from './log-redaction';
import { MetricsController } from './metrics.controller';
import { requestId } from './request-id';

/** Paths polled by orchestrators and scrapers: not worth a log line each. */
const QUIET_PATHS = /^\/(health\/(live|ready)|metrics)(\?|$)/;

/**
 * Structured logs (pino, one JSON line per event and per request, with the request id; readable lines on a
 * terminal: log-format.ts) and the
 * Prometheus endpoint. Logged requests carry method, path, status, latency, request id and the
 * key's public id — never headers, bodies, query strings or key material.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
        pinoHttp: [
          {
            level: config.logLevel,
            genReqId: (request: IncomingMessage, response: ServerResponse) => request.id ?? requestId(request, response),
            autoLogging: { ignore: (request: IncomingMessage) => QUIET_PATHS.test(request.url ?? '') },
            customLogLevel: (_request: IncomingMessage, response: ServerResponse, error?: Error) =>
              error || response.statusCode >= 500 ? 'error' : 'info',
            customProps: (request: IncomingMessage) => {
              const principal = (request as AuthenticatedRequest).principal;
              return principal ? { keyId: principal.keyId, organizationId: principal.organizationId } : {};
            },
            serializers: {
              req: (request: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
                id: request.id,
                method: request.method,
                url: loggableUrl(request.url),
                remoteAddress: request.remoteAddress,
              }),
              res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
            },
            // Belt and braces: the serializers above already drop every header.
            redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'], censor: '[redacted]' },
          },
          // Redacted in either format; readable lines on a terminal unless LOG_FORMAT says otherwise.
          logDestination(chooseLogFormat(config.logFormat, process.stdout.isTTY === true)),
        ],
      }),
    }),
  ],
  controllers: [MetricsController],
})
export class ObservabilityModule {}
