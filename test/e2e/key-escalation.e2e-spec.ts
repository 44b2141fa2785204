// modes: embedded — grants checked before anything is stored
import { SCOPES, Scope } from '../../src/common/http/principal';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 35 §5: an admin key may grant only what it holds itself (a key holding only `api-keys:admin`
 * once created an unscoped key with every permission), admin plus a data scope is refused with a 400
 * that says why (it was accepted, then refused by every admin route), and an empty data scope is a 400
 * instead of a whole-organisation key.
 */
const ADMIN = '/v1/admin/api-keys';
const INVALID = 'Invalid request. Please see message details.';

describe('API key escalation', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  const create = (key: TestOrganization, body: object) => t.http.post(ADMIN).set(key.auth).send(body);
  const names = async (key: TestOrganization) =>
    ((await t.http.get(ADMIN).set(key.auth)).body.data.keys as { name: string }[]).map((entry) => entry.name);

  it('refuses every permission the creating key does not hold itself (403 naming them), and creates nothing', async () => {
    // Every scope besides admin, taken from the list itself: a scope added later is covered too.
    const others = SCOPES.filter((scope) => scope !== 'api-keys:admin');
    const admin = await t.newOrganization(['api-keys:admin']);
    for (const scope of others) {
      const response = await create(admin, { name: `wants ${scope}`, scopes: [scope] });
      expect([scope, response.status]).toEqual([scope, 403]);
      expect(response.body).toEqual({
        success: false,
        error: {
          message: `This key cannot grant ${scope}: a key may grant only permissions it holds itself (it holds api-keys:admin).`,
        },
      });
    }
    const all = await create(admin, { name: 'wants all', scopes: [...SCOPES] });
    expect(all.status).toBe(403);
    expect(all.body.error.message).toBe(
      `This key cannot grant ${others.join(', ')}: a key may grant only permissions it holds itself (it holds api-keys:admin).`,
    );
    expect(await names(admin)).toEqual(['test key']);
    // What it holds, it may grant.
    const peer = await create(admin, { name: 'another admin', scopes: ['api-keys:admin'] });
    expect(peer.status).toBe(201);
  });

  it('lets a key grant any subset of what it holds, for every scope', async () => {
    for (const scope of SCOPES) {
      const held: Scope[] = scope === 'api-keys:admin' ? ['api-keys:admin'] : ['api-keys:admin', scope];
      const admin = await t.newOrganization(held);
      const response = await create(admin, { name: `gets ${scope}`, scopes: [scope] });
      expect([scope, response.status]).toEqual([scope, 201]);
      expect(response.body.data.scopes).toEqual([scope]);
    }
    const full = await t.newOrganization();
    expect((await create(full, { name: 'everything', scopes: [...SCOPES] })).status).toBe(201);
  });

  it('refuses api-keys:admin with a data scope with a 400 that says why', async () => {
    const admin = await t.newOrganization();
    const response = await create(admin, {
      name: 'scoped admin',
      scopes: ['api-keys:admin', 'cost:read'],
      dataScope: { inclusions: { clouds: ['AWS'] } },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe(
      `${INVALID} dataScope: a key with api-keys:admin cannot have a data scope (the admin routes refuse scoped keys, which could otherwise create keys that see more than they do); create an admin key without a data scope, and a scoped key without api-keys:admin`,
    );
    expect(await names(admin)).toEqual(['test key']);
  });

  it('refuses a data scope that restricts nothing with a 400, instead of making a whole-organisation key', async () => {
    const admin = await t.newOrganization();
    for (const dataScope of [
      { inclusions: { clouds: [] } },
      {},
      { inclusions: {}, exclusions: { services: [] } },
      { inclusions: { resourceTag: null } },
    ]) {
      const response = await create(admin, { name: 'empty scope', scopes: ['cost:read'], dataScope });
      expect([JSON.stringify(dataScope), response.status]).toEqual([JSON.stringify(dataScope), 400]);
      expect(response.body.error.message).toBe(
        `${INVALID} dataScope: restricts nothing (empty lists are ignored), which would make a whole-organisation key; give it at least one value, or leave dataScope out (or null) for a key that sees the whole organisation`,
      );
    }
    expect(await names(admin)).toEqual(['test key']);
    // Left out or null: a whole-organisation key, as documented.
    for (const body of [
      { name: 'whole', scopes: ['cost:read'] },
      { name: 'whole', scopes: ['cost:read'], dataScope: null },
    ]) {
      const response = await create(admin, body);
      expect(response.status).toBe(201);
      expect(response.body.data.dataScope).toBeNull();
    }
  });
});
