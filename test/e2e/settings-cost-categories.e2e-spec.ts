// modes: embedded — a page over the admin API, the store does not matter
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { todayUtc } from '../../src/common/dates/calendar-date';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { listen } from '../support/app-with-env';
import { sumDecimals } from '../support/decimals';
import { describeWithTools, systemToolPath } from '../support/system-tools';
import { TestApp, TestOrganization } from '../support/test-app';
import { FocusLine, focusLinesCsv, monthStart } from '../support/focus-lines';

/**
 * Settings > Cost categories, driven in Debian's Chromium against the real server: a key without
 * cost-categories:admin sees which permission it needs and the page asks nothing; with it, a category is defined
 * through the page (the definition typed as JSON, previewed over rows imported from a FOCUS export written here,
 * saved, listed, its versions shown), opened again and saved as version 2 from an earlier month, refused before any
 * request for JSON that does not parse and with the API's own words for a 400, and deleted after a confirm step.
 * Every expected amount is summed exactly from the export's decimal text under values labelled by hand on the rows.
 * Screenshots of a failing step go to .test-tmp/screenshots.
 */
const SCREENSHOTS = join(process.env.E2E_TMP_DIR ?? '.test-tmp', 'screenshots');
const ADMIN = '/v1/admin/cost-categories';
const KEY = 'Business Unit';
const NOT_SET = '(not set)';
const WHEN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/;

/** One FOCUS line item; `v1` and `v2`: its value under each version below, by hand. */
interface Line extends FocusLine {
  v1: string;
  v2: string;
}

/** Version 1: EC2 is Compute, else the team tag, else Unallocated. Version 2: Lambda is Compute too. */
const V1 = {
  defaultValue: 'Unallocated',
  rules: [{ value: 'Compute', when: { inclusions: { services: ['Amazon EC2'] } } }, { inheritTag: 'team' }],
};
const V2 = {
  defaultValue: 'Unallocated',
  rules: [{ value: 'Compute', when: { inclusions: { services: ['Amazon EC2', 'AWS Lambda'] } } }, { inheritTag: 'team' }],
};

/** The page's amounts: two decimals, thousands separated. */
const money = (amount: number) => amount.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** The page's shares: a percentage of the API's 4-decimal share. */
const percent = (share: number) => `${Number((share * 100).toFixed(2))}%`;
const signed = (change: number) => `${change < 0 ? '−' : '+'}${money(Math.abs(change))}`;

