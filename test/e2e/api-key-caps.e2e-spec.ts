// modes: embedded server cluster — keys counted in the store, budgets in memory or Redis
import { startAppWithEnv } from '../support/app-with-env';
import { expectRateLimited, rateHeaders } from '../support/rate-limits';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 35 §3: the admin API's caps, each a setting with a clear 4xx past it, checked at its boundary on
 * small settings: unrevoked keys per organisation (one admin key once created 300 keys in 4 s), a data
 * scope's values and bytes (a 1 MB scope was accepted), the list paged (it answered 279 MB), and an
 * organisation's request budget beside each key's (4 keys made 1,200 requests in 3 s at 300 per key).
 */
const ADMIN = '/v1/admin/api-keys';
const DATA = '/v1/cost-insights/data';
const INVALID = 'Invalid request. Please see message details.';

describe('API key caps', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startAppWithEnv({
      MAX_ACTIVE_API_KEYS_PER_ORGANIZATION: '3',
      DATA_SCOPE_MAX_VALUES: '5',
      DATA_SCOPE_MAX_BYTES: '300',
      API_KEY_LIST_PAGE_SIZE: '2',
    });
  });
  afterAll(() => t.close());

  const create = (admin: TestOrganization, body: object) => t.http.post(ADMIN).set(admin.auth).send(body);

  it('refuses a key past MAX_ACTIVE_API_KEYS_PER_ORGANIZATION with a 403, until one is revoked', async () => {
    const admin = await t.newOrganization(); // its own key is the first
    const created = [];
    for (let i = 0; i < 2; i++) {
      const response = await create(admin, { name: `k${i}`, scopes: ['cost:read'] });
      expect(response.status).toBe(201);
      created.push(response.body.data.id as string);
    }
    const refused = await create(admin, { name: 'one too many', scopes: ['cost:read'] });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      success: false,
      error: {
        message:
          'API key limit reached: this organization has 3 active keys and the limit is 3 (MAX_ACTIVE_API_KEYS_PER_ORGANIZATION). Revoke a key it no longer needs first.',
      },
    });
    // Another organisation is not affected; revoking frees a place.
    expect((await create(await t.newOrganization(), { name: 'other', scopes: ['cost:read'] })).status).toBe(201);
    expect((await t.http.delete(`${ADMIN}/${created[0]}`).set(admin.auth)).status).toBe(200);
    expect((await create(admin, { name: 'after a revocation', scopes: ['cost:read'] })).status).toBe(201);
    expect((await create(admin, { name: 'one too many again', scopes: ['cost:read'] })).status).toBe(403);
  });

  it('refuses a data scope past DATA_SCOPE_MAX_VALUES or DATA_SCOPE_MAX_BYTES with a 400, exactly at the bound', async () => {
    const admin = await t.newOrganization();
    const values = (n: number) => Array.from({ length: n }, (_, i) => `acct-${i}`);
    const atValues = await create(admin, {
      name: 'five',
      scopes: ['cost:read'],
      dataScope: { inclusions: { accountIds: values(3) }, exclusions: { services: values(2) } },
    });
    expect(atValues.status).toBe(201);
    const overValues = await create(admin, {
      name: 'six',
      scopes: ['cost:read'],
      dataScope: { inclusions: { accountIds: values(3), resourceTag: 'team', resourceTagValues: ['a', 'b'] } },
    });
    expect(overValues.status).toBe(400);
    expect(overValues.body.error.message).toBe(
      `${INVALID} dataScope: 6 values and keys, over the limit of 5 (DATA_SCOPE_MAX_VALUES); a data scope names a slice of the organisation: use fewer, broader values`,
    );
    // {"inclusions":{"accountIds":["…"]}} is 34 bytes plus the value.
    const admin2 = await t.newOrganization();
    const atBytes = await create(admin2, {
      name: 'bytes',
      scopes: ['cost:read'],
      dataScope: { inclusions: { accountIds: ['x'.repeat(266)] } },
    });
    expect(atBytes.status).toBe(201);
    const overBytes = await create(admin2, {
      name: 'bytes',
      scopes: ['cost:read'],
      dataScope: { inclusions: { accountIds: ['x'.repeat(267)] } },
    });
    expect(overBytes.status).toBe(400);
    expect(overBytes.body.error.message).toBe(
      `${INVALID} dataScope: 301 bytes as stored, over the limit of 300 bytes (DATA_SCOPE_MAX_BYTES); use fewer or shorter values`,
    );
  });

  it('pages GET /v1/admin/api-keys: API_KEY_LIST_PAGE_SIZE by default and at most, nextCursor to the end', async () => {
    const admin = await t.newOrganization();
    // Three keys in all (the cap): the admin's and two more, listed oldest first.
    for (const name of ['second', 'third']) expect((await create(admin, { name, scopes: ['cost:read'] })).status).toBe(201);
    const first = await t.http.get(ADMIN).set(admin.auth);
    expect(first.status).toBe(200);
    expect(first.body.data.keys.map((key: { name: string }) => key.name)).toEqual(['test key', 'second']);
    expect(typeof first.body.data.nextCursor).toBe('string');
    const second = await t.http.get(ADMIN).query({ cursor: first.body.data.nextCursor }).set(admin.auth);
    expect(second.body.data).toMatchObject({ keys: [{ name: 'third' }], nextCursor: null });
    // limit 1 pages one by one; past the page size, not a number, or a garbage cursor: a 400 naming the parameter.
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.http
        .get(ADMIN)
        .query({ limit: '1', ...(cursor ? { cursor } : {}) })
        .set(admin.auth);
      expect(page.body.data.keys).toHaveLength(1);
      names.push(page.body.data.keys[0].name);
      cursor = page.body.data.nextCursor ?? undefined;
    } while (cursor);
    expect(names).toEqual(['test key', 'second', 'third']);
    for (const [query, detail] of [
      [{ limit: '3' }, 'limit: Expected an integer from 1 to 2 (API_KEY_LIST_PAGE_SIZE), received "3"'],
      [{ limit: '0' }, 'limit: Expected an integer from 1 to 2 (API_KEY_LIST_PAGE_SIZE), received "0"'],
      [{ limit: 'ten' }, 'limit: Expected an integer from 1 to 2 (API_KEY_LIST_PAGE_SIZE), received "ten"'],
      [{ cursor: 'garbage' }, 'cursor: is not a cursor of this list; pass the nextCursor of the previous page as it is'],
      [{ offset: '2' }, 'offset: unknown query parameter'],
    ] as const) {
      const response = await t.http.get(ADMIN).query(query).set(admin.auth);
      expect([query, response.status, response.body.error?.message]).toEqual([query, 400, `${INVALID} ${detail}`]);
    }
  });
});

