import { SETTINGS_ROOT, settingsArea } from './settings-page/settings-page.middleware';
import { SIGN_IN_ROUTES } from './auth/sign-in.controller';
import { INestApplication, Type } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { loadConfig } from './config/app-config';
import { withConfig } from './config/config.module';
import { SETTING_DEFAULTS, SettingOverrides } from './config/settings';
import { BODY_SHAPE_LIMITS, csvBody, jsonBody } from './common/http/json-body.middleware';
import { SUPPORTED_DATES_TEXT } from './common/validation/validators';
import { closeConnectionsWhileDraining } from './health/draining.middleware';
import { McpTools } from './mcp/mcp-tools';
import { httpMetrics } from './observability/http-metrics.middleware';
import { assignRequestId } from './observability/request-id';
import { Logger as PinoLogger } from 'nestjs-pino';

export const API_PREFIX = 'v1';
/** Operational routes outside the versioned API: no key, no rate limit. */
export const OPERATIONAL_ROUTES = ['health/live', 'health/ready', 'metrics'];

export interface CreateAppOptions {
  logger?: false | undefined;
  /** Root module; the benchmark wraps AppModule with a probe route. */
  module?: Type;
  /** Settings in place of the process environment's (tests, the benchmark); process.env itself is never written. */
  settings?: SettingOverrides;
}

/** Builds the HTTP application exactly as production runs it (main.ts and the e2e tests share this). */
export async function createApp(options: CreateAppOptions = {}): Promise<NestExpressApplication> {
  const config = loadConfig({ ...process.env, ...options.settings });
  const app = await NestFactory.create<NestExpressApplication>(withConfig(options.module ?? AppModule, config), {
    bodyParser: false,
    // Start-up errors (e.g. a locked embedded data directory) reach main.ts, which explains them.
    abortOnError: false,
    logger: options.logger === false ? false : ['log', 'warn', 'error'],
    // Start-up lines are replayed through the JSON logger once it exists.
    bufferLogs: options.logger !== false,
  });
  if (options.logger !== false) app.useLogger(app.get(PinoLogger));
  app.disable('x-powered-by');
  // Express would hash every body for a weak ETag; answers are POST responses, never revalidated by ETag.
  app.disable('etag');
  app.use(assignRequestId);
  app.use(httpMetrics);
  app.use(closeConnectionsWhileDraining);
  // Client IPs (for the unauthenticated rate limit) come from X-Forwarded-For only across trusted hops.
  app.set('trust proxy', config.trustProxyHops);
  app.use(`/${API_PREFIX}/admin/exchange-rates`, csvBody(config.ratesImportMaxBytes));
  // Business metric values as a CSV file: the same limit as a rates file.
  app.use(`/${API_PREFIX}/admin/business-metrics`, csvBody(config.ratesImportMaxBytes));
  app.use(jsonBody(config.bodyLimitBytes));
  app.use(SETTINGS_ROOT, settingsArea());
  app.use(SWAGGER_PATH, swaggerUiHeaders);
  app.setGlobalPrefix(API_PREFIX, { exclude: [...OPERATIONAL_ROUTES, ...SIGN_IN_ROUTES] });
  const document = setupSwagger(app);
  // The MCP tools take their input schemas from the same document (the request DTOs').
  app.get(McpTools, { strict: false }).describe(document);
  // No enableShutdownHooks(): main.ts drains on SIGTERM (readiness red, listener closed, in-flight requests
  // finished) before closing the application, whose hooks close the ClickHouse and Redis clients.
  return app;
}

export function setupSwagger(app: INestApplication): OpenAPIObject {
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
  SwaggerModule.setup(SWAGGER_PATH.slice(1), app, document, {
    jsonDocumentUrl: 'docs-json',
    // Not persisted: the UI shares its origin with the Settings page, and a key in localStorage outlives the tab.
    swaggerOptions: { persistAuthorization: false, displayRequestDuration: true },
  });
  return document;
}

const SWAGGER_PATH = '/docs';

/**
 * Swagger UI's page and files load only from this origin and are never framed (clickjacking the Authorize
 * dialog). Its page and the UI itself set inline styles, hence `style-src 'unsafe-inline'`; scripts only from
 * its own files (no inline script); `img-src data:` for the icons in its CSS; requests ("Try it out") to this
 * origin only.
 */
export const SWAGGER_UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function swaggerUiHeaders(_request: Request, response: Response, next: NextFunction): void {
  response.setHeader('Content-Security-Policy', SWAGGER_UI_CSP);
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  next();
}

const SWAGGER_DESCRIPTION = `
Query cloud cost data, compare periods, discover filter values and share filter configurations.

**Authentication**: every request carries \`Authorization: Bearer <API_KEY>\`. A missing, malformed, unknown or
revoked key is answered 401 with the body \`{"message":"Unauthorized"}\`. Scopes: \`cost:read\` (data, compare,
filters, tag and cost-category values), \`shared-filters:read\`, \`shared-filters:write\`; a missing scope is 403.

**Envelope**: success \`{"success":true,"data":…}\`; error \`{"success":false,"error":{"message":…}}\`.
400 messages begin with \`Invalid request. Please see message details.\` followed by \`path: detail\` items.

**Rate limit**: per API key and minute (RATE_LIMIT_PER_MINUTE, default ${SETTING_DEFAULTS.RATE_LIMIT_PER_MINUTE}); requests without a valid key are
limited per client IP (default ${SETTING_DEFAULTS.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE}). Every authenticated response carries \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (seconds until the window resets); 429 adds \`Retry-After\` (seconds).

**Dates**: ${SUPPORTED_DATES_TEXT} (400 outside); ranges include both ends; without \`dateRange\` or
\`billingPeriods\` the window is the last DEFAULT_WINDOW_DAYS (default ${SETTING_DEFAULTS.DEFAULT_WINDOW_DAYS}) days up to today, UTC. Weeks start on Monday.

**Bodies**: at most ${BODY_SHAPE_LIMITS.depth} levels deep, ${BODY_SHAPE_LIMITS.fieldsPerObject} fields per object and ${BODY_SHAPE_LIMITS.fields} fields in all; unknown fields are a 400.
`.trim();