describeWithTools(['chromium'])('Settings > Cost categories page', () => {
  let t: TestApp;
  let base: string;
  let dir: string;
  let admin: TestOrganization;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  const today = todayUtc();
  const currentMonth = today.slice(0, 7);
  const lastMonth = monthStart(today, -1).slice(0, 7);
  /** This month's rows: inside the preview's default window (the first day of the month two months ago to today). */
  const LINES: Line[] = [
    {
      day: `${currentMonth}-01`,
      account: '111111111111',
      service: 'Amazon EC2',
      tags: { team: 'payments' },
      cost: '40',
      v1: 'Compute',
      v2: 'Compute',
    },
    { day: today, account: '111111111111', service: 'Amazon EC2', tags: { team: 'search' }, cost: '10.5', v1: 'Compute', v2: 'Compute' },
    { day: today, account: '111111111111', service: 'Amazon S3', tags: { team: 'data' }, cost: '20', v1: 'data', v2: 'data' },
    { day: `${currentMonth}-01`, account: '222222222222', service: 'Amazon RDS', cost: '15', v1: 'Unallocated', v2: 'Unallocated' },
    { day: today, account: '111111111111', service: 'AWS Lambda', cost: '25', v1: 'Unallocated', v2: 'Compute' },
  ];

  /** Each value's exact cost and rows under a version, the costliest first (then by value). */
  function valuesUnder(version: 'v1' | 'v2'): { value: string; cost: number; rows: number }[] {
    const groups = new Map<string, string[]>();
    for (const line of LINES) groups.set(line[version], [...(groups.get(line[version]) ?? []), line.cost]);
    return [...groups]
      .map(([value, costs]) => ({ value, cost: sumDecimals(costs), rows: costs.length }))
      .sort((a, b) => b.cost - a.cost || (a.value < b.value ? -1 : 1));
  }
  /** The share (4 decimals) of the rows' cost whose value is the default (or none). */
  function unallocated(version: 'v1' | 'v2'): number {
    const total = sumDecimals(LINES.map((line) => line.cost));
    const none = sumDecimals(LINES.filter((line) => line[version] === 'Unallocated').map((line) => line.cost));
    return Math.round((none / total) * 10_000) / 10_000;
  }

  beforeAll(async () => {
    t = await TestApp.start();
    base = await listen(t);
    dir = mkdtempSync(join(tmpdir(), 'settings-cost-categories-'));
    admin = await t.newOrganization(['api-keys:admin', 'cost-categories:admin', 'cost:read']);
    writeFileSync(join(dir, 'estate.csv'), focusLinesCsv(LINES));
    await ingestFocus(t.clickhouse, { paths: [join(dir, 'estate.csv')], organizationId: admin.organizationId, integrationId: 'aws' });
    browser = await chromium.launch({
      executablePath: systemToolPath('chromium'),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    page.on('pageerror', (error) => consoleErrors.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs a step; on failure saves a screenshot named after it, then fails. */
  async function step<T>(name: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `cost-categories-${name}.png`), fullPage: true }).catch(() => undefined);
      throw error;
    }
  }

  const rowsOf = async (tbody: string) =>
    Promise.all((await page.locator(`${tbody} tr`).all()).map((row) => row.locator('td').allTextContents()));
  /** The PUT the page sends when `click` runs, and its answer. */
  async function putOn(click: () => Promise<void>) {
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.url().includes(`${ADMIN}/`) && answer.request().method() === 'PUT'),
      click(),
    ]);
    return response;
  }
  const button = (name: string) => page.locator('#cost-categories').getByRole('button', { name, exact: true });
  const alert = () => page.getByRole('alert');
  /** The categories the API lists now. */
  async function listed(): Promise<{ key: string; version: number }[]> {
    const response = await fetch(`${base}${ADMIN}`, { headers: admin.auth });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { categories: { key: string; version: number }[] } }).data.categories;
  }

  it('says cost categories need cost-categories:admin, and shows nothing to change and asks nothing, to a key without it', async () => {
    const organizationId = (await t.newOrganization(['cost:read'])).organizationId;
    const keysAdmin = await t.keyFor(organizationId, ['api-keys:admin', 'cost:read']);
    const tab = await browser.newPage();
    const asked: string[] = [];
    tab.on('request', (request) => request.url().includes(ADMIN) && asked.push(request.url()));
    try {
      await tab.goto(`${base}/settings/cost-categories`);
      await tab.getByLabel('Admin API key').fill(keysAdmin.key);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('heading', { level: 1, name: 'Cost categories', exact: true }).waitFor();
      const locked = tab.locator('#categories-locked');
      await locked.waitFor();
      expect(await locked.textContent()).toContain('cost-categories:admin');
      expect(await locked.locator('code').allTextContents()).toEqual(['cost-categories:admin']);
      expect(await tab.locator('#categories-content').isVisible()).toBe(false);
      expect(await tab.locator('#cost-categories').getByRole('button').count()).toBe(0);
      expect(await tab.locator('#cost-categories').getByRole('textbox').count()).toBe(0);
      expect(asked).toEqual([]);
    } catch (error) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await tab.screenshot({ path: join(SCREENSHOTS, 'cost-categories-locked.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await tab.close();
    }
  }, 120_000);

  it('defines a category through the page: a preview of the imported rows, then saved, listed and its version shown', async () => {
    await step('sign-in', async () => {
      await page.goto(`${base}/settings/cost-categories`);
      await page.getByLabel('Admin API key').fill(admin.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Cost categories', exact: true }).waitFor();
      await page.getByText('No cost category is defined by rules yet.').waitFor();
      expect(await page.locator('#categories-locked').isVisible()).toBe(false);
      expect(await page.locator('#categories-table').isVisible()).toBe(false);
      // A new category's editor: no key, no month, the example (a definition of the API's shape).
      expect(await page.getByLabel('Key', { exact: true }).inputValue()).toBe('');
      expect(await page.getByLabel('In effect from').inputValue()).toBe('');
      const example = JSON.parse(await page.getByLabel('Definition (JSON)').inputValue()) as Record<string, unknown>;
      expect(Object.keys(example)).toEqual(['defaultValue', 'rules']);
      expect(await page.evaluate('document.body.innerText')).not.toContain('`');
    });

    await step('preview', async () => {
      await page.getByLabel('Key', { exact: true }).fill(KEY);
      await page.getByLabel('Definition (JSON)').fill(JSON.stringify(V1, null, 2));
      const preview = await putOn(() => button('Preview').click());
      expect(preview.url()).toBe(`${base}${ADMIN}/Business%20Unit?dryRun=true`);
      expect(preview.status()).toBe(200);
      expect(JSON.parse(preview.request().postData() ?? '')).toEqual(V1);
      await page.locator('#preview').waitFor();
      // By hand: EC2 40 + 10.5 Compute, S3 data 20, RDS 15 and Lambda 25 Unallocated; nothing defined before (no value).
      const values = valuesUnder('v1');
      expect(values.map(({ value, cost }) => [value, cost])).toEqual([
        ['Compute', 50.5],
        ['Unallocated', 40],
        ['data', 20],
      ]);
      expect(await rowsOf('#preview-value-rows')).toEqual(values.map(({ value, cost, rows }) => [value, money(cost), String(rows)]));
      expect(await page.locator('#preview-values th').nth(1).textContent()).toBe('Amortized cost (USD)');
      await expect(page.locator('#preview-window').textContent()).resolves.toBe(
        `Over ${monthStart(today, -2)} to ${today}, in USD, as if ${KEY} were saved: nothing is saved by a preview.`,
      );
      expect(unallocated('v1')).toBe(0.362); // 40 / 110.5, by hand
      await expect(page.locator('#preview-share').textContent()).resolves.toBe(
        `Cost without an owner (the default value, or no value): 100% now → ${percent(unallocated('v1'))} once saved.`,
      );
      expect(percent(unallocated('v1'))).toBe('36.2%');
      // Every row had no value: it all moves from (not set) to the values, the largest change first.
      const total = sumDecimals(LINES.map((line) => line.cost));
      expect(await rowsOf('#preview-change-rows')).toEqual([
        [NOT_SET, money(total), money(0), signed(-total)],
        ...values.map(({ value, cost }) => [value, money(0), money(cost), signed(cost)]),
      ]);
      expect((await rowsOf('#preview-change-rows'))[0]).toEqual([NOT_SET, '110.50', '0.00', '−110.50']);
      // Nothing saved.
      expect(await listed()).toEqual([]);
      expect(await alert().isVisible()).toBe(false);
    });

    await step('save', async () => {
      const saved = await putOn(() => button('Save').click());
      expect(saved.url()).toBe(`${base}${ADMIN}/Business%20Unit`);
      expect(saved.status()).toBe(200);
      await page
        .getByRole('status')
        .filter({ hasText: `Saved version 1 of ${KEY}, in effect from ${currentMonth}.` })
        .waitFor();
      await page.locator('#category-rows tr').first().waitFor();
      const [row] = await rowsOf('#category-rows');
      expect(row.slice(0, 5)).toEqual([KEY, '1', currentMonth, 'Unallocated', '2']);
      expect(row[5]).toMatch(WHEN);
      await expect(page.locator('#categories-summary').textContent()).resolves.toBe('1 cost category defined by rules.');
      expect(await page.locator('#preview').isVisible()).toBe(false);
      await expect(page.locator('#versions-title').textContent()).resolves.toBe(`Versions of ${KEY}`);
      const versions = await rowsOf('#version-rows');
      expect(versions.map((cells) => [cells[0], cells[1], cells[3], cells[4]])).toEqual([
        ['1', currentMonth, admin.keyId, '2 rules, default Unallocated'],
      ]);
      expect(versions[0][2]).toMatch(WHEN);
      expect(await listed()).toEqual([expect.objectContaining({ key: KEY, version: 1, effectiveFrom: currentMonth, ruleCount: 2 })]);
      expect(await page.evaluate('document.body.innerText')).not.toContain('`');
    });
    expect(consoleErrors).toEqual([]);
  }, 120_000);

  it('opens the category from the list and saves version 2 from an earlier month, previewed against version 1', async () => {
    await step('open', async () => {
      await button('New category').click();
      expect(await page.getByLabel('Key', { exact: true }).inputValue()).toBe('');
      expect(await page.locator('#versions').isVisible()).toBe(false);
      await page.getByRole('button', { name: `Open ${KEY}` }).click();
      await page.locator('#versions').waitFor();
      expect(await page.getByLabel('Key', { exact: true }).inputValue()).toBe(KEY);
      expect(await page.getByLabel('In effect from').inputValue()).toBe('');
      // The latest version's definition, without its month.
      expect(JSON.parse(await page.getByLabel('Definition (JSON)').inputValue())).toEqual(V1);
      await expect(page.locator('#editor-title').textContent()).resolves.toBe(`Change ${KEY}`);
    });

    await step('preview-2', async () => {
      await page.getByLabel('Definition (JSON)').fill(JSON.stringify(V2, null, 2));
      await page.getByLabel('In effect from').fill(lastMonth);
      const preview = await putOn(() => button('Preview').click());
      expect(JSON.parse(preview.request().postData() ?? '')).toEqual({ ...V2, effectiveFrom: lastMonth });
      await page.locator('#preview').waitFor();
      const values = valuesUnder('v2');
      expect(values.map(({ value, cost }) => [value, cost])).toEqual([
        ['Compute', 75.5],
        ['data', 20],
        ['Unallocated', 15],
      ]);
      expect(await rowsOf('#preview-value-rows')).toEqual(values.map(({ value, cost, rows }) => [value, money(cost), String(rows)]));
      // 40 / 110.5 → 15 / 110.5, by hand.
      expect([percent(unallocated('v1')), percent(unallocated('v2'))]).toEqual(['36.2%', '13.57%']);
      await expect(page.locator('#preview-share').textContent()).resolves.toBe(
        'Cost without an owner (the default value, or no value): 36.2% now → 13.57% once saved.',
      );
      // Lambda's 25 moves from Unallocated to Compute: two changes of the same size, by value.
      expect(await rowsOf('#preview-change-rows')).toEqual([
        ['Compute', '50.50', '75.50', '+25.00'],
        ['Unallocated', '40.00', '15.00', '−25.00'],
      ]);
      expect((await listed()).map(({ version }) => version)).toEqual([1]);
    });

    await step('save-2', async () => {
      const saved = await putOn(() => button('Save').click());
      expect(saved.status()).toBe(200);
      expect(JSON.parse(saved.request().postData() ?? '')).toEqual({ ...V2, effectiveFrom: lastMonth });
      await page
        .getByRole('status')
        .filter({ hasText: `Saved version 2 of ${KEY}, in effect from ${lastMonth}.` })
        .waitFor();
      await page.locator('#version-rows tr[data-version="2"]').waitFor();
      const versions = await rowsOf('#version-rows');
      expect(versions.map((cells) => [cells[0], cells[1], cells[3], cells[4]])).toEqual([
        ['2', lastMonth, admin.keyId, '2 rules, default Unallocated'],
        ['1', currentMonth, admin.keyId, '2 rules, default Unallocated'],
      ]);
      await page.locator('#category-rows tr td:nth-child(2)', { hasText: '2' }).waitFor();
      const [row] = await rowsOf('#category-rows');
      expect(row.slice(0, 5)).toEqual([KEY, '2', lastMonth, 'Unallocated', '2']);
      expect((await listed()).map(({ version }) => version)).toEqual([2]);
    });
    expect(consoleErrors).toEqual([]);
  }, 120_000);

  it('says a definition that is not JSON before any request, and a refused one in the API’s own words', async () => {
    const sent: string[] = [];
    const count = (request: { url(): string; method(): string }) => request.url().includes(ADMIN) && sent.push(request.method());
    page.on('request', count);
    try {
      await step('invalid-json', async () => {
        await page.getByLabel('In effect from').fill('');
        await page.getByLabel('Definition (JSON)').fill('{"defaultValue": "Unallocated", "rules": [');
        await button('Preview').click();
        await alert().filter({ hasText: 'The definition is not valid JSON' }).waitFor();
        expect(await page.getByLabel('Definition (JSON)').getAttribute('aria-invalid')).toBe('true');
        await button('Save').click();
        await alert().filter({ hasText: 'The definition is not valid JSON' }).waitFor();
        expect(sent).toEqual([]);
      });

      await step('refused', async () => {
        const empty = { defaultValue: 'Unallocated', rules: [] };
        const asked = await fetch(`${base}${ADMIN}/${encodeURIComponent(KEY)}?dryRun=true`, {
          method: 'PUT',
          headers: { ...admin.auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(empty),
        });
        expect(asked.status).toBe(400);
        const message = ((await asked.json()) as { error: { message: string } }).error.message;
        expect(message).toMatch(/\brules\b/);
        await page.getByLabel('Definition (JSON)').fill(JSON.stringify(empty));
        const refused = await putOn(() => button('Save').click());
        expect(refused.status()).toBe(400);
        await alert().filter({ hasText: 'rules' }).waitFor();
        await expect(alert().textContent()).resolves.toBe(message);
        expect(await page.getByLabel('Definition (JSON)').getAttribute('aria-invalid')).toBeNull();
        // Nothing saved: still two versions.
        expect(await page.locator('#version-rows tr').count()).toBe(2);
        expect((await listed()).map(({ version }) => version)).toEqual([2]);
      });
    } finally {
      page.off('request', count);
    }
    expect(consoleErrors.filter((text) => !text.includes('status of 400'))).toEqual([]);
  }, 120_000);

  it('deletes the opened category after a confirm step: its versions kept, the list empty', async () => {
    await step('cancel', async () => {
      let asked = '';
      page.once('dialog', (dialog) => {
        asked = dialog.message();
        void dialog.dismiss();
      });
      await page.getByRole('button', { name: `Delete the category ${KEY}` }).click();
      expect(asked).toContain(`Delete the category "${KEY}"?`);
      expect(asked).toContain('Its versions are kept.');
      expect((await listed()).map(({ key }) => key)).toEqual([KEY]);
      expect(await page.locator('#category-rows tr').count()).toBe(1);
    });

    await step('delete', async () => {
      page.once('dialog', (dialog) => void dialog.accept());
      const [deleted] = await Promise.all([
        page.waitForResponse((answer) => answer.url().endsWith(`${ADMIN}/Business%20Unit`) && answer.request().method() === 'DELETE'),
        page.getByRole('button', { name: `Delete the category ${KEY}` }).click(),
      ]);
      expect(deleted.status()).toBe(200);
      await page.getByText('No cost category is defined by rules yet.').waitFor();
      await page
        .getByRole('status')
        .filter({ hasText: `Deleted ${KEY}: its versions are kept.` })
        .waitFor();
      expect(await page.locator('#categories-table').isVisible()).toBe(false);
      expect(await page.locator('#category-rows tr').count()).toBe(0);
      const versions = await rowsOf('#version-rows');
      expect(versions.map((cells) => [cells[0], cells[4]])).toEqual([
        ['3', 'Deleted'],
        ['2', '2 rules, default Unallocated'],
        ['1', '2 rules, default Unallocated'],
      ]);
      expect(await page.getByRole('button', { name: `Delete the category ${KEY}` }).isVisible()).toBe(false);
      expect(await listed()).toEqual([]);
      expect(await page.evaluate('document.body.innerText')).not.toContain('`');
    });
    expect(consoleErrors.filter((text) => !text.includes('status of 400'))).toEqual([]);
  }, 120_000);
});
