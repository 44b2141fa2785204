// modes: embedded — the OpenAPI document
import { TestApp } from '../support/test-app';

/** Swagger is generated from the DTOs: every spec operation is documented, with bearer auth and examples. */
type OperationDoc = { security?: unknown[]; responses: Record<string, { headers?: Record<string, unknown> }> };

describe('OpenAPI document and Swagger UI', () => {
  let t: TestApp;
  let document: {
    info: { version: string };
    paths: Record<string, Record<string, { operationId?: string; security?: unknown[]; requestBody?: unknown }>>;
    components: { securitySchemes: Record<string, unknown>; schemas: Record<string, { properties?: Record<string, unknown> }> };
  };

  beforeAll(async () => {
    t = await TestApp.start();
    const response = await t.http.get('/docs-json');
    expect(response.status).toBe(200);
    document = response.body;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is version 1.0.0 with bearer authentication', () => {
    expect(document.info.version).toBe('1.0.0');
    expect(Object.values(document.components.securitySchemes)).toEqual([expect.objectContaining({ type: 'http', scheme: 'bearer' })]);
  });

  it('documents every endpoint of the spec under /v1/cost-insights', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /v1/cost-insights/data',
        'POST /v1/cost-insights/compare',
        'POST /v1/cost-insights/filters',
        'POST /v1/cost-insights/tag-values',
        'POST /v1/cost-insights/cost-category-values',
        'POST /v1/cost-insights/shared-filters',
        'GET /v1/cost-insights/shared-filters/{filterId}',
      ]),
    );
    expect(document.paths['/v1/cost-insights/data'].post.operationId).toBe('getCostData');
  });

  it('documents 401, 403 and 429 (with Retry-After) on every operation, each requiring the bearer key', () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods) as [string, OperationDoc][]) {
        const where = `${method.toUpperCase()} ${path}`;
        expect([where, Object.keys(operation.responses).sort()]).toEqual([where, expect.arrayContaining(['401', '403', '429'])]);
        expect([where, Object.keys(operation.responses['429'].headers ?? {})]).toEqual([
          where,
          expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining']),
        ]);
        expect([where, operation.security]).toEqual([where, expect.arrayContaining([{ bearer: [] }])]);
      }
    }
  });

  it('documents request bodies and the FilterFields schema with every spec field and the extensions', () => {
    expect(document.paths['/v1/cost-insights/data'].post.requestBody).toBeDefined();
    const fields = Object.keys(document.components.schemas.FilterFieldsDto.properties ?? {});
    expect(fields.sort()).toEqual(
      [
        'costLayers',
        'clouds',
        'services',
        'resourceFamilies',
        'regions',
        'instanceTypes',
        'usageTypes',
        'billingPeriods',
        'dateRange',
        'costTypes',
        'accountIds',
        'integrationIds',
        'resourceTag',
        'resourceTagValues',
        'costCategory',
        'costCategoryValues',
        // Extensions.
        'billingCurrencies',
        'allocatedMethods',
      ].sort(),
    );
  });

  it('serves the Swagger UI page', async () => {
    const response = await t.http.get('/docs');
    expect(response.status).toBe(200);
    expect(response.text).toContain('swagger-ui');
  });
});
