// modes: embedded — the 401s of the key format
import { withChecksum } from '../support/key-format';
import type { Response } from 'supertest';
import { generateApiKey } from '../../src/auth/api-key-format';
import { TestApp, TestOrganization } from '../support/test-app';

const SHARED_FILTERS = '/v1/cost-insights/shared-filters';
const UNAUTHORIZED = { message: 'Unauthorized' };

/**
 * The documented key format, re-implemented here so the test does not trust the code under test:
 * `cik_<12 base62 id>_<43 base62 secret><6 base62 CRC-32 of everything before>`.
 */

/** One character of `key` at `index` replaced by a different base62 character. */
function flipCharacter(key: string, index: number): string {
  return key.slice(0, index) + (key[index] === 'a' ? 'b' : 'a') + key.slice(index + 1);
}

describe('authentication and scopes', () => {
  let t: TestApp;
  let org: TestOrganization;
  let filterId: string;
  const seen: Response[] = [];
  const keys: string[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    org = await t.newOrganization();
    keys.push(org.key);
    const created = await t.http
      .post(SHARED_FILTERS)
      .set(org.auth)
      .send({ organizationId: org.organizationId, filterConfiguration: { metadata: { name: 'auth probe' } } });
    expect(created.status).toBe(201);
    filterId = created.body.data.filterId;
  });
  afterAll(async () => {
    await t.close();
  });

  /** A protected read, with the given Authorization header (or none). */
  async function probe(authorization?: string): Promise<Response> {
    const request = t.http.get(`${SHARED_FILTERS}/${filterId}`);
    const response = await (authorization === undefined ? request : request.set('Authorization', authorization));
    seen.push(response);
    return response;
  }

  function expectUnauthorized(response: Response): void {
    expect(response.status).toBe(401);
    expect(response.body).toEqual(UNAUTHORIZED);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  }

  it('accepts a valid key (the baseline the 401 cases differ from)', async () => {
    const response = await probe(`Bearer ${org.key}`);
    expect(response.status).toBe(200);
    expect(response.body.data.filterConfiguration.metadata.name).toBe('auth probe');
  });

  it('accepts the Bearer scheme case-insensitively (RFC 7235)', async () => {
    expect((await probe(`bearer ${org.key}`)).status).toBe(200);
    expect((await probe(`BEARER ${org.key}`)).status).toBe(200);
  });

  it('answers a missing Authorization header with the exact gateway 401 body', async () => {
    expectUnauthorized(await probe());
    expectUnauthorized(await probe(''));
  });

  it('answers other schemes and a bare key with 401', async () => {
    expectUnauthorized(await probe(`Basic ${Buffer.from(`${org.key}:`).toString('base64')}`));
    expectUnauthorized(await probe(`Basic ${org.key}`));
    expectUnauthorized(await probe(`Token ${org.key}`));
    expectUnauthorized(await probe(org.key));
    expectUnauthorized(await probe('Bearer'));
    expectUnauthorized(await probe('Bearer '));
    expectUnauthorized(await probe(`Bearer ${org.key} ${org.key}`));
  });

  it('answers malformed keys with 401', async () => {
    for (const malformed of [
      'not-a-key',
      'cik_',
      'cik_abc',
      org.key.slice(0, -1),
      `${org.key}x`,
      org.key.replace('cik_', 'cix_'),
      org.key.replace(/_/g, '-'),
      `${org.key.slice(0, 20)}!${org.key.slice(21)}`,
    ]) {
      expectUnauthorized(await probe(`Bearer ${malformed}`));
    }
  });

  it('answers a key with one character changed (checksum mismatch) with 401', async () => {
    expectUnauthorized(await probe(`Bearer ${flipCharacter(org.key, 25)}`)); // in the secret
    expectUnauthorized(await probe(`Bearer ${flipCharacter(org.key, 8)}`)); // in the id
    expectUnauthorized(await probe(`Bearer ${flipCharacter(org.key, org.key.length - 1)}`)); // in the checksum
  });

  it('answers a well-formed key that was never issued with 401', async () => {
    const unknown = generateApiKey().key;
    expect(withChecksum(unknown.slice(0, -6))).toBe(unknown); // well-formed by the documented format
    expectUnauthorized(await probe(`Bearer ${unknown}`));
  });

  it("answers a well-formed key with a real key's id but another secret with 401", async () => {
    const [, id] = /^cik_([0-9A-Za-z]{12})_/.exec(org.key)!;
    const forged = withChecksum(`cik_${id}_${'A'.repeat(43)}`);
    expect(forged).not.toBe(org.key);
    expectUnauthorized(await probe(`Bearer ${forged}`));
    // The real key still works afterwards (a failed attempt poisons nothing).
    expect((await probe(`Bearer ${org.key}`)).status).toBe(200);
  });

  it('answers a revoked key with 401 at once, while other keys keep working', async () => {
    const doomed = await t.keyFor(org.organizationId, ['shared-filters:read']);
    const survivor = await t.keyFor(org.organizationId, ['shared-filters:read']);
    keys.push(doomed.key, survivor.key);
    expect((await probe(doomed.auth.Authorization)).status).toBe(200); // now in the auth cache

    expect(await t.apiKeys.revoke(doomed.keyId)).toBe(true);
    expectUnauthorized(await probe(doomed.auth.Authorization));
    expectUnauthorized(await probe(doomed.auth.Authorization));
    expect((await probe(survivor.auth.Authorization)).status).toBe(200);
    expect(await t.apiKeys.revoke(doomed.keyId)).toBe(true); // idempotent
    expect(await t.apiKeys.revoke('AAAAAAAAAAAA')).toBe(false);
  });

  it('checks the key before the body: a bad body without a key is 401, not 400', async () => {
    const response = await t.http.post(SHARED_FILTERS).send({ organizationId: 'bad', filterConfiguration: 1 });
    seen.push(response);
    expectUnauthorized(response);
  });

  it('answers a missing scope with a 403 envelope naming the scope', async () => {
    const costOnly = await t.keyFor(org.organizationId, ['cost:read']);
    keys.push(costOnly.key);
    const response = await probe(costOnly.auth.Authorization);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      success: false,
      error: { message: 'This API key lacks the scope required for this operation: shared-filters:read.' },
    });
    const write = await t.http
      .post(SHARED_FILTERS)
      .set(costOnly.auth)
      .send({ organizationId: org.organizationId, filterConfiguration: {} });
    seen.push(write);
    expect(write.status).toBe(403);
    expect(write.body.error.message).toBe('This API key lacks the scope required for this operation: shared-filters:write.');
  });

  it('grants cost:read endpoints to a cost:read key only', async () => {
    const costOnly = await t.keyFor(org.organizationId, ['cost:read']);
    const sharingOnly = await t.keyFor(org.organizationId, ['shared-filters:read', 'shared-filters:write']);
    keys.push(costOnly.key, sharingOnly.key);
    const allowed = await t.http.post('/v1/cost-insights/tag-values').set(costOnly.auth).send({ tagKey: 'env' });
    const denied = await t.http.post('/v1/cost-insights/tag-values').set(sharingOnly.auth).send({ tagKey: 'env' });
    seen.push(allowed, denied);
    expect(allowed.status).toBe(200);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      success: false,
      error: { message: 'This API key lacks the scope required for this operation: cost:read.' },
    });
  });

  it('never echoes a key or the Bearer scheme in any response', () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const response of seen) {
      const text = response.text ?? '';
      expect(text).not.toMatch(/bearer/i);
      expect(text).not.toMatch(/cik_/);
      for (const key of keys) expect(text).not.toContain(key);
    }
  });
});
