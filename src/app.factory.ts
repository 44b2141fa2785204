import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { jsonBody } from './common/http/json-body.middleware';
import { closeConnectionsWhileDraining } from './health/draining.middleware';
import { httpMetrics } from './observability/http-metrics.middleware';
import { assignRequestId } from './observability/request-id';
import { Logger as PinoLogger } from 'nestjs-pino';

export const API_PREFIX = 'v1';
/** Operational routes outside the versioned API: no key, no rate limit. */
export const OPERATIONAL_ROUTES = ['health/live', 'health/ready', 'metrics'];

/** Builds the HTTP application exactly as production runs it (main.ts and the e2e tests share this). */
export async function createApp(
  options: { logger?: false | undefined; /** Root module; the benchmark wraps AppModule with a probe route. */ module?: Type } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(options.module ?? AppModule, {
    bodyParser: false,
    // Start-up errors (e.g. a locked embedded data directory) reach main.ts, which explains them.
    abortOnError: false,
    logger: options.logger === false ? false : ['log', 'warn', 'error'],
    // Start-up lines are replayed through the JSON logger once it exists.
    bufferLogs: options.logger !== false,
  });
  if (options.logger !== false) app.useLogger(app.get(PinoLogger));
  const config = app.get<AppConfig>(APP_CONFIG);
  app.disable('x-powered-by');
  // Express would hash every body for a weak ETag; answers are POST responses, never revalidated by ETag.
  app.disable('etag');
  app.use(assignRequestId);
  app.use(httpMetrics);
  app.use(closeConnectionsWhileDraining);
  // Client IPs (for the unauthenticated rate limit) come from X-Forwarded-For only across trusted hops.
  app.set('trust proxy', config.trustProxyHops);
  app.use(jsonBody(config.bodyLimitBytes));
  app.setGlobalPrefix(API_PREFIX, { exclude: OPERATIONAL_ROUTES });
  setupSwagger(app);
  // No enableShutdownHooks(): main.ts drains on SIGTERM (readiness red, listener closed, in-flight requests
  // finished) before closing the application, whose hooks close the ClickHouse and Redis clients.
  return app;
}

export function setupSwagger(app: INestApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Cost Insights Public API')
      .setVersion('1.0.0')
      .setDescription(SWAGGER_DESCRIPTION)
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key: `cik_…`' })
      .addSecurityRequirements('bearer')
      .build(),
  );
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true, displayRequestDuration: true },
  });
}

const SWAGGER_DESCRIPTION = `
Query cloud cost data, compare periods, discover filter values and share filter configurations.

**Authentication**: every request carries \`Authorization: Bearer <API_KEY>\`. A missing, malformed, unknown or
revoked key is answered 401 with the body \`{"message":"Unauthorized"}\`. Scopes: \`cost:read\` (data, compare,
filters, tag and cost-category values), \`shared-filters:read\`, \`shared-filters:write\`; a missing scope is 403.

**Envelope**: success \`{"success":true,"data":…}\`; error \`{"success":false,"error":{"message":…}}\`.
400 messages begin with \`Invalid request. Please see message details.\` followed by \`path: detail\` items.

**Rate limit**: per API key and minute (RATE_LIMIT_PER_MINUTE, default 300); requests without a valid key are
limited per client IP (default 60). Every authenticated response carries \`X-RateLimit-Limit\` and
\`X-RateLimit-Remaining\`; 429 adds \`Retry-After\` (seconds).

**Dates**: ranges include both ends; without \`dateRange\` or \`billingPeriods\` the window is the last
DEFAULT_WINDOW_DAYS (default 30) days up to today, UTC. Weeks start on Monday.
`.trim();