describe('Per-organisation request budget', () => {
  const KEY = 4;
  const ORGANIZATION = 6;
  let t: TestApp;

  beforeAll(async () => {
    t = await startAppWithEnv({ RATE_LIMIT_PER_MINUTE: String(KEY), ORGANIZATION_RATE_LIMIT_PER_MINUTE: String(ORGANIZATION) });
  });
  afterAll(() => t.close());

  it('caps the organisation’s keys together at ORGANIZATION_RATE_LIMIT_PER_MINUTE, whatever the number of keys', async () => {
    const first = await t.newOrganization();
    const keys = [first, ...(await Promise.all([1, 2, 3].map(() => t.keyFor(first.organizationId))))];
    const body = { groupBy: { dateGrouping: 'monthly' } };
    const statuses: number[] = [];
    const refusals = [];
    for (const key of keys) {
      for (let i = 0; i < KEY; i++) {
        const response = await t.http.post(DATA).set(key.auth).send(body);
        statuses.push(response.status);
        if (response.status === 429) refusals.push(response);
        else {
          expect(rateHeaders(response).limit).toBe(KEY);
          expect(response.headers['x-ratelimit-organization-limit']).toBe(String(ORGANIZATION));
        }
      }
    }
    // 4 keys × 4 requests: 6 answered (the organisation's budget), not 16.
    expect(statuses.filter((status) => status === 200)).toHaveLength(ORGANIZATION);
    expect(statuses.filter((status) => status === 429)).toHaveLength(4 * KEY - ORGANIZATION);
    const refusal = refusals[0];
    expect(refusal.headers['retry-after']).toMatch(/^\d+$/);
    expect(refusal.headers['x-ratelimit-organization-remaining']).toBe('0');
    expect(refusal.body.error.message).toBe(
      `Rate limit exceeded: the organization's keys together used its ${ORGANIZATION} requests per minute (ORGANIZATION_RATE_LIMIT_PER_MINUTE). Please retry after ${refusal.headers['retry-after']} seconds.`,
    );
    // Another organisation has its own budget; the key's own limit still applies first.
    const other = await t.newOrganization();
    for (let i = 0; i < KEY; i++) expect((await t.http.post(DATA).set(other.auth).send(body)).status).toBe(200);
    expectRateLimited(await t.http.post(DATA).set(other.auth).send(body), KEY);
  });
});
