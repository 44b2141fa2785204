// modes: embedded — a page over the admin API, the store does not matter
import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { BudgetAlertsService } from '../../src/budgets/budget-alerts.service';
import { BudgetWebhooksService } from '../../src/budgets/budget-webhooks.service';
import { addDays, dayNumber, formatDayNumber, todayUtc } from '../../src/common/dates/calendar-date';
import { listen } from '../support/app-with-env';
import { toScaled } from '../support/decimals';
import { describeWithTools, systemToolPath } from '../support/system-tools';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * Settings > Budgets, driven in Debian's Chromium against the real server: a key without budgets:admin sees which
 * permission it needs and the page asks nothing; with it, a budget is created through the page (its signing secret
 * shown once, and it signs the webhooks the alerts are delivered with; gone after a reload), its current period's
 * figures, thresholds and past periods shown as summed here exactly from the rows inserted, its alerts and their
 * deliveries listed, its amount changed, a refused change shown in the API's own words, and it is deleted after a
 * confirm step. Screenshots of a failing step go to .test-tmp/screenshots.
 */
const SCREENSHOTS = join(process.env.E2E_TMP_DIR ?? '.test-tmp', 'screenshots');
const ADMIN = '/v1/admin/budgets';
const NAME = 'Payments monthly';
const WHEN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/;

const TODAY = todayUtc();
const MONTH_START = `${TODAY.slice(0, 7)}-01`;
const DAYS_IN_MONTH = dayNumber(addDays(`${formatDayNumber(dayNumber(MONTH_START) + 32).slice(0, 7)}-01`, -1)) - dayNumber(MONTH_START) + 1;
const DAY_OF_MONTH = dayNumber(TODAY) - dayNumber(MONTH_START) + 1;
/** Steady usage every day: the forecast's model sees a flat 12.25 a day (a tax charge is a one-off, never extrapolated). */
const DAILY = '12.25';
const PAYMENTS = { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } };
/** Whole amounts: a pro-rated amount (amount × day ÷ 28…31) never falls on a half cent, so rounding has one answer. */
const AMOUNT = '300';
const CHANGED_AMOUNT = '450';
/** 60 days of the payments team's usage, a tax charge today, and another team's row the filters leave out. */
const ROWS: RowInput[] = [
  ...Array.from({ length: 60 }, (_, i) => ({
    usage_date: addDays(TODAY, -i),
    amortized_cost: DAILY,
    charge_category: 'Usage',
    resource_tags: { team: 'payments' },
  })),
  { usage_date: TODAY, service: 'Tax', amortized_cost: '3.7', charge_category: 'Tax', resource_tags: { team: 'payments' } },
  { usage_date: TODAY, service: 'Amazon S3', amortized_cost: '1000', charge_category: 'Usage', resource_tags: { team: 'search' } },
];
const THRESHOLDS = [
  { kind: 'actual', percent: 1 },
  { kind: 'actual', percent: 1000 },
  { kind: 'forecast', percent: 100 },
];
const UNIT = toScaled('1');

/** What the payments rows sum to between two days (both included), exactly (units of 1e-10). */
function paymentsBetween(start: string, end: string): bigint {
  return ROWS.filter((row) => row.resource_tags?.team === 'payments' && row.usage_date >= start && row.usage_date <= end).reduce(
    (total, row) => total + toScaled(row.amortized_cost!),
    0n,
  );
}

/** numerator ÷ denominator (units of 1e-10, ≥ 0) as the page writes money: 2 places half up, thousands separated. */
function money(numerator: bigint, denominator = 1n): string {
  const cents = (numerator * 100n * 2n + denominator * UNIT) / (2n * denominator * UNIT);
  return `${(cents / 100n).toLocaleString('en')}.${String(cents % 100n).padStart(2, '0')}`;
}
/** actual ÷ amount as the page writes a percentage used. */
const used = (actual: bigint, amount: bigint) => `${money(actual * 100n * UNIT, amount)}%`;

