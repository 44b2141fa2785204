import { randomUUID } from 'node:crypto';
import { freePort } from '../support/local-servers';
import { browse, CookieJar, OIDC_CLIENT, RunningOidcProvider, signInAtProvider, startOidcProvider } from '../support/oidc-provider';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Sign-in to the Settings pages through a real OpenID Provider (issue 36): oidc-provider in a child process with its
 * own login form, the service configured for it by environment. alice is in finops-admins (mapped to the
 * organisation with api-keys:admin), bob in finops-readers (mapped with cost:read only), carol in no group.
 */
const KEYS = '/v1/admin/api-keys';
const EVENTS = '/v1/admin/audit-events';

describe('Sign-in through an OpenID Provider', () => {
  let t: TestApp;
  let provider: RunningOidcProvider;
  let base: string;
  const organizationId = randomUUID();
  let adminKey: TestOrganization;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider([`${base}/auth/callback`]);
    t = await TestApp.start({
      settings: {
        SSO_ISSUER_URL: provider.issuer,
        SSO_CLIENT_ID: OIDC_CLIENT.clientId,
        SSO_CLIENT_SECRET: OIDC_CLIENT.clientSecret,
        SSO_REDIRECT_URL: `${base}/auth/callback`,
        SSO_SCOPES: 'openid email groups',
        SSO_GROUP_MAPPINGS: JSON.stringify([
          { group: 'finops-admins', organizationId, scopes: ['api-keys:admin', 'cost:read'] },
          { group: 'finops-readers', organizationId, scopes: ['cost:read'] },
        ]),
      },
    });
    await t.app.listen(port, '127.0.0.1');
    adminKey = await t.keyFor(organizationId, ['api-keys:admin', 'cost:read']);
  });
  afterAll(async () => {
    await t?.close();
    provider?.stop();
  });

  /** Signs `user` in through the provider's form; the jar then holds the session cookie (if granted). */
  async function signIn(user: string, returnTo = '/settings/api-keys'): Promise<{ jar: CookieJar; callback: Response }> {
    const jar = new CookieJar();
    const back = await signInAtProvider(jar, `${base}/auth/sign-in?returnTo=${encodeURIComponent(returnTo)}`, user);
    return { jar, callback: await browse(jar, back) };
  }
  const asSession = (jar: CookieJar, path: string, init: RequestInit = {}) => browse(jar, `${base}${path}`, init);
  const auditActions = async () =>
    (await t.http.get(EVENTS).set(adminKey.auth)).body.data.events as Array<{
      action: string;
      actor: { kind: string; id: string; email: string | null };
      details: Record<string, unknown>;
    }>;

  it('signs alice in: a Secure, HttpOnly, SameSite=Strict session that administers her organisation, recorded with her as the actor', async () => {
    const { jar, callback } = await signIn('alice');
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/settings/api-keys');
    const sessionCookie = callback.headers.getSetCookie().find((cookie) => cookie.startsWith('ci_session='))!;
    expect(sessionCookie).toMatch(/HttpOnly/);
    expect(sessionCookie).toMatch(/Secure/);
    expect(sessionCookie).toMatch(/SameSite=Strict/);

    const who = (await (await asSession(jar, '/auth/session')).json()) as { data: unknown };
    expect(who.data).toMatchObject({
      sso: true,
      signedIn: { email: 'alice@example.com', subject: 'alice', organizationId, scopes: ['api-keys:admin', 'cost:read'] },
    });
    expect((await asSession(jar, KEYS)).status).toBe(200);
    const created = await asSession(jar, KEYS, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ name: 'made by alice', scopes: ['cost:read'] }),
    });
    expect(created.status).toBe(201);
    const key = ((await created.json()) as { data: { id: string } }).data;

    const events = await auditActions();
    expect(events.find((event) => event.action === 'api-key.created')).toMatchObject({
      actor: { kind: 'sso', id: 'alice', email: 'alice@example.com' },
    });
    expect(events.find((event) => event.action === 'sign-in.succeeded')).toMatchObject({
      actor: { kind: 'sso', id: 'alice', email: 'alice@example.com' },
    });
    // Data routes take API keys only: a session is for the Settings pages.
    expect((await asSession(jar, '/v1/cost-insights/filters', { method: 'POST', headers: { origin: base } })).status).toBe(401);

    // Signed out: the session ends everywhere (the record is gone, not only the cookie).
    const stolenCookie = jar.get(base, 'ci_session')!;
    const out = await asSession(jar, '/auth/sign-out', { method: 'POST', headers: { origin: base } });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ success: true, data: { signedOut: true } });
    const replayed = await fetch(`${base}${KEYS}/${key.id}`, {
      method: 'DELETE',
      headers: { cookie: `ci_session=${stolenCookie}`, origin: base },
    });
    expect(replayed.status).toBe(401);
    expect((await auditActions()).map((event) => event.action)).toContain('sign-out');
  });

  it('refuses a change with the session from another site, and one that names no origin', async () => {
    const { jar } = await signIn('alice');
    const attempt = (headers: Record<string, string>) =>
      asSession(jar, KEYS, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'csrf', scopes: ['cost:read'] }),
      });
    const crossSite = await attempt({ origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { error: { message: string } }).error.message).toContain(`Settings pages at ${base}`);
    expect((await attempt({})).status).toBe(403);
    expect((await attempt({ 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    const names = ((await t.http.get(KEYS).set(adminKey.auth)).body.data.keys as Array<{ name: string }>).map((key) => key.name);
    expect(names.filter((name) => name === 'csrf')).toHaveLength(1);
  });

  it('grants only the mapped permissions: bob reads but does not administer', async () => {
    const { jar, callback } = await signIn('bob');
    expect(callback.status).toBe(302);
    expect((await asSession(jar, KEYS)).status).toBe(403);
  });

  it('refuses carol, in no mapped group, with a page that says why, and records the refusal', async () => {
    const { jar, callback } = await signIn('carol');
    expect(callback.status).toBe(403);
    expect(callback.headers.getSetCookie().some((cookie) => cookie.startsWith('ci_session=') && !/Max-Age=0/.test(cookie))).toBe(false);
    expect(await callback.text()).toContain('none of your groups');
    expect(jar.get(base, 'ci_session')).toBeUndefined();
    const refusal = (await auditActions()).find((event) => event.action === 'sign-in.failed' && event.actor.id === 'carol');
    expect(refusal).toMatchObject({
      actor: { kind: 'sso', email: 'carol@example.com' },
      details: { reason: expect.stringContaining('none of your groups') },
    });
  });

  it('refuses a forged state and a replayed callback, granting nothing', async () => {
    const jar = new CookieJar();
    const back = await signInAtProvider(jar, `${base}/auth/sign-in`, 'alice');
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state');
    const refused = await browse(jar, forged.toString());
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('state mismatch');
    // The pending sign-in was used by that attempt: the genuine callback, replayed after it, finds none.
    const replayed = await browse(jar, back);
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain('already used');
    expect(jar.get(base, 'ci_session')).toBeUndefined();
    // A callback from a browser that never started a sign-in.
    expect((await fetch(back, { redirect: 'manual' })).status).toBe(400);
  });

  it('returns only to a Settings page: no open redirect through returnTo', async () => {
    for (const returnTo of ['https://evil.example/', '//evil.example/settings/api-keys', '/settings/../v1/admin/api-keys']) {
      const { callback } = await signIn('alice', returnTo);
      expect(callback.headers.get('location')).toBe('/settings/api-keys');
    }
    expect((await signIn('alice', '/settings/audit-log')).callback.headers.get('location')).toBe('/settings/audit-log');
  });
});
