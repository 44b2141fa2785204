// modes: embedded server cluster — a created key read back from the store at once
import { createHash } from 'node:crypto';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 19, the admin API: an organisation's `api-keys:admin` key lists, creates (the full key once) and
 * revokes the organisation's keys, never another organisation's, and a created key works at once with
 * exactly its permissions and data scope.
 */
const ADMIN = '/v1/admin/api-keys';
const DATA = '/v1/cost-insights/data';
const INVALID = 'Invalid request. Please see message details.';

describe('API keys admin API', () => {
  let t: TestApp;
  let admin: TestOrganization;
  let other: TestOrganization;

  beforeAll(async () => {
    t = await TestApp.start();
    // An admin key grants only what it holds (key-escalation.e2e-spec.ts): this one creates `cost:read` keys.
    admin = await t.newOrganization(['api-keys:admin', 'cost:read']);
    other = await t.newOrganization(['api-keys:admin', 'cost:read']);
    await t.insertRows(admin.organizationId, [
      { usage_date: '2026-10-01', account_id: '111111111111', amortized_cost: '5' },
      { usage_date: '2026-10-01', account_id: '222222222222', amortized_cost: '7' },
    ]);
  });
  afterAll(() => t.close());

  /** A body as an object, or as raw JSON text (to send keys an object literal cannot hold, such as `__proto__`). */
  const create = (key: TestOrganization, body: unknown) =>
    typeof body === 'string'
      ? t.http.post(ADMIN).set(key.auth).set('Content-Type', 'application/json').send(body)
      : t.http
          .post(ADMIN)
          .set(key.auth)
          .send(body as object);
  const monthly = {
    groupBy: { dateGrouping: 'monthly' },
    filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
  };

  it('creates a key, shows it once, and the key works at once with its permissions and data scope', async () => {
    const response = await create(admin, {
      name: '  Payments dashboards ',
      scopes: ['cost:read', 'cost:read'],
      dataScope: { inclusions: { accountIds: ['222222222222'] } },
    });
    expect(response.status).toBe(201);
    const created = response.body.data;
    expect(Object.keys(created).sort()).toEqual([
      'createdAt',
      'dataScope',
      'dataScopeDescription',
      'id',
      'key',
      'lastUsedAt',
      'name',
      'revokedAt',
      'scopes',
    ]);
    expect(created).toMatchObject({
      name: 'Payments dashboards',
      scopes: ['cost:read'],
      dataScope: { inclusions: { accountIds: ['222222222222'] } },
      dataScopeDescription: 'accountIds in (222222222222)',
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(created.key).toMatch(new RegExp(`^cik_${created.id}_`));

    const answer = await t.http.post(DATA).set('Authorization', `Bearer ${created.key}`).send(monthly);
    expect(answer.status).toBe(200);
    expect(answer.body.data.summary.total_amortized_cost).toBe(7);
    const forbidden = await t.http.get(ADMIN).set('Authorization', `Bearer ${created.key}`);
    expect(forbidden.status).toBe(403);

    // Listed with everything but the key.
    const listed = await t.http.get(ADMIN).set(admin.auth);
    expect(listed.status).toBe(200);
    const entry = listed.body.data.keys.find((key: { id: string }) => key.id === created.id);
    expect(entry).toEqual({ ...created, key: undefined });
    expect(listed.text).not.toContain(created.key);
    expect(listed.text).not.toContain(created.key.slice(17));
    expect(listed.text).not.toContain(createHash('sha256').update(created.key).digest('hex'));
  });

  it('shows when each key was last used, written in batches (not per request)', async () => {
    const used = (await create(admin, { name: 'used', scopes: ['cost:read'] })).body.data;
    const idle = (await create(admin, { name: 'idle', scopes: ['cost:read'] })).body.data;
    const apiKeys = t.app.get(ApiKeysService);
    await apiKeys.flushLastUsed();
    const before = Date.now();
    for (let i = 0; i < 3; i++) await t.http.post(DATA).set('Authorization', `Bearer ${used.key}`).send(monthly);
    const after = Date.now();
    const unwritten = (await t.http.get(ADMIN).set(admin.auth)).body.data.keys;
    // Nothing written per request: until the instance writes its batch, the use is not in the store.
    expect(unwritten.find((key: { id: string }) => key.id === used.id).lastUsedAt).toBeNull();
    await apiKeys.flushLastUsed();
    const keys = (await t.http.get(ADMIN).set(admin.auth)).body.data.keys as { id: string; lastUsedAt: string | null }[];
    const lastUsed = Date.parse(keys.find((key) => key.id === used.id)!.lastUsedAt!);
    expect(lastUsed).toBeGreaterThanOrEqual(before);
    expect(lastUsed).toBeLessThanOrEqual(after);
    expect(keys.find((key) => key.id === idle.id)!.lastUsedAt).toBeNull();
  });

  it('revokes a key of the organisation (idempotent), which then gets 401', async () => {
    const created = (await create(admin, { name: 'to revoke', scopes: ['cost:read'] })).body.data;
    const revoked = await t.http.delete(`${ADMIN}/${created.id}`).set(admin.auth);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: created.id, revokedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    const again = await t.http.delete(`${ADMIN}/${created.id}`).set(admin.auth);
    expect([again.status, again.body.data.revokedAt]).toEqual([200, revoked.body.data.revokedAt]);
    const refused = await t.http.post(DATA).set('Authorization', `Bearer ${created.key}`).send(monthly);
    expect([refused.status, refused.body]).toEqual([401, { message: 'Unauthorized' }]);
  });

  it('answers another organisation’s key id exactly like a missing one, and never lists it', async () => {
    const theirs = (await create(other, { name: 'theirs', scopes: ['cost:read'] })).body.data;
    const foreign = await t.http.delete(`${ADMIN}/${theirs.id}`).set(admin.auth);
    const missing = await t.http.delete(`${ADMIN}/NoSuchKey123`).set(admin.auth);
    const malformed = await t.http.delete(`${ADMIN}/${encodeURIComponent("x'; DROP TABLE api_keys; --")}`).set(admin.auth);
    for (const response of [foreign, missing, malformed]) {
      expect([response.status, response.body]).toEqual([404, { success: false, error: { message: 'API key not found.' } }]);
    }
    const listed = await t.http.get(ADMIN).set(admin.auth);
    expect(listed.text).not.toContain(theirs.id);
    // Still alive for its own organisation.
    expect((await t.http.post(DATA).set('Authorization', `Bearer ${theirs.key}`).send(monthly)).status).toBe(200);
  });

  it('needs api-keys:admin and a key without a data scope', async () => {
    const reader = await t.keyFor(admin.organizationId, ['cost:read']);
    const scopedAdmin = await t.keyFor(admin.organizationId, ['api-keys:admin'], { inclusions: { accountIds: ['111111111111'] } });
    for (const key of [reader, scopedAdmin]) {
      for (const request of [
        t.http.get(ADMIN),
        t.http.post(ADMIN).send({ name: 'x', scopes: ['cost:read'] }),
        t.http.delete(`${ADMIN}/abc`),
      ]) {
        const response = await request.set(key.auth);
        expect(response.status).toBe(403);
        expect(response.body.success).toBe(false);
      }
    }
    expect((await t.http.get(ADMIN)).status).toBe(401);
  });

  it('refuses hostile and invalid bodies with a 400 naming the field, never a 5xx, and creates nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /name: Expected string.*scopes: Expected array/],
      [{ name: '', scopes: ['cost:read'] }, /name: must not be empty/],
      [{ name: 'x'.repeat(201), scopes: ['cost:read'] }, /name: at most 200 characters/],
      [
        { name: 'a\u0000b', scopes: ['cost:read'] },
        /name: must not contain control, bidirectional, zero-width or line-separator characters \(U\+0000\)/,
      ],
      [{ name: 'x', scopes: [] }, /scopes: must list at least one scope/],
      [{ name: 'x', scopes: ['root'] }, /scopes\[0\]|scopes: .*Expected one of/],
      [{ name: 'x', scopes: 'cost:read' }, /scopes: Expected array/],
      [
        { name: 'x', scopes: ['cost:read'], dataScope: { inclusions: { dateRange: { start: '2026-01-01', end: '2026-01-02' } } } },
        /dataScope\.inclusions\.dateRange/,
      ],
      [{ name: 'x', scopes: ['cost:read'], dataScope: { inclusions: { team: ['a'] } } }, /dataScope\.inclusions\.team: unknown field/],
      [
        { name: 'x', scopes: ['cost:read'], dataScope: { inclusions: { services: "'; DROP TABLE api_keys; --" } } },
        /dataScope\.inclusions\.services/,
      ],
      [{ name: 'x', scopes: ['cost:read'], organizationId: other.organizationId }, /organizationId: unknown field/],
      ['{"name":"x","scopes":["cost:read"],"__proto__":{"scopes":["api-keys:admin"]}}', /__proto__: unknown field/],
    ];
    for (const [body, message] of cases) {
      const response = await create(admin, body);
      const label = typeof body === 'string' ? body : JSON.stringify(body);
      expect([label, response.status]).toEqual([label, 400]);
      expect(response.body.error.message.startsWith(INVALID)).toBe(true);
      expect(response.body.error.message).toMatch(message);
    }
    const listed = await t.http.get(ADMIN).set(admin.auth);
    expect(listed.body.data.keys.map((key: { name: string }) => key.name)).not.toContain('x');
  });
});
