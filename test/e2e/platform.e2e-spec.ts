// modes: embedded — HTTP envelope and body handling
import { gzipSync } from 'node:zlib';
import type { Response } from 'supertest';
import { startAppWithEnv } from '../support/app-with-env';
import { TestApp, TestOrganization } from '../support/test-app';

const PREFIX = 'Invalid request. Please see message details.';
const SHARED_FILTERS = '/v1/cost-insights/shared-filters';
/** A small body limit for this file's application, so the boundary can be tested exactly. */
const BODY_LIMIT = 4096;

/** Every POST endpoint of the spec, for the "bad input is never a 5xx" sweep. */
const POST_ENDPOINTS = [
  '/v1/cost-insights/data',
  '/v1/cost-insights/compare',
  '/v1/cost-insights/filters',
  '/v1/cost-insights/tag-values',
  '/v1/cost-insights/cost-category-values',
  SHARED_FILTERS,
];

describe('platform: envelope, authentication, body handling', () => {
  let t: TestApp;
  let org: TestOrganization;
  const seen: Response[] = [];

  beforeAll(async () => {
    t = await startAppWithEnv({ BODY_LIMIT_BYTES: String(BODY_LIMIT) });
    org = await t.newOrganization();
  });
  afterAll(async () => {
    await t.close();
  });

  /** POST a raw body with a content type, recording the response for the secrets check. */
  async function postRaw(path: string, body: string | Buffer, contentType = 'application/json', auth = true): Promise<Response> {
    let request = t.http.post(path).set('Content-Type', contentType);
    if (auth) request = request.set(org.auth);
    const response = await request.send(body);
    seen.push(response);
    return response;
  }

  function expectEnvelope(response: Response, status: number, message?: string | RegExp): void {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ success: false, error: { message: expect.any(String) } });
    if (typeof message === 'string') expect(response.body.error.message).toBe(message);
    else if (message) expect(response.body.error.message).toMatch(message);
  }

  it('answers a missing key with the exact gateway 401 body', async () => {
    const response = await t.http.post('/v1/cost-insights/data').send({ groupBy: { dateGrouping: 'daily' } });
    seen.push(response);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Unauthorized' });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const response = await t.http.get('/v1/nope').set(org.auth);
    seen.push(response);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, error: { message: 'Route GET /v1/nope not found.' } });
  });

  it('answers unknown routes and methods with a 404 envelope, with or without a key', async () => {
    const cases: Array<[string, () => Promise<Response>]> = [
      ['POST /v1/cost-insights/nope', () => t.http.post('/v1/cost-insights/nope').set(org.auth).send({})],
      ['PATCH /v1/cost-insights/shared-filters/sf_x', () => t.http.patch(`${SHARED_FILTERS}/sf_x`).set(org.auth).send({})],
      ['GET /v1/cost-insights/data', () => t.http.get('/v1/cost-insights/data').set(org.auth)],
      ['POST /cost-insights/data', () => t.http.post('/cost-insights/data').set(org.auth).send({})],
      ['GET /v2/cost-insights/shared-filters', () => t.http.get('/v2/cost-insights/shared-filters')],
    ];
    for (const [route, send] of cases) {
      const response = await send();
      seen.push(response);
      expectEnvelope(response, 404, `Route ${route} not found.`);
    }
  });

  it('answers malformed JSON with a 400 envelope starting with the fixed prefix', async () => {
    for (const body of ['{"organizationId":', '{organizationId: 1}', "{'a': 1}", '{"a":1,}', 'nul']) {
      expectEnvelope(await postRaw(SHARED_FILTERS, body), 400, `${PREFIX} body: malformed JSON`);
    }
  });

  it('answers a body over BODY_LIMIT_BYTES with 413, and accepts one of exactly the limit', async () => {
    const json = JSON.stringify({ organizationId: org.organizationId, filterConfiguration: { metadata: { name: 'limit' } } });
    const atLimit = json + ' '.repeat(BODY_LIMIT - Buffer.byteLength(json)); // JSON allows trailing whitespace
    expect(Buffer.byteLength(atLimit)).toBe(BODY_LIMIT);
    expect((await postRaw(SHARED_FILTERS, atLimit)).status).toBe(201);

    const overLimit = `${atLimit} `;
    expectEnvelope(await postRaw(SHARED_FILTERS, overLimit), 413, `Request body too large: the limit is ${BODY_LIMIT} bytes.`);
    // Multi-byte characters count as bytes, not characters.
    const wide = JSON.stringify({
      organizationId: org.organizationId,
      filterConfiguration: { metadata: { name: 'é'.repeat(BODY_LIMIT / 2) } },
    });
    expectEnvelope(await postRaw(SHARED_FILTERS, wide), 413);
    // Without a key too: an oversized body is refused before anything reads it.
    expectEnvelope(await postRaw(SHARED_FILTERS, overLimit, 'application/json', false), 413);
  });

  it('answers a body in another content type with 415', async () => {
    const json = JSON.stringify({ organizationId: org.organizationId, filterConfiguration: {} });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
      expectEnvelope(
        await postRaw(SHARED_FILTERS, json, type),
        415,
        'Unsupported content type: send the request body as application/json.',
      );
    }
    // JSON media types with parameters or a +json suffix are JSON.
    expect((await postRaw(SHARED_FILTERS, json, 'application/json; charset=utf-8')).status).toBe(201);
    expect((await postRaw(SHARED_FILTERS, json, 'application/vnd.api+json')).status).toBe(201);
    // An unknown charset cannot be decoded: 415 too.
    expectEnvelope(await postRaw(SHARED_FILTERS, json, 'application/json; charset=klingon'), 415, `${PREFIX} body: could not be read`);
  });

  it('answers a JSON body that is not an object with 400', async () => {
    const cases: Array<[string, string]> = [
      ['[]', 'array'],
      ['[{"organizationId":"x"}]', 'array'],
      ['null', 'null'],
      ['"text"', 'string'],
      ['42', 'number'],
      ['true', 'boolean'],
    ];
    for (const [body, type] of cases) {
      expectEnvelope(await postRaw(SHARED_FILTERS, body), 400, `${PREFIX} body: Expected object, received ${type}`);
    }
    // No body at all is not an object either.
    const empty = await t.http.post(SHARED_FILTERS).set(org.auth).set('Content-Type', 'application/json');
    seen.push(empty);
    expectEnvelope(empty, 400, `${PREFIX} body: Expected object, received undefined`);
  });

  it('decodes gzip bodies and refuses undecodable ones with a 4xx', async () => {
    const json = JSON.stringify({ organizationId: org.organizationId, filterConfiguration: {} });
    const encoded = (encoding: string, body: Buffer | string) =>
      t.http
        .post(SHARED_FILTERS)
        .set(org.auth)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .serialize((raw: unknown) => raw as string) // send the bytes as they are
        .send(body as unknown as string);
    const gzipped = await encoded('gzip', gzipSync(json));
    expect(gzipped.status).toBe(201);
    const garbage = await encoded('gzip', Buffer.from('not gzip'));
    const unknown = await encoded('klingon', json);
    // A compressed body is limited by its decompressed size (no zip bombs).
    const bomb = await encoded('gzip', gzipSync(JSON.stringify({ pad: ' '.repeat(BODY_LIMIT * 100) })));
    expectEnvelope(bomb, 413, `Request body too large: the limit is ${BODY_LIMIT} bytes.`);
    seen.push(gzipped, garbage, unknown);
    expectEnvelope(garbage, 400, `${PREFIX} body: could not be read`);
    expectEnvelope(unknown, 415, `${PREFIX} body: could not be read`);
  });

  it('refuses bodies nested deeper than 32 levels with 400 (they would overflow the validator)', async () => {
    const nest = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const body = (levels: number) => `{"organizationId":"${org.organizationId}","filterConfiguration":{},"x":${nest(levels)}}`;
    expectEnvelope(await postRaw(SHARED_FILTERS, body(31)), 400, `${PREFIX} x: unknown field`); // 32 levels in all
    expectEnvelope(await postRaw(SHARED_FILTERS, body(32)), 400, `${PREFIX} body: nested more than 32 levels deep`);
    expectEnvelope(await postRaw(SHARED_FILTERS, nest(2000)), 400, `${PREFIX} body: nested more than 32 levels deep`);
  });

  it('ignores a __proto__ key instead of polluting prototypes', async () => {
    const body = `{"organizationId":"${org.organizationId}","filterConfiguration":{},"__proto__":{"polluted":true}}`;
    const response = await postRaw(SHARED_FILTERS, body);
    expect(response.status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const nested = `{"organizationId":"${org.organizationId}","filterConfiguration":{"groupBy":{"__proto__":{"dimension":"service"}}}}`;
    expect((await postRaw(SHARED_FILTERS, nested)).status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).dimension).toBeUndefined();
  });

  it('never answers bad input with a 5xx, on any endpoint', async () => {
    const deep = '['.repeat(40) + ']'.repeat(40);
    const bodies = [
      '{}',
      '{"unknown":1}',
      '{"filters":[]}',
      '{"filters":{"inclusions":{"services":"Amazon EC2"}}}',
      '{"filters":{"inclusions":{"services":[null,1,{}]}}}',
      '{"filters":{"inclusions":{"dateRange":{"start":"2026-13-01","end":"x"}}}}',
      '{"filters":{"inclusions":{"resourceTag":null,"resourceTagValues":["a"]}}}',
      '{"filters":{"exclusions":{"costCategory":"","costCategoryValues":[]}}}',
      '{"groupBy":{"dateGrouping":"daily","dimension":"tag:"}}',
      '{"groupBy":{"dateGrouping":"daily","dimensions":"service"}}',
      '{"groupBy":{"dateGrouping":"daily","dimensions":[]}}',
      '{"groupBy":null}',
      '{"tagKey":null}',
      '{"tagKey":""}',
      `{"tagKey":"${'k'.repeat(1000)}"}`,
      '{"categoryKey":["a"]}',
      '{"fields":["nope"]}',
      '{"fields":"services"}',
      '{"metric":"nope","baselinePeriod":{"start":"2026-10-31","end":"2026-10-01"}}',
      '{"baselinePeriod":[],"comparisonPeriod":"x"}',
      '{"organizationId":null,"filterConfiguration":null}',
      `{"organizationId":"${org.organizationId}","filterConfiguration":{"filters":{"inclusions":{"dateRange":null}}},"x":${deep}}`,
      `{"filters":{"inclusions":{"services":${deep}}}}`,
      '{"a":1e999,"b":-0,"c":"\\u0000"}',
    ];
    const failures: string[] = [];
    for (const path of POST_ENDPOINTS) {
      for (const body of bodies) {
        const response = await postRaw(path, body);
        if (response.status >= 500 || typeof response.body?.success !== 'boolean') {
          failures.push(`${path} ${body.slice(0, 80)} → ${response.status} ${response.text.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('never echoes a key or the Bearer scheme in any response', () => {
    expect(seen.length).toBeGreaterThan(100);
    for (const response of seen) {
      expect(response.text ?? '').not.toMatch(/bearer/i);
      expect(response.text ?? '').not.toContain(org.key);
      expect(response.text ?? '').not.toContain('cik_');
    }
  });
});