/** The first day of the month `count` months before `monthStart`. */
function monthsBefore(monthStart: string, count: number): string {
  const [year, month] = monthStart.split('-').map(Number);
  const index = year * 12 + (month - 1) - count;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/** Everything the page shows of the budget with `amount`, computed from ROWS. */
function expectedFigures(amountText: string) {
  const amount = toScaled(amountText);
  const actual = paymentsBetween(MONTH_START, TODAY);
  // Up to yesterday as spent, then the model's flat 12.25 for each remaining day: 12.25 for every day of the month.
  const forecast = toScaled(DAILY) * BigInt(DAYS_IN_MONTH);
  const reaches = (spend: bigint, percent: number) => spend * 100n >= amount * BigInt(percent);
  const state = ({ kind, percent }: { kind: string; percent: number }) =>
    kind === 'actual' ? (reaches(actual, percent) ? 'breached' : 'ok') : reaches(forecast, percent) ? 'forecast to breach' : 'ok';
  // The day the flat spend reaches 100 %, if within the month (the tax is today's actual, not the forecast's).
  const crossingDay = Number((amount + toScaled(DAILY) - 1n) / toScaled(DAILY));
  const crossing = crossingDay <= DAYS_IN_MONTH ? addDays(MONTH_START, crossingDay - 1) : 'not in this period';
  const history = Array.from({ length: 12 }, (_, i) => {
    const start = monthsBefore(MONTH_START, 12 - i);
    const spent = paymentsBetween(start, addDays(monthsBefore(MONTH_START, 11 - i), -1));
    return [start.slice(0, 7), money(amount), money(spent), used(spent, amount)];
  });
  return {
    row: [
      NAME,
      `${TODAY.slice(0, 7)} (monthly)`,
      'USD',
      money(amount),
      money(actual),
      used(actual, amount),
      money(amount * BigInt(DAY_OF_MONTH), BigInt(DAYS_IN_MONTH)),
      `${money(forecast)} (${money(forecast)} – ${money(forecast)})`,
      THRESHOLDS.map((threshold) => `${threshold.kind} ${threshold.percent}%: ${state(threshold)}`).join('; '),
    ],
    thresholds: THRESHOLDS.map((threshold) => [
      threshold.kind,
      `${threshold.percent}%`,
      money(amount * BigInt(threshold.percent), 100n),
      state(threshold),
      threshold.kind === 'forecast' ? crossing : '—',
    ]),
    history,
  };
}

/** A webhook receiver on loopback that answers 200 and keeps what it was sent. */
class Receiver {
  readonly requests: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  private server?: Server;
  async start(): Promise<number> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        this.requests.push({ headers: request.headers, body });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }
  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Whether `header` (t=…,v1=…) is the HMAC-SHA256 of "t.body" with `secret`, computed here. */
function signedWith(header: string, secret: string, body: string): boolean {
  const fields = Object.fromEntries(header.split(',').map((field) => field.split('=')));
  return fields.v1 === createHmac('sha256', secret).update(`${fields.t}.${body}`).digest('hex');
}

describeWithTools(['chromium'])('Settings > Budgets page', () => {
  let t: TestApp;
  let base: string;
  let admin: TestOrganization;
  let browser: Browser;
  let page: Page;
  let hook: string;
  let signingSecret: string;
  const receiver = new Receiver();
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    const port = await receiver.start();
    hook = `http://127.0.0.1:${port}/hook`;
    t = await TestApp.start({ settings: { WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}` } });
    base = await listen(t);
    admin = await t.newOrganization(['api-keys:admin', 'budgets:admin', 'cost:read']);
    await t.insertRows(admin.organizationId, ROWS);
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
    await receiver.close();
  });

  /** Runs a step on `tab`; on failure saves a screenshot named after it, then fails. */
  async function step<T>(name: string, body: () => Promise<T>, tab = page): Promise<T> {
    try {
      return await body();
    } catch (error) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await tab.screenshot({ path: join(SCREENSHOTS, `budgets-${name}.png`), fullPage: true }).catch(() => undefined);
      throw error;
    }
  }

  const rowsOf = async (tbody: string) =>
    Promise.all((await page.locator(`${tbody} tr`).all()).map((row) => row.locator('td').allTextContents()));
  const button = (name: string) => page.locator('#budgets').getByRole('button', { name, exact: true });
  /** The request to the admin API that `click` makes, and its answer. */
  async function adminCall(method: string, click: () => Promise<void>) {
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.url().startsWith(`${base}${ADMIN}`) && answer.request().method() === method),
      click(),
    ]);
    return response;
  }
  async function listed(): Promise<Array<{ budgetId: string; version: number; amounts: Record<string, string> }>> {
    const response = await fetch(`${base}${ADMIN}`, { headers: admin.auth });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { budgets: [] } }).data.budgets;
  }
  /** The budget's row, once its figures show `amount`. */
  async function budgetRow(amount: string): Promise<string[]> {
    await page.locator('#budget-rows tr td:nth-child(4)', { hasText: amount }).waitFor();
    const rows = await rowsOf('#budget-rows');
    expect(rows).toHaveLength(1);
    return rows[0];
  }

  it('says budgets need budgets:admin, and shows nothing to change and asks nothing, to a key without it', async () => {
    const keysAdmin = await t.newOrganization(['api-keys:admin', 'cost:read']);
    const tab = await browser.newPage();
    const asked: string[] = [];
    // Only the page and its script: neither the admin API's budgets nor their status.
    tab.on('request', (request) => /\/v1\/.*budgets/.test(request.url()) && asked.push(request.url()));
    try {
      await step(
        'locked',
        async () => {
          await tab.goto(`${base}/settings/budgets`);
          await tab.getByLabel('Admin API key').fill(keysAdmin.key);
          await tab.getByRole('button', { name: 'Sign in' }).click();
          await tab.getByRole('heading', { level: 1, name: 'Budgets', exact: true }).waitFor();
          const locked = tab.locator('#budgets-locked');
          await locked.waitFor();
          expect(await locked.locator('code').allTextContents()).toEqual(['budgets:admin']);
          expect(await tab.locator('#budgets-content').isVisible()).toBe(false);
          expect(await tab.locator('#budgets').getByRole('button').count()).toBe(0);
          expect(await tab.locator('#budgets').getByRole('textbox').count()).toBe(0);
          expect(asked).toEqual([]);
        },
        tab,
      );
    } finally {
      await tab.close();
    }
  }, 60_000);

  it('creates a budget through the page: its signing secret shown once, its figures as summed from the rows', async () => {
    await step('sign-in', async () => {
      await page.goto(`${base}/settings/budgets`);
      await page.getByLabel('Admin API key').fill(admin.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('No budget yet: create one below.').waitFor();
      expect(await page.locator('#budgets-table').isVisible()).toBe(false);
      expect(await page.locator('#budgets-locked').isVisible()).toBe(false);
    });

    await step('create', async () => {
      await page.getByLabel('Name').fill(NAME);
      await page.getByLabel('Amount per period').fill(AMOUNT);
      await page.getByLabel('Alert when actual spend reaches').fill('1, 1000');
      await page.getByLabel('Alert when forecast spend at period end reaches').fill('100');
      await page.getByLabel('Filters (JSON, optional)').fill(JSON.stringify(PAYMENTS, null, 2));
      await page.getByLabel('Webhook destinations').fill(hook);
      const created = await adminCall('POST', () => button('Save').click());
      expect(created.status()).toBe(201);
      expect(JSON.parse(created.request().postData() ?? '')).toEqual({
        name: NAME,
        period: 'monthly',
        metric: 'amortized_cost',
        amounts: { default: AMOUNT },
        thresholds: THRESHOLDS,
        filters: PAYMENTS,
        notify: [{ url: hook }],
      });
      await page
        .getByRole('status')
        .filter({ hasText: `Created ${NAME}.` })
        .waitFor();
      const secretBox = page.locator('#new-secret');
      expect(await secretBox.isVisible()).toBe(true);
      expect(await secretBox.locator('.warning').textContent()).toContain('Copy it now: it is not shown again');
      signingSecret = await page.getByLabel('Signing secret').inputValue();
      expect(signingSecret).toMatch(/^whsec_/);
      expect(((await created.json()) as { data: { signingSecret: string } }).data.signingSecret).toBe(signingSecret);
    });

    await step('figures', async () => {
      const expected = expectedFigures(AMOUNT);
      expect(await budgetRow(expected.row[3])).toEqual(expected.row);
      await expect(page.locator('#budgets-summary').textContent()).resolves.toBe('1 budget.');
      // The opened budget: each threshold's amount, state and crossing day, no alert yet; the 12 months before.
      const thresholds = await rowsOf('#threshold-rows');
      expect(thresholds.map((cells) => [...cells.slice(0, 4), cells[5]])).toEqual(expected.thresholds);
      expect(thresholds.map((cells) => cells[4])).toEqual(['—', '—', '—']);
      expect(await rowsOf('#history-rows')).toEqual(expected.history);
      expect(await page.locator('#no-alerts').isVisible()).toBe(true);
      expect(await page.evaluate('document.body.innerText')).not.toContain('`');
    });
    expect(consoleErrors).toEqual([]);
  }, 60_000);

  it('shows the secret no more after a reload; it signs the alerts’ webhooks, listed with their deliveries', async () => {
    await step('reload', async () => {
      await page.reload();
      await page.locator('#budget-rows tr').first().waitFor();
      expect(await page.locator('#new-secret').isVisible()).toBe(false);
      expect(await page.locator('#new-secret-value').inputValue()).toBe('');
      expect(await page.content()).not.toContain(signingSecret);
    });

    await step('alerts', async () => {
      const fired = await t.app.get(BudgetAlertsService).evaluate(admin.organizationId);
      expect(fired.map((alert) => [alert.event, alert.kind, alert.percent]).sort()).toEqual([
        ['fired', 'actual', 1],
        ['fired', 'forecast', 100],
      ]);
      expect(await t.app.get(BudgetWebhooksService).deliverDue(new Date(), admin.organizationId)).toBe(2);
      expect(receiver.requests).toHaveLength(2);
      for (const { headers, body } of receiver.requests) {
        expect(signedWith(String(headers['x-cost-insights-signature']), signingSecret, body)).toBe(true);
      }
      await page.getByRole('button', { name: `Open ${NAME}` }).click();
      await page.locator('#alert-rows tr').nth(1).waitFor();
      const alerts = await rowsOf('#alert-rows');
      const monthEnd = addDays(MONTH_START, DAYS_IN_MONTH - 1);
      expect(alerts.map((cells) => [cells[1], cells[3], cells[5]])).toEqual([
        ['fired', `${MONTH_START} to ${monthEnd}`, 'no'],
        ['fired', `${MONTH_START} to ${monthEnd}`, 'no'],
      ]);
      expect(alerts.map((cells) => cells[2]).sort()).toEqual(['actual 1%', 'forecast 100%']);
      for (const cells of alerts) {
        expect(cells[0]).toMatch(WHEN);
        expect(cells[4]).toMatch(/^destination 1, attempt 1: delivered \(HTTP 200\) \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
      }
      // The standing alerts date the thresholds that hold.
      const since = (await rowsOf('#threshold-rows')).map((cells) => cells[4]);
      expect(since.map((text) => WHEN.test(text))).toEqual([true, false, true]);
    });
    expect(consoleErrors).toEqual([]);
  }, 60_000);

  it('changes the opened budget’s amount, and shows a refused change in the API’s own words', async () => {
    await step('edit', async () => {
      // The editor holds the budget as saved.
      expect(await page.getByLabel('Name').inputValue()).toBe(NAME);
      expect(await page.getByLabel('Amount per period').inputValue()).toBe(AMOUNT);
      expect(await page.getByLabel('Alert when actual spend reaches').inputValue()).toBe('1, 1000');
      expect(JSON.parse(await page.getByLabel('Filters (JSON, optional)').inputValue())).toEqual(PAYMENTS);
      expect(await page.getByLabel('Webhook destinations').inputValue()).toBe(hook);
      await page.getByLabel('Amount per period').fill(CHANGED_AMOUNT);
      const saved = await adminCall('PUT', () => button('Save').click());
      expect(saved.status()).toBe(200);
      await page
        .getByRole('status')
        .filter({ hasText: `Saved ${NAME} (version 2).` })
        .waitFor();
      const expected = expectedFigures(CHANGED_AMOUNT);
      expect(await budgetRow(expected.row[3])).toEqual(expected.row);
      expect(expected.row[8]).toBe('actual 1%: breached; actual 1000%: ok; forecast 100%: ok');
      expect((await listed()).map(({ version, amounts }) => [version, amounts])).toEqual([[2, { default: CHANGED_AMOUNT }]]);
    });

    await step('refused', async () => {
      await page.getByLabel('Alert when actual spend reaches').fill('0');
      const refused = await adminCall('PUT', () => button('Save').click());
      expect(refused.status()).toBe(400);
      const message = ((await refused.json()) as { error: { message: string } }).error.message;
      expect(message).toContain('thresholds[0].percent');
      await page.getByRole('alert').filter({ hasText: 'thresholds[0].percent' }).waitFor();
      await expect(page.getByRole('alert').textContent()).resolves.toBe(message);
      expect((await listed()).map(({ version }) => version)).toEqual([2]);
    });
    expect(consoleErrors.filter((text) => !text.includes('status of 400'))).toEqual([]);
  }, 60_000);

  it('deletes the opened budget after a confirm step', async () => {
    const remove = page.getByRole('button', { name: `Delete the budget ${NAME}` });
    await step('cancel', async () => {
      let asked = '';
      page.once('dialog', (dialog) => {
        asked = dialog.message();
        void dialog.dismiss();
      });
      await remove.click();
      expect(asked).toContain(`Delete the budget "${NAME}"?`);
      expect(await listed()).toHaveLength(1);
      expect(await page.locator('#budget-rows tr').count()).toBe(1);
    });

    await step('delete', async () => {
      page.once('dialog', (dialog) => void dialog.accept());
      const deleted = await adminCall('DELETE', () => remove.click());
      expect(deleted.status()).toBe(200);
      await page.getByText('No budget yet: create one below.').waitFor();
      await page
        .getByRole('status')
        .filter({ hasText: `Deleted ${NAME}.` })
        .waitFor();
      expect(await page.locator('#budgets-table').isVisible()).toBe(false);
      expect(await page.locator('#details').isVisible()).toBe(false);
      await expect(page.locator('#editor-title').textContent()).resolves.toBe('Create a budget');
      expect(await listed()).toEqual([]);
    });
    expect(consoleErrors.filter((text) => !text.includes('status of 400'))).toEqual([]);
  }, 60_000);
});
