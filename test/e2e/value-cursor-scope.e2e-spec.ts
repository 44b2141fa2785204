// modes: embedded server cluster — cursors pinned to the rows of the store
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 35 §6: a paging cursor of /tag-values and /cost-category-values is bound to the data scope of the
 * key that got it (another scope's key, or an unscoped one, is refused), and a scoped key's cursor is
 * pinned to the rows inside its scope: an import outside the scope no longer expires it (its expiry told
 * the key that such an import happened), one inside still does.
 */
const TAG_VALUES = '/v1/cost-insights/tag-values';
const INVALID = 'Invalid request. Please see message details.';

describe('value cursors and data scopes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  const post = (key: TestOrganization, body: object) => t.http.post(TAG_VALUES).set(key.auth).send(body);
  const teamRow = (account: string, team: string) => ({
    usage_date: '2026-01-10',
    account_id: account,
    amortized_cost: '1',
    resource_tags: { team },
  });

  async function estate() {
    const whole = await t.newOrganization();
    await t.insertRows(whole.organizationId, [
      ...['a-1', 'a-2', 'a-3', 'a-4'].map((team) => teamRow('111111111111', team)),
      ...['b-1', 'b-2'].map((team) => teamRow('222222222222', team)),
    ]);
    const scopeA = { inclusions: { accountIds: ['111111111111'] } };
    const keyA = await t.keyFor(whole.organizationId, ['cost:read'], scopeA);
    const sameScope = await t.keyFor(whole.organizationId, ['cost:read'], scopeA);
    const keyB = await t.keyFor(whole.organizationId, ['cost:read'], { inclusions: { accountIds: ['222222222222'] } });
    const first = await post(keyA, { tagKey: 'team', limit: 2 });
    expect(first.body.data.values).toEqual(['a-1', 'a-2']);
    return { whole, keyA, sameScope, keyB, cursor: first.body.data.nextCursor as string };
  }

  it('refuses a cursor presented by a key with another data scope, or none', async () => {
    const { whole, keyA, sameScope, keyB, cursor } = await estate();
    for (const other of [whole, keyB]) {
      const response = await post(other, { tagKey: 'team', limit: 2, cursor });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toBe(`${INVALID} cursor: was issued to a key with another data scope`);
    }
    // A key of the same scope continues it (the scope, not the key, decides what the pages hold).
    expect((await post(sameScope, { tagKey: 'team', limit: 2, cursor })).body.data.values).toEqual(['a-3', 'a-4']);
    expect((await post(keyA, { tagKey: 'team', limit: 2, cursor })).body.data.values).toEqual(['a-3', 'a-4']);
  });

  it('keeps a scoped cursor through an import outside the scope, and expires it with one inside', async () => {
    const { whole, keyA, cursor } = await estate();
    await t.insertRows(whole.organizationId, [teamRow('222222222222', 'b-3')]);
    const outside = await post(keyA, { tagKey: 'team', limit: 2, cursor });
    expect([outside.status, outside.body.data?.values]).toEqual([200, ['a-3', 'a-4']]);
    await t.insertRows(whole.organizationId, [teamRow('111111111111', 'a-0')]);
    const inside = await post(keyA, { tagKey: 'team', limit: 2, cursor });
    expect(inside.status).toBe(400);
    expect(inside.body.error.message).toMatch(/cursor: has expired/);
  });
});
