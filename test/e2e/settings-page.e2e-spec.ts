// modes: embedded — the Settings page in Chromium
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { SETTINGS_PAGES } from '../../src/settings-page/settings-page.middleware';
import { SourcesService } from '../../src/sources/sources.service';
import { listen } from '../support/app-with-env';
import { describeWithTools, systemToolPath } from '../support/system-tools';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 19: the Settings > API keys page, served by the service, driven in Debian's Chromium against the
 * real server: sign in with an admin key, create a key scoped to one team from the live values, see it
 * once, use it through the API (only the team's slice), revoke it in the page, and it gets 401.
 * Screenshots of a failing step go to .test-tmp/screenshots.
 */
const SCREENSHOTS = join(process.env.E2E_TMP_DIR ?? '.test-tmp', 'screenshots');
const DOCS_IMAGES = resolve(__dirname, '../../docs/images');
const DATA = '/v1/cost-insights/data';
const KEY_LIST_PAGE = 2;
const question = {
  groupBy: { dateGrouping: 'monthly' },
  filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
};

describeWithTools(['chromium'])('Settings > API keys page', () => {
  let t: TestApp;
  let base: string;
  let admin: TestOrganization;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];
  const exportDirs: string[] = [];

  beforeAll(async () => {
    // Two keys per page of GET /v1/admin/api-keys: the page must follow nextCursor to show every key.
    t = await TestApp.start({ settings: { API_KEY_LIST_PAGE_SIZE: String(KEY_LIST_PAGE) } });
    base = await listen(t);
    admin = await t.newOrganization(['api-keys:admin', 'cost:read']);
    await t.insertRows(admin.organizationId, [
      // A key that sorts before `team`, with a look-alike value: its values are what the page loads first.
      { usage_date: '2026-10-01', amortized_cost: '40', resource_tags: { team: 'payments', application: 'payments-api' } },
      { usage_date: '2026-10-02', amortized_cost: '2.5', resource_tags: { team: 'payments' } },
      { usage_date: '2026-10-01', amortized_cost: '1000', resource_tags: { team: 'search' } },
    ]);
    browser = await chromium.launch({
      executablePath: systemToolPath('chromium'),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
    page = await browser.newPage();
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    page.on('pageerror', (error) => consoleErrors.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    for (const dir of exportDirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs a step; on failure saves a screenshot named after it, then fails. */
  async function step<T>(name: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true }).catch(() => undefined);
      throw error;
    }
  }

  /** A page's screenshot: to .test-tmp/screenshots, and with UPDATE_SCREENSHOTS=1 to docs/images (the docs' pictures). */
  async function screenshot(tab: Page, name: string): Promise<void> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = `settings-${name}.png`;
    await tab.screenshot({ path: join(SCREENSHOTS, file), fullPage: true });
    if (process.env.UPDATE_SCREENSHOTS === '1') copyFileSync(join(SCREENSHOTS, file), join(DOCS_IMAGES, file));
  }

  /** An organisation with something on every page: keys, rates, tagged costs, a data source (imported), audit events. */
  async function settingsWorthShowing(owner: TestOrganization): Promise<void> {
    for (const name of ['Payments dashboards', 'Finance exports']) {
      const created = await fetch(`${base}/v1/admin/api-keys`, {
        method: 'POST',
        headers: { ...owner.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, scopes: ['cost:read'] }),
      });
      expect(created.status).toBe(201);
    }
    const rates = await fetch(`${base}/v1/admin/exchange-rates?source=ECB`, {
      method: 'POST',
      headers: { ...owner.auth, 'Content-Type': 'text/csv' },
      body: 'date,from,to,rate\n2026-10-01,EUR,USD,1.0824\n2026-10-02,EUR,USD,1.0791\n2026-10-01,GBP,USD,1.2987\n',
    });
    expect(rates.status).toBe(200);
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    await t.insertRows(owner.organizationId, [
      { usage_date: day(1), amortized_cost: '40.5', resource_tags: { team: 'payments', env: 'prod', build: 'b-101' } },
      { usage_date: day(2), amortized_cost: '25', resource_tags: { team: 'search', env: 'prod', build: 'b-102' } },
      { usage_date: day(3), amortized_cost: '5', resource_tags: { env: 'dev', build: 'b-103' } },
    ]);
    const category = await fetch(`${base}/v1/admin/cost-categories/BusinessUnit`, {
      method: 'PUT',
      headers: { ...owner.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        defaultValue: 'Unallocated',
        rules: [
          { value: 'Payments', caseInsensitive: true, when: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } } },
          { inheritTag: 'team' },
        ],
      }),
    });
    expect(category.status).toBe(200);
    // A short path, for the screenshot; delivered ten minutes ago.
    const dir = mkdtempSync(join(tmpdir(), 'exports-'));
    exportDirs.push(dir);
    writeFileSync(
      join(dir, 'september.csv'),
      'BilledCost,EffectiveCost,ListCost,ChargeCategory,ChargePeriodStart,BillingPeriodStart,BillingAccountId,ServiceName,ProviderName,BillingCurrency\n' +
        '12,12,12,Usage,2026-09-01T00:00:00Z,2026-09-01T00:00:00Z,1,EC2,AWS,USD\n',
    );
    const delivered = new Date(Date.now() - 10 * 60_000);
    utimesSync(join(dir, 'september.csv'), delivered, delivered);
    const sources = t.app.get(SourcesService);
    const source = await sources.add(
      owner.organizationId,
      { integrationId: 'aws-payer', kind: 'focus-files', url: `file://${resolve(dir)}` },
      'operator',
    );
    await sources.run(owner.organizationId, source.sourceId);
  }

  const api = (key: string) =>
    fetch(`${base}${DATA}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(question),
    });

  it('serves every page, its script and the shared files once, with a strict Content-Security-Policy and no inline code', async () => {
    const shared = [
      '/settings/shared/settings.css',
      '/settings/shared/sign-in.js',
      '/settings/shared/page.js',
      '/settings/shared/icon.svg',
    ];
    const paths = SETTINGS_PAGES.flatMap(({ path }) => [path, `${path}/app.js`]);
    for (const path of [...paths, ...shared]) {
      const response = await fetch(`${base}${path}`);
      expect([path, response.status]).toEqual([path, 200]);
      const type = path.endsWith('.js')
        ? 'text/javascript'
        : path.endsWith('.css')
          ? 'text/css'
          : path.endsWith('.svg')
            ? 'image/svg+xml'
            : 'text/html';
      expect([path, response.headers.get('content-type')?.split(';')[0]]).toEqual([path, type]);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const body = await response.text();
      if (type === 'text/html') {
        expect(body).not.toMatch(/<script>|<style>|\son[a-z]+=|style=/i);
        // Every script and stylesheet from this origin: the shared ones and the page's own.
        const sources = [...body.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => match[1]);
        expect(sources).toEqual([...shared.slice(0, 3), `${path}/app.js`]);
        expect(body).not.toContain('{{');
      }
    }
    // The shared files are served once, from the shared folder: not under each page.
    expect((await fetch(`${base}/settings/api-keys/sign-in.js`)).status).toBe(404);
    const area = await fetch(`${base}/settings`, { redirect: 'manual' });
    expect([area.status, area.headers.get('location')]).toEqual([302, '/settings/api-keys']);
  });

  it('is one Settings area: every page reached from the navigation, the same header, no backtick; screenshots of each', async () => {
    // Every page of the list in the navigation, in its order; these five at least (others add Cost categories, Budgets…).
    const expectedPaths = ['/settings/api-keys', '/settings/currency', '/settings/tag-keys', '/settings/sources', '/settings/audit-log'];
    expect(expectedPaths.every((path) => SETTINGS_PAGES.some((settingsPage) => settingsPage.path === path))).toBe(true);
    const navigation = SETTINGS_PAGES.map(({ path, title }) => ({ path, title }));
    const owner = await t.newOrganization([
      'api-keys:admin',
      'rates:admin',
      'tag-keys:admin',
      'cost-categories:admin',
      'budgets:admin',
      'sources:admin',
      'cost:read',
    ]);
    await settingsWorthShowing(owner);
    const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    tab.on('pageerror', (error) => consoleErrors.push(error.message));
    const findings: unknown[] = [];
    /** What the header and the page show: the navigation (the current link), who is signed in, the gap to Sign out, any backtick. */
    const look = async (expectedPath: string, signedIn: boolean) => {
      await tab.waitForLoadState('networkidle');
      const links = await tab.getByRole('navigation', { name: 'Settings pages' }).getByRole('link').all();
      const shown = await Promise.all(
        links.map(async (link) => ({ path: await link.getAttribute('href'), title: await link.textContent() })),
      );
      if (JSON.stringify(shown) !== JSON.stringify(navigation)) findings.push([expectedPath, 'navigation', shown]);
      const current = await tab.locator('nav a[aria-current="page"]').getAttribute('href');
      if (current !== expectedPath || new URL(tab.url()).pathname !== expectedPath)
        findings.push([expectedPath, 'current', current, tab.url()]);
      const text = (await tab.evaluate('document.body.innerText')) as string;
      if (text.includes('`')) findings.push([expectedPath, 'backtick', text.match(/.*`.*/g)]);
      const signOut = tab.getByRole('button', { name: 'Sign out' });
      if (!signedIn) {
        if ((await tab.locator('#signed-in-as').textContent()) !== '' || (await signOut.isVisible()))
          findings.push([expectedPath, 'signed out']);
        return;
      }
      const who = tab.locator('#signed-in-as');
      if ((await who.textContent()) !== `Signed in as key ${owner.keyId}`) findings.push([expectedPath, 'who', await who.textContent()]);
      const whoBox = (await who.boundingBox())!;
      const signOutBox = (await signOut.boundingBox())!;
      const gap = signOutBox.x - (whoBox.x + whoBox.width);
      if (gap < 8) findings.push([expectedPath, 'gap to Sign out', gap]);
    };
    try {
      // The area itself opens its first page; signed out there, the sign-in and no one named.
      await tab.goto(`${base}/settings`);
      await tab.getByLabel('Admin API key').waitFor();
      await look(SETTINGS_PAGES[0].path, false);
      await screenshot(tab, 'sign-in');
      await tab.getByLabel('Admin API key').fill(owner.key);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      for (const { path, title } of SETTINGS_PAGES) {
        if (new URL(tab.url()).pathname !== path) {
          await tab.getByRole('navigation', { name: 'Settings pages' }).getByRole('link', { name: title, exact: true }).click();
        }
        // Signed in already: one sign-in serves every page of the tab.
        await tab.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
        await tab.getByRole('button', { name: 'Sign out' }).waitFor();
        expect(await tab.title()).toBe(`Settings › ${title} · Cost Insights`);
        await look(path, true);
        await screenshot(tab, path.slice('/settings/'.length));
      }
      expect(findings).toEqual([]);
      // Each page's own function, shown: the sources page's empty state is code, not Markdown.
      await tab.getByRole('navigation', { name: 'Settings pages' }).getByRole('link', { name: 'Data sources' }).click();
      await tab.locator('#source-rows tr', { hasText: 'aws-payer' }).waitFor();
      await tab.getByRole('button', { name: 'Sign out' }).click();
      await tab.getByLabel('Admin API key').waitFor();
      await look('/settings/sources', false);
      expect(findings).toEqual([]);
    } catch (error) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await tab.screenshot({ path: join(SCREENSHOTS, 'settings-area.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await tab.close();
    }
    expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
  }, 180_000);

  it('says there are no data sources with the command as code, not Markdown', async () => {
    const operator = await t.newOrganization(['api-keys:admin', 'sources:admin']);
    const tab = await browser.newPage();
    try {
      await tab.goto(`${base}/settings/sources`);
      await tab.getByLabel('Admin API key').fill(operator.key);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByText('No data sources.').waitFor();
      expect(await tab.locator('#sources-none code').allTextContents()).toEqual(['ingest focus', 'sources add', 'POST /v1/admin/sources']);
      expect(await tab.evaluate('document.body.innerText')).not.toContain('`');
    } finally {
      await tab.close();
    }
  }, 120_000);

  it('signs in, creates a team-scoped key shown once, which sees only the team; revoking it in the page makes it 401', async () => {
    await step('sign-in', async () => {
      await page.goto(`${base}/settings/api-keys`);
      await page.getByLabel('Admin API key').fill('cik_not_a_real_key');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
      await page.getByLabel('Admin API key').fill(admin.key);
      await page.getByLabel('Admin API key').press('Enter'); // keyboard only
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      await page.locator(`tr[data-key-id="${admin.keyId}"]`).waitFor();
    });

    const key = await step('create', async () => {
      await page.getByLabel('Name').fill('Payments dashboards');
      await page.getByLabel('cost:read').check();
      await page.getByLabel('Limit to').selectOption('resourceTag');
      await page.getByLabel('Key', { exact: true }).selectOption('team');
      // Only the team's values, even though the first key's answer may arrive after the chosen key's.
      await page
        .getByLabel('Values (select one or more)')
        .locator('option', { hasText: /^payments$/ })
        .waitFor({ state: 'attached' });
      expect(await page.getByLabel('Values (select one or more)').locator('option').allTextContents()).toEqual(['payments', 'search']);
      await page.getByLabel('Values (select one or more)').selectOption(['payments']);
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByLabel('API key', { exact: true });
      await page.getByText('shown only this once').waitFor();
      return shown.inputValue();
    });
    expect(key).toMatch(/^cik_/);
    const row = page.locator('tr', { hasText: 'Payments dashboards' });
    await expect(row.textContent()).resolves.toContain('tag team in (payments)');
    await expect(page.content()).resolves.not.toContain(admin.key);

    // The new key, through the API: only the payments team's rows.
    const answer = await api(key);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: { summary: { total_amortized_cost: number } } }).data.summary.total_amortized_cost).toBe(42.5);

    await step('done-hides-key', async () => {
      await page.getByRole('button', { name: 'Done' }).click();
      expect(await page.getByLabel('API key', { exact: true }).isVisible()).toBe(false);
    });

    await step('revoke', async () => {
      page.once('dialog', (dialog) => void dialog.accept());
      await row.getByRole('button', { name: 'Revoke key Payments dashboards' }).click();
      await page.locator('tr', { hasText: 'Payments dashboards' }).filter({ hasText: 'Revoked' }).waitFor();
    });
    const refused = await api(key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: 'Unauthorized' });
    expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
  }, 120_000);

  it('shows, on the audit log page, the key it created and revoked, by the signed-in key; filters by action', async () => {
    const keys = (await (await fetch(`${base}/v1/admin/api-keys`, { headers: admin.auth })).json()) as {
      data: { keys: { id: string; name: string }[] };
    };
    const created = keys.data.keys.find((key) => key.name === 'Payments dashboards')!;
    await step('audit-log', async () => {
      // The same tab: signed in already (one sign-in serves both pages).
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('heading', { name: 'Audit log' }).waitFor();
      const revoked = page.locator('#event-rows tr[data-action="api-key.revoked"]', { hasText: created.id });
      await revoked.waitFor();
      const cells = await page
        .locator('#event-rows tr[data-action="api-key.created"]', { hasText: created.id })
        .locator('td')
        .allTextContents();
      expect(cells.slice(1, 4)).toEqual(['api-key.created', `key ${admin.keyId}`, created.id]);
      expect(cells[4]).toContain('name: Payments dashboards');
      expect(cells[4]).toContain('scopes: ["cost:read"]');
      expect(cells[4]).toContain('"resourceTag":"team"');
      await expect(revoked.locator('td').nth(2).textContent()).resolves.toBe(`key ${admin.keyId}`);
      await expect(page.content()).resolves.not.toContain(admin.key);
    });
    await step('audit-log-filter', async () => {
      await page.getByLabel('Action').selectOption('api-key.revoked');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.locator('#event-rows tr[data-action="api-key.created"]').waitFor({ state: 'detached' });
      const actions = await page.locator('#event-rows tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action')));
      expect(new Set(actions)).toEqual(new Set(['api-key.revoked']));
    });
    await step('back-to-keys', async () => {
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.locator(`tr[data-key-id="${admin.keyId}"]`).waitFor();
    });
    expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
  }, 120_000);

  it('pages the audit log with "Load more" and downloads every event as one CSV', async () => {
    const auditor = await t.newOrganization(['api-keys:admin', 'cost:read']);
    const events = 52; // more than the page's 50
    for (let i = 0; i < events; i++) {
      const created = await fetch(`${base}/v1/admin/api-keys`, {
        method: 'POST',
        headers: { ...auditor.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `batch ${i}`, scopes: ['cost:read'] }),
      });
      expect(created.status).toBe(201);
    }
    const tab = await browser.newPage();
    tab.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    try {
      await tab.goto(`${base}/settings/audit-log`);
      await tab.getByLabel('Admin API key').fill(auditor.key);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByText('50 events, newest first').waitFor();
      await tab.getByRole('button', { name: 'Load more' }).click();
      await tab.getByText(`${events} events, newest first.`).waitFor();
      expect(await tab.getByRole('button', { name: 'Load more' }).isVisible()).toBe(false);
      const names = await tab.locator('#event-rows td.details').allTextContents();
      expect(names[0]).toBe(`name: batch ${events - 1}\nscopes: ["cost:read"]\ndataScope: null`);
      expect(names.at(-1)).toContain('name: batch 0\n');

      const [download] = await Promise.all([tab.waitForEvent('download'), tab.getByRole('button', { name: 'Download CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^audit-events-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync((await download.path())!, 'utf8').split('\r\n');
      expect(csv[0]).toBe('"at","action","actor_kind","actor_id","actor_email","target","details","client_ip","request_id","event_id"');
      expect(csv).toHaveLength(events + 2); // the header, the events, the empty string after the last CRLF
      expect(csv.filter((line) => line.includes(`"api-key","${auditor.keyId}"`))).toHaveLength(events);
      expect(csv.join('')).not.toContain(auditor.key);
    } catch (error) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await tab.screenshot({ path: join(SCREENSHOTS, 'audit-log-paging.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await tab.close();
    }
    expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
  }, 120_000);

  it('shows the reporting currency, and sets it with rates:admin', async () => {
    const treasurer = await t.keyFor(admin.organizationId, ['api-keys:admin', 'rates:admin']);
    // A tab of its own: the other tests' tab keeps its signed-in key.
    const tab = await browser.newPage();
    tab.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    try {
      await tab.goto(`${base}/settings/currency`);
      await tab.getByLabel('Admin API key').fill(treasurer.key);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByText('Answers are in USD').waitFor();
      await expect(tab.locator('#currency-summary').textContent()).resolves.toBe(
        'Answers are in USD; each cost is converted at the rate of its usage day. Costs are billed in: USD.',
      );
      await tab.getByLabel('Reporting currency (ISO 4217)').fill('EUR');
      await tab.getByLabel('Convert each cost at the rate of').selectOption('period_end');
      await tab.getByRole('button', { name: 'Save' }).click();
      await tab.getByText('Answers are in EUR').waitFor();
    } catch (error) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await tab.screenshot({ path: join(SCREENSHOTS, 'currency.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await tab.close();
    }
    const settings = await fetch(`${base}/v1/admin/currency`, { headers: { Authorization: `Bearer ${treasurer.key}` } });
    expect(((await settings.json()) as { data: object }).data).toMatchObject({ reportingCurrency: 'EUR', conversionPolicy: 'period_end' });
    expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
  }, 120_000);

  it('shows the data sources with their last problem in words, with sources:admin', async () => {
    const organizationId = (await t.newOrganization(['cost:read'])).organizationId;
    const dir = join(process.env.E2E_TMP_DIR ?? '.test-tmp', `settings-sources-${randomUUID()}`);
    mkdirSync(dir, { recursive: true });
    const header =
      'BilledCost,EffectiveCost,ListCost,ChargeCategory,ChargePeriodStart,BillingPeriodStart,BillingAccountId,ServiceName,ProviderName,BillingCurrency';
    writeFileSync(join(dir, 'september.csv'), `${header}\n12x,1,1,Usage,2026-09-01T00:00:00Z,2026-09-01T00:00:00Z,1,EC2,AWS,USD\n`);
    utimesSync(join(dir, 'september.csv'), new Date('2026-11-01T00:00:00Z'), new Date('2026-11-01T00:00:00Z'));
    const sources = t.app.get(SourcesService);
    const source = await sources.add(
      organizationId,
      { integrationId: 'aws-payer', kind: 'focus-files', url: `file://${resolve(dir)}` },
      'operator',
    );
    await sources.run(organizationId, source.sourceId);
    const operator = await t.keyFor(organizationId, ['api-keys:admin', 'sources:admin']);
    const tab = await browser.newPage();
    tab.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    try {
      await tab.goto(`${base}/settings/sources`);
      await tab.getByLabel('Admin API key').fill(operator.key);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      const row = tab.locator('#source-rows tr', { hasText: 'aws-payer' });
      await row.waitFor();
      const cells = await row.locator('td').allTextContents();
      expect(cells.slice(0, 3)).toEqual(['aws-payer', 'focus-files', `file://${resolve(dir)}`]);
      expect(cells[6]).toMatch(
        /^refused: delivery refused, the data before it stays: [\s\S]*september\.csv:line 2: BilledCost is not a decimal number \("12x"\)/,
      );
    } catch (error) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await tab.screenshot({ path: join(SCREENSHOTS, 'sources.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await tab.close();
    }
    expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
  }, 120_000);

  it('lists the tag keys present with their share of cost, activates one, and shows it back-filling until active', async () => {
    const organizationId = (await t.newOrganization(['cost:read'])).organizationId;
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    // team and env on most of the cost with two values each; build with a value per row (a few rows: still under the
    // 10,000 values that end a suggestion); owner on little of the cost.
    const rows: { usage_date: string; amortized_cost: string; resource_tags: Record<string, string> }[] = [
      { usage_date: day(1), amortized_cost: '40.5', resource_tags: { team: 'payments', env: 'prod', build: 'b-101' } },
      { usage_date: day(2), amortized_cost: '25', resource_tags: { team: 'search', env: 'prod', build: 'b-102' } },
      { usage_date: day(3), amortized_cost: '10.25', resource_tags: { team: 'search', build: 'b-103' } },
      { usage_date: day(4), amortized_cost: '5', resource_tags: { env: 'dev', build: 'b-104', owner: 'ana' } },
      { usage_date: day(5), amortized_cost: '19', resource_tags: {} },
    ];
    await t.insertRows(organizationId, rows);
    const total = rows.reduce((sum, row) => sum + Number(row.amortized_cost), 0);
    const expected = ['team', 'env', 'build', 'owner']
      .map((key) => {
        const tagged = rows.filter((row) => key in row.resource_tags);
        const share = Math.round((tagged.reduce((sum, row) => sum + Number(row.amortized_cost), 0) / total) * 10_000) / 10_000;
        const values = new Set(tagged.map((row) => row.resource_tags[key])).size;
        return { key, share, values, suggested: share >= 0.5 && values <= 10_000 };
      })
      .sort((a, b) => b.share - a.share || a.key.localeCompare(b.key));
    const percent = (share: number) => `${Number((share * 100).toFixed(2))}%`;
    const tagAdmin = await t.keyFor(organizationId, ['api-keys:admin', 'tag-keys:admin']);
    const tab = await browser.newPage();
    tab.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    const row = (key: string) => tab.locator(`#tag-key-rows tr[data-kind="tag"][data-key="${key}"]`);
    try {
      await tab.goto(`${base}/settings/tag-keys`);
      await tab.getByLabel('Admin API key').fill(tagAdmin.key);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('heading', { name: 'Tag keys' }).waitFor();
      await row('team').waitFor();
      expect(await tab.locator('#tag-keys-locked').isVisible()).toBe(false);
      await expect(tab.locator('#tag-keys-summary').textContent()).resolves.toBe(
        'No key is activated: every question reads the full tag maps.',
      );
      const shown = await Promise.all((await tab.locator('#tag-key-rows tr').all()).map((tr) => tr.locator('td').allTextContents()));
      expect(shown).toEqual(
        expected.map(({ key, share, values, suggested }) => [
          '',
          'Tag',
          key,
          percent(share),
          String(values),
          '—',
          suggested ? 'suggested' : '',
        ]),
      );
      expect(shown.map((cells) => cells[3])).toEqual(['80.95%', '75.94%', '70.68%', '5.01%']); // the rounding, by hand once
      for (const { key } of expected) expect(await tab.getByLabel(`Answer tag ${key} at column speed`).isChecked()).toBe(false);

      await tab.getByLabel('Answer tag team at column speed').check();
      const [put] = await Promise.all([
        tab.waitForResponse((response) => response.url().endsWith('/v1/admin/tag-keys') && response.request().method() === 'PUT'),
        tab.locator('#tag-keys').getByRole('button', { name: 'Save' }).click(),
      ]);
      expect(put.status()).toBe(202);
      expect(JSON.parse(put.request().postData() ?? '')).toEqual({ tag: ['team'], costCategory: [] });
      // Back-filling from the 202 on (even when the answer comes before the key is recorded), then polled until Active.
      const answered = ((await put.json()) as { data: { activated: { key: string; state: string }[] } }).data.activated;
      if (!answered.some(({ key, state }) => key === 'team' && state === 'active')) {
        await row('team').locator('td.state-backfilling', { hasText: 'Back-filling' }).waitFor();
        await tab.getByRole('status').filter({ hasText: '1 activated key, 1 back-filling' }).waitFor();
      }
      await row('team').locator('td.state-active', { hasText: 'Active' }).waitFor({ timeout: 120_000 });
      await tab.getByRole('status').filter({ hasText: '1 activated key, all active.' }).waitFor();
      expect(await row('env').locator('td').nth(5).textContent()).toBe('—');
      expect(await tab.getByLabel('Answer tag team at column speed').isChecked()).toBe(true);
      expect(await tab.getByLabel('Answer tag env at column speed').isChecked()).toBe(false);

      // Nothing back-fills any more: the page stops asking.
      let polled = 0;
      tab.on('request', (request) => request.url().endsWith('/v1/admin/tag-keys') && polled++);
      await new Promise((done) => setTimeout(done, 2_500));
      expect(polled).toBe(0);
    } catch (error) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await tab.screenshot({ path: join(SCREENSHOTS, 'tag-keys.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await tab.close();
    }
    const { data } = (await (await fetch(`${base}/v1/admin/tag-keys`, { headers: tagAdmin.auth })).json()) as {
      data: { activated: { kind: string; key: string; state: string }[] };
    };
    expect(data.activated.map(({ kind, key, state }) => ({ kind, key, state }))).toEqual([{ kind: 'tag', key: 'team', state: 'active' }]);
    expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
  }, 180_000);

  it('says tag keys need tag-keys:admin, and shows nothing to change, to a key without it', async () => {
    const organizationId = (await t.newOrganization(['cost:read'])).organizationId;
    await t.insertRows(organizationId, [
      { usage_date: new Date().toISOString().slice(0, 10), amortized_cost: '1', resource_tags: { team: 'payments' } },
    ]);
    const keysAdmin = await t.keyFor(organizationId, ['api-keys:admin', 'cost:read']);
    const tab = await browser.newPage();
    const asked: string[] = [];
    tab.on('request', (request) => request.url().includes('/v1/admin/tag-keys') && asked.push(request.url()));
    try {
      await tab.goto(`${base}/settings/tag-keys`);
      await tab.getByLabel('Admin API key').fill(keysAdmin.key);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('heading', { name: 'Tag keys' }).waitFor();
      const locked = tab.locator('#tag-keys-locked');
      await locked.waitFor();
      expect(await locked.textContent()).toContain('tag-keys:admin');
      expect(await tab.locator('#tag-keys input').count()).toBe(0);
      expect(await tab.locator('#tag-keys').getByRole('button').count()).toBe(0);
      expect(await tab.locator('#tag-keys-form').isVisible()).toBe(false);
      expect(asked).toEqual([]);
    } catch (error) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await tab.screenshot({ path: join(SCREENSHOTS, 'tag-keys-locked.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await tab.close();
    }
  }, 120_000);

  it('lists every key of the organisation across the pages of the key list', async () => {
    const organizationId = (await t.newOrganization(['cost:read'])).organizationId;
    const others = [];
    for (let i = 0; i < 2 * KEY_LIST_PAGE + 1; i++) others.push(await t.keyFor(organizationId, ['cost:read']));
    const signedIn = await t.keyFor(organizationId, ['api-keys:admin', 'cost:read']);
    const created = await t.keyFor(organizationId, ['api-keys:admin']);
    const expected = [...others, signedIn, created].map((key) => key.keyId);
    const tab = await browser.newPage();
    try {
      await tab.goto(`${base}/settings/api-keys`);
      await tab.getByLabel('Admin API key').fill(signedIn.key);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.locator(`#key-rows tr[data-key-id="${created.keyId}"]`).waitFor();
      const shown = await Promise.all((await tab.locator('#key-rows tr').all()).map((row) => row.getAttribute('data-key-id')));
      // The organisation's first key (newOrganization's) is listed too.
      expect(shown.length).toBe(expected.length + 1);
      expect(shown).toEqual(expect.arrayContaining(expected));
    } finally {
      await tab.close();
    }
  }, 120_000);

  it('keeps the admin key in the tab only, and signing out forgets it', async () => {
    // Page-side expressions as text: this file is compiled without the DOM's types.
    const stored = await page.evaluate('[sessionStorage.length, localStorage.length, document.cookie]');
    expect(stored).toEqual([1, 0, '']);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin API key').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });
});
