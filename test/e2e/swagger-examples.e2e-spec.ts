// modes: embedded — the documented examples
import { loadDemoData } from '../../src/demo/demo-data.loader';
import { TestApp, TestOrganization } from '../support/test-app';
import { SCOPES } from '../../src/common/http/principal';
import { DEMO_ORGANIZATION_ID } from '../../src/common/examples/examples';

type Schema = {
  $ref?: string;
  example?: unknown;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  type?: string;
};

/**
 * "Try it out" in Swagger UI must work as shipped: the request body Swagger UI builds from the
 * documented examples, sent with a key of the demo organisation, succeeds and returns data.
 */
describe('Swagger examples return data for the demo organisation', () => {
  let t: TestApp;
  let demo: TestOrganization;
  let schemas: Record<string, Schema>;
  let paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;

  beforeAll(async () => {
    t = await TestApp.start();
    // 100 days cover the examples' last full month and the month before it.
    await loadDemoData(t.clickhouse, { organizationId: DEMO_ORGANIZATION_ID, days: 100 });
    demo = await t.keyFor(DEMO_ORGANIZATION_ID, [...SCOPES]);
    const document = (await t.http.get('/docs-json')).body;
    schemas = document.components.schemas;
    paths = document.paths;
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  /** The example body Swagger UI shows: a property's own example wins, otherwise its schema is expanded. */
  function exampleOf(schema: Schema): unknown {
    if (schema.example !== undefined) return schema.example;
    if (schema.$ref) return exampleOf(schemas[schema.$ref.replace('#/components/schemas/', '')]);
    if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => exampleOf(part) as object));
    if (schema.enum) return schema.enum[0];
    if (schema.type === 'array') return [exampleOf(schema.items ?? {})];
    if (schema.properties || schema.type === 'object') {
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, exampleOf(value)]));
    }
    return { string: 'string', number: 0, integer: 0, boolean: true }[schema.type ?? 'string'];
  }

  function exampleBody(path: string): object {
    const schema = paths[path].post.requestBody?.content['application/json'].schema;
    expect(schema).toBeDefined();
    return exampleOf(schema!) as object;
  }

  it('POST /data', async () => {
    const response = await t.http.post('/v1/cost-insights/data').set(demo.auth).send(exampleBody('/v1/cost-insights/data'));
    expect(response.status).toBe(200);
    expect(response.body.data.items.length).toBeGreaterThan(0);
    expect(response.body.data.summary.total_amortized_cost).toBeGreaterThan(0);
  });

  it('POST /allocation', async () => {
    const response = await t.http.post('/v1/cost-insights/allocation').set(demo.auth).send(exampleBody('/v1/cost-insights/allocation'));
    expect(response.status).toBe(200);
    expect(response.body.data.total.amortized_cost).toBeGreaterThan(0);
    // The demo's sandbox accounts have no Business Unit: some of the cost is unallocated, most is not.
    expect(response.body.data.total.allocated_share).toBeGreaterThan(0.5);
    expect(response.body.data.total.allocated_share).toBeLessThan(1);
  });

  it('PUT /admin/cost-categories/{key}?dryRun=true previews the documented definition', async () => {
    const put = paths['/v1/admin/cost-categories/{key}'].put as { requestBody?: { content: Record<string, { schema: Schema }> } };
    const body = exampleOf(put.requestBody!.content['application/json'].schema) as object;
    const response = await t.http.put('/v1/admin/cost-categories/BusinessUnit').query({ dryRun: 'true' }).set(demo.auth).send(body);
    expect(response.status).toBe(200);
    expect(response.body.data.values.length).toBeGreaterThan(1);
    expect((await t.http.get('/v1/admin/cost-categories').set(demo.auth)).body.data.categories).toEqual([]);
  });

  it('POST /compare', async () => {
    const response = await t.http.post('/v1/cost-insights/compare').set(demo.auth).send(exampleBody('/v1/cost-insights/compare'));
    expect(response.status).toBe(200);
    expect(response.body.data.comparisons.length).toBeGreaterThan(0);
    expect(response.body.data.totals.baseline).toBeGreaterThan(0);
    expect(response.body.data.totals.comparison).toBeGreaterThan(0);
  });

  it('POST /filters', async () => {
    const response = await t.http.post('/v1/cost-insights/filters').set(demo.auth).send(exampleBody('/v1/cost-insights/filters'));
    expect(response.status).toBe(200);
    expect(response.body.data.services.length).toBeGreaterThan(0);
  });

  it('POST /tag-values and /cost-category-values', async () => {
    for (const path of ['/v1/cost-insights/tag-values', '/v1/cost-insights/cost-category-values']) {
      const response = await t.http.post(path).set(demo.auth).send(exampleBody(path));
      expect(response.status).toBe(200);
      expect(response.body.data.values.length).toBeGreaterThan(0);
    }
  });

  it('POST /shared-filters, then GET it back', async () => {
    const created = await t.http
      .post('/v1/cost-insights/shared-filters')
      .set(demo.auth)
      .send(exampleBody('/v1/cost-insights/shared-filters'));
    expect(created.status).toBe(201);
    const read = await t.http.get(`/v1/cost-insights/shared-filters/${created.body.data.filterId}`).set(demo.auth);
    expect(read.status).toBe(200);
    expect(read.body.data.filterConfiguration.metadata.name).not.toBe('');
  });

  it('POST /admin/api-keys creates a key whose data scope sees part of the demo estate', async () => {
    const created = await t.http.post('/v1/admin/api-keys').set(demo.auth).send(exampleBody('/v1/admin/api-keys'));
    expect(created.status).toBe(201);
    const body = exampleBody('/v1/cost-insights/data');
    const scoped = await t.http.post('/v1/cost-insights/data').set('Authorization', `Bearer ${created.body.data.key}`).send(body);
    const whole = await t.http.post('/v1/cost-insights/data').set(demo.auth).send(body);
    expect(scoped.status).toBe(200);
    expect(scoped.body.data.summary.total_amortized_cost).toBeGreaterThan(0);
    expect(scoped.body.data.summary.total_amortized_cost).toBeLessThan(whole.body.data.summary.total_amortized_cost);
  });

  it('GET /admin/audit-events with the documented query examples lists the key just created', async () => {
    await t.http.post('/v1/admin/api-keys').set(demo.auth).send(exampleBody('/v1/admin/api-keys'));
    type Parameter = { name: string; example?: unknown; schema?: { example?: unknown } };
    const parameters = (paths['/v1/admin/audit-events'].get as unknown as { parameters: Parameter[] }).parameters;
    // What Swagger UI fills in: each parameter's example, or its schema's.
    const examples = parameters.map((p) => [p.name, p.example ?? p.schema?.example]).filter(([, example]) => example !== undefined);
    expect(examples.map(([name]) => name).sort()).toEqual(['from', 'limit']);
    const response = await t.http
      .get('/v1/admin/audit-events')
      .query(Object.fromEntries(examples.map(([name, example]) => [name, String(example)])))
      .set(demo.auth);
    expect(response.status).toBe(200);
    expect(response.body.data.events[0]).toMatchObject({ action: 'api-key.created', actor: { kind: 'api-key', id: demo.keyId } });
  });
});
