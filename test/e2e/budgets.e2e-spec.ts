// modes: embedded server cluster — budgets read, evaluate and record through the store's SQL
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { addDays, dayNumber, formatDayNumber, todayUtc } from '../../src/common/dates/calendar-date';
import { BudgetAlertsService } from '../../src/budgets/budget-alerts.service';
import { BudgetWebhooksService } from '../../src/budgets/budget-webhooks.service';
import { verifySignature } from '../../src/budgets/webhook-signature';
import type Redis from 'ioredis';
import { BudgetSumsService } from '../../src/budgets/budget-sums.service';
import { BudgetsRepository } from '../../src/store/repositories/budgets.repository';
import { RuleCategoriesService } from '../../src/cost-categories/rule-categories.service';
import { AnswerCurrencyService } from '../../src/currency/answer-currency.service';
import { ClickhouseService } from '../../src/store/clickhouse/clickhouse.service';
import { CostDataVersion } from '../../src/store/data-version/cost-data-version.service';
import { REDIS } from '../../src/infrastructure/redis/redis.module';
import { itIn } from '../support/suite-modes';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * Budgets end to end: the admin API and its refusals, the status of a monthly budget over 60 days of steady spend
 * (every expected figure summed here from the rows inserted), the worker's alerts (fired once, withdrawn by a
 * restatement) and their webhooks to a real local receiver (signed, retried after a failure, one event id).
 */
const TODAY = todayUtc();
const MONTH_START = `${TODAY.slice(0, 7)}-01`;
const DAYS_IN_MONTH = dayNumber(addDays(`${formatDayNumber(dayNumber(MONTH_START) + 32).slice(0, 7)}-01`, -1)) - dayNumber(MONTH_START) + 1;
const DAY_OF_MONTH = dayNumber(TODAY) - dayNumber(MONTH_START) + 1;
const DAILY = 10;
/**
 * Steady usage on every one of the last 60 days (two resources, each with a tag of its own, as real ones have: the
 * sums group by the keys budgets read, not by every resource's tags), a tax charge today, and a row of another team.
 */
const ROWS: RowInput[] = [
  ...Array.from({ length: 60 }, (_, i) =>
    ['i-0a1', 'i-0b2'].map((resource) => ({
      usage_date: addDays(TODAY, -i),
      service: 'Amazon EC2',
      amortized_cost: String(DAILY / 2),
      charge_category: 'Usage',
      resource_tags: { team: 'payments', instance: resource },
    })),
  ).flat(),
  { usage_date: TODAY, service: 'Tax', amortized_cost: '5', charge_category: 'Tax', resource_tags: { team: 'payments' } },
  { usage_date: TODAY, service: 'Amazon S3', amortized_cost: '1000', charge_category: 'Usage', resource_tags: { team: 'search' } },
];
const PAYMENTS = { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } };
/** 90 % of what a steady month costs: the forecast (10 a day for every day of the month) crosses it. */
const AMOUNT = (DAILY * DAYS_IN_MONTH * 9) / 10;

/** What the payments rows sum to between two days (both included), computed from ROWS. */
function paymentsBetween(start: string, end: string): number {
  return ROWS.filter((row) => row.resource_tags?.team === 'payments' && row.usage_date >= start && row.usage_date <= end).reduce(
    (total, row) => total + Number(row.amortized_cost),
    0,
  );
}

/** A receiver of webhooks on loopback: answers each request with the next status of `statuses` (then 200). */
class Receiver {
  readonly requests: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  private server?: Server;
  port = 0;
  constructor(private readonly statuses: number[]) {}
  async start(): Promise<number> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        this.requests.push({ headers: request.headers, body });
        response.writeHead(this.statuses.shift() ?? 200).end('ignored');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

describe('budgets', () => {
  let t: TestApp;
  let org: TestOrganization;
  let port: number;
  const receiver = new Receiver([500]);
  /** A receiver that never accepts: its deliveries end in the dead letter. */
  const deadReceiver = new Receiver(Array.from({ length: 10 }, () => 503));

  beforeAll(async () => {
    port = await receiver.start();
    const hosts = `127.0.0.1:${port},127.0.0.1:${await deadReceiver.start()},169.254.169.254`;
    t = await TestApp.start({ settings: { WEBHOOK_ALLOWED_HOSTS: hosts, WEBHOOK_RETRY_BASE_SECONDS: '1' } });
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, ROWS);
  });
  afterAll(async () => {
    await t?.close();
    await receiver.close();
    await deadReceiver.close();
  });

  const admin = (who: TestOrganization) => ({
    create: (body: object) => t.http.post('/v1/admin/budgets').set(who.auth).send(body),
    list: () => t.http.get('/v1/admin/budgets').set(who.auth),
    alerts: (id: string) => t.http.get(`/v1/admin/budgets/${id}/alerts`).set(who.auth),
  });
  const status = (who: TestOrganization, body: object = {}) => t.http.post('/v1/cost-insights/budgets').set(who.auth).send(body);
  const budgetSums = async () => {
    const text = (await t.http.get('/metrics')).text;
    const count = (source: string) =>
      Number(new RegExp(`^cost_insights_budget_sums_total\\{source="${source}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    return { stored: count('stored'), read: count('read') };
  };
  const budget = (extra: object = {}) => ({
    name: 'Payments monthly',
    filters: PAYMENTS,
    period: 'monthly',
    amounts: { default: String(AMOUNT) },
    thresholds: [
      { kind: 'actual', percent: 1 },
      { kind: 'actual', percent: 1000 },
      { kind: 'forecast', percent: 100 },
    ],
    notify: [{ url: `http://127.0.0.1:${port}/hook`, format: 'json' }],
    ...extra,
  });

  it('refuses bad budgets with a 400 naming each field, and saves nothing', async () => {
    const cases: Array<[object, string]> = [
      [budget({ colour: 'red' }), 'colour'],
      [budget({ amounts: { default: '-1' } }), 'amounts.default: expected a positive decimal'],
      [budget({ amounts: { default: 'abc' } }), 'amounts.default: expected a positive decimal'],
      [budget({ amounts: { '2030-01': '5', '2030-03': '5' } }), 'missing 2030-02'],
      [budget({ amounts: { '2030-01': '5' } }), 'must include the current one'],
      [budget({ amounts: { '2026-Q1': '5', default: '1' } }), 'amounts.2026-Q1: expected "default" or a monthly period'],
      [budget({ thresholds: [{ kind: 'actual', percent: 0 }] }), 'thresholds[0].percent'],
      [budget({ thresholds: [{ kind: 'actual', percent: 1001 }] }), 'thresholds[0].percent'],
      [
        budget({
          thresholds: [
            { kind: 'actual', percent: 50 },
            { kind: 'actual', percent: 50 },
          ],
        }),
        'thresholds[1]: actual 50 % is given twice',
      ],
      [budget({ notify: [{ url: `http://hooks.example.internal/x` }] }), 'notify[0].url'],
      [budget({ notify: [{ url: `https://elsewhere.example/x` }] }), 'notify[0].url'],
      [budget({ notify: [{ url: 'https://169.254.169.254/latest/meta-data' }] }), 'refused address (link-local'],
      [budget({ notify: [{ url: `http://user:hunter2@127.0.0.1:${port}/x` }] }), 'notify[0].url'],
      [budget({ filters: { inclusions: { dateRange: { start: TODAY, end: TODAY } } } }), 'filters.inclusions.dateRange'],
      [budget({ period: 'weekly' }), 'period'],
    ];
    for (const [body, expected] of cases) {
      const response = await admin(org).create(body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.body.error.message).toContain(expected);
      expect(JSON.stringify(response.body)).not.toContain('hunter2');
    }
    expect((await admin(org).list()).body.data.budgets).toEqual([]);
  });

  let budgetId: string;
  let signingSecret: string;

  it('creates a budget: the signing secret once, the currency fixed, the change audited', async () => {
    const created = await admin(org).create(budget());
    expect(created.status).toBe(201);
    ({ budgetId, signingSecret } = created.body.data);
    expect(signingSecret).toMatch(/^whsec_/);
    expect(created.body.data).toMatchObject({
      name: 'Payments monthly',
      currency: 'USD',
      metric: 'amortized_cost',
      version: 1,
      dataScope: null,
    });
    const listed = (await admin(org).list()).body.data.budgets;
    expect(listed.map((item: { budgetId: string }) => item.budgetId)).toEqual([budgetId]);
    expect(JSON.stringify(listed)).not.toContain(signingSecret);
    const audit = await t.http.get('/v1/admin/audit-events').query({ action: 'budget.created' }).set(org.auth);
    expect(audit.body.data.events.map((event: { target: string }) => event.target)).toEqual([budgetId]);
  });

  it('answers the status: actual, pro-rated amount, forecast, thresholds and 12 past months, from the rows', async () => {
    const response = await status(org);
    expect(response.status).toBe(200);
    const [only] = response.body.data.budgets;
    const actual = paymentsBetween(MONTH_START, TODAY);
    expect(actual).toBe(DAILY * DAY_OF_MONTH + 5);
    // Steady spend: up to yesterday, then the model's 10 a day for the rest (tax is a one-off, never extrapolated).
    const forecast = DAILY * DAYS_IN_MONTH;
    const crossingDay = Math.ceil((AMOUNT * 100) / DAILY / 100);
    expect(only).toEqual({
      budgetId,
      name: 'Payments monthly',
      currency: 'USD',
      metric: 'amortized_cost',
      filters: PAYMENTS,
      period: { label: TODAY.slice(0, 7), start: MONTH_START, end: addDays(MONTH_START, DAYS_IN_MONTH - 1) },
      amount: AMOUNT,
      actual,
      percent_used: Math.round((actual / AMOUNT) * 10_000) / 100,
      prorated_amount: Math.round(((AMOUNT * DAY_OF_MONTH) / DAYS_IN_MONTH) * 1e10) / 1e10,
      forecast: { mean: forecast, lower: forecast, upper: forecast },
      thresholds: [
        { kind: 'actual', percent: 1, amount: AMOUNT / 100, state: 'breached', since: null },
        { kind: 'actual', percent: 1000, amount: AMOUNT * 10, state: 'ok', since: null },
        {
          kind: 'forecast',
          percent: 100,
          amount: AMOUNT,
          state: 'forecast_breach',
          since: null,
          crossing_date: addDays(MONTH_START, crossingDay - 1),
        },
      ],
      history: Array.from({ length: 12 }, (_, i) => {
        const start = formatDayNumber(dayNumber(`${monthsBefore(MONTH_START, 12 - i)}`));
        const end = addDays(monthsBefore(MONTH_START, 11 - i), -1);
        const spent = paymentsBetween(start, end);
        return {
          period: { label: start.slice(0, 7), start, end },
          amount: AMOUNT,
          actual: spent,
          percent_used: Math.round((spent / AMOUNT) * 10_000) / 100,
        };
      }),
    });
  });

  it('the worker fires each threshold once, and withdraws an actual one a restatement makes untrue', async () => {
    const evaluator = t.app.get(BudgetAlertsService);
    const fired = await evaluator.evaluate(org.organizationId);
    expect(fired.map((alert) => [alert.event, alert.kind, alert.percent]).sort()).toEqual([
      ['fired', 'actual', 1],
      ['fired', 'forecast', 100],
    ]);
    expect(await evaluator.evaluate(org.organizationId)).toEqual([]); // nothing changed: nothing fires twice
    // The sums the evaluator read are stored for the same data and day (Redis, and the instance's memory): a status
    // reads none of them again.
    const before = await budgetSums();
    const answered = (await status(org)).body.data.budgets.length;
    expect(await budgetSums()).toEqual({ stored: before.stored + answered, read: before.read });
    const states = (await status(org)).body.data.budgets[0].thresholds;
    expect(states.map((threshold: { since: string | null }) => threshold.since !== null)).toEqual([true, false, true]);

    // A restatement: a credit takes the month's spend back below 1 % of the amount.
    await t.insertRows(org.organizationId, [
      {
        usage_date: TODAY,
        service: 'Credit',
        amortized_cost: String(-(DAILY * DAY_OF_MONTH + 5)),
        charge_category: 'Credit',
        resource_tags: { team: 'payments' },
      },
    ]);
    const read = (await budgetSums()).read;
    const withdrawn = await evaluator.evaluate(org.organizationId);
    expect(withdrawn.map((alert) => [alert.event, alert.kind, alert.percent])).toEqual([['withdrawn', 'actual', 1]]);
    expect((await budgetSums()).read).toBeGreaterThanOrEqual(read + answered); // new data: every sum read anew
    // Newest first: the withdrawal, then the two alerts fired together.
    const alerts = (await admin(org).alerts(budgetId)).body.data.alerts as Array<{
      event: string;
      threshold: { kind: string; percent: number };
    }>;
    const described = alerts.map((alert) => `${alert.event} ${alert.threshold.kind} ${alert.threshold.percent}`);
    expect(described[0]).toBe('withdrawn actual 1');
    expect(described.slice(1).sort()).toEqual(['fired actual 1', 'fired forecast 100']);
  });

  itIn(['server', 'cluster'])('another instance reads the sums an evaluation stored in Redis, equal to those it would read', async () => {
    const budgets = await t.app.get(BudgetsRepository).budgets(org.organizationId);
    await t.app.get(BudgetAlertsService).evaluate(org.organizationId); // stores the sums of the data as it is now
    const instance = (redis: Redis | null) =>
      new BudgetSumsService(
        t.app.get(ClickhouseService),
        t.app.get(AnswerCurrencyService),
        t.app.get(RuleCategoriesService),
        t.app.get(CostDataVersion),
        redis,
      );
    const before = await budgetSums();
    const fetched = await instance(t.app.get<Redis>(REDIS)).read(org.organizationId, budgets, TODAY, 'now');
    expect(await budgetSums()).toEqual({ stored: before.stored + budgets.length, read: before.read });
    // Without Redis an instance reads them from the store: the same sums, to the last unit.
    const read = await instance(null).read(org.organizationId, budgets, TODAY, 'now');
    expect(budgets.length).toBeGreaterThan(0);
    for (const { budgetId } of budgets) {
      expect(fetched.get(budgetId)!.days.size).toBeGreaterThan(0);
      expect(fetched.get(budgetId)).toEqual(read.get(budgetId));
    }
  });

  it('delivers each alert to its webhook, signed, retried after a failure with the same event id', async () => {
    const webhooks = t.app.get(BudgetWebhooksService);
    expect(await webhooks.deliverDue(new Date(), org.organizationId)).toBe(3); // three alerts, one destination: the first answered 500
    expect(receiver.requests).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // WEBHOOK_RETRY_BASE_SECONDS=1
    expect(await webhooks.deliverDue(new Date(), org.organizationId)).toBe(1);
    expect(await webhooks.deliverDue(new Date(), org.organizationId)).toBe(0);
    const failedId = receiver.requests[0].headers['x-cost-insights-event-id'];
    expect(receiver.requests[3].headers['x-cost-insights-event-id']).toBe(failedId);
    const nowSeconds = Math.floor(Date.now() / 1000);
    for (const { headers, body } of receiver.requests) {
      const signature = String(headers['x-cost-insights-signature']);
      expect(verifySignature(signature, signingSecret, body, nowSeconds)).toBe(true);
      expect(JSON.parse(body)).toMatchObject({
        type: 'budget.threshold',
        budgetId,
        name: 'Payments monthly',
        currency: 'USD',
        amount: String(AMOUNT),
      });
    }
    const alerts = (await admin(org).alerts(budgetId)).body.data.alerts as Array<{
      eventId: string;
      deliveries: Array<{ status_code: number; outcome: string }>;
    }>;
    const retried = alerts.find((alert) => alert.eventId === failedId)!;
    expect(retried.deliveries.map((attempt) => [attempt.status_code, attempt.outcome])).toEqual([
      [500, 'retry'],
      [200, 'delivered'],
    ]);
  });

  it('a forecast alert is withdrawn when the upper bound falls back, and never fires twice in a period', async () => {
    const evaluator = t.app.get(BudgetAlertsService);
    const every = (amount: string) =>
      Array.from({ length: 60 }, (_, i) => ({
        usage_date: addDays(TODAY, -i),
        service: 'Amazon EC2',
        amortized_cost: amount,
        charge_category: 'Usage',
        resource_tags: { team: 'payments' },
      }));
    // Restated to nothing a day: the forecast (and its upper bound) falls to 0, under the threshold.
    await t.insertRows(org.organizationId, every(String(-DAILY)));
    const withdrawn = await evaluator.evaluate(org.organizationId);
    expect(withdrawn.map((alert) => [alert.event, alert.kind, alert.percent])).toEqual([['withdrawn', 'forecast', 100]]);
    // Back to 10 a day: the mean reaches the threshold again, but the period's forecast alert has fired once already.
    await t.insertRows(org.organizationId, every(String(DAILY)));
    expect(await evaluator.evaluate(org.organizationId)).toEqual([]);
    const forecastThreshold = (await status(org)).body.data.budgets[0].thresholds[2];
    expect(forecastThreshold).toMatchObject({ kind: 'forecast', state: 'forecast_breach', since: null });
  });

  it('a destination that never accepts is dead-lettered after 24 hours of retries, visible on the budget and audited', async () => {
    const made = await admin(org).create(
      budget({
        name: 'Search',
        filters: { inclusions: { resourceTag: 'team', resourceTagValues: ['search'] } },
        thresholds: [{ kind: 'actual', percent: 1 }],
        notify: [{ url: `http://127.0.0.1:${deadReceiver.port}/hook`, format: 'slack' }],
      }),
    );
    expect(made.status).toBe(201);
    const fired = await t.app.get(BudgetAlertsService).evaluate(org.organizationId);
    expect(fired.map((alert) => [alert.budgetId, alert.event])).toEqual([[made.body.data.budgetId, 'fired']]);
    const webhooks = t.app.get(BudgetWebhooksService);
    const first = new Date();
    // This alert, and the payments budget's forecast withdrawal above (delivered at once).
    expect(await webhooks.deliverDue(first, org.organizationId)).toBe(2);
    // The worker's clock a second short of a day later: the retry fails, and the next (3 s on) would be past the day.
    expect(await webhooks.deliverDue(new Date(first.getTime() + 24 * 3600_000 - 1_000), org.organizationId)).toBe(1);
    expect(await webhooks.deliverDue(new Date(first.getTime() + 25 * 3600_000), org.organizationId)).toBe(0);
    const [alert] = (await admin(org).alerts(made.body.data.budgetId)).body.data.alerts;
    expect(alert.dead_letter).toBe(true);
    expect(alert.deliveries.map((attempt: { status_code: number; outcome: string }) => [attempt.status_code, attempt.outcome])).toEqual([
      [503, 'retry'],
      [503, 'dead'],
    ]);
    expect(JSON.parse(deadReceiver.requests[0].body).text).toContain('Search');
    const audit = await t.http.get('/v1/admin/audit-events').query({ action: 'budget.webhook-dead-lettered' }).set(org.auth);
    expect(audit.body.data.events.map((event: { target: string }) => event.target)).toEqual([made.body.data.budgetId]);
  });

  it('a key with a data scope manages and sees only budgets made under its scope, which bounds what they read', async () => {
    const scoped = await t.keyFor(org.organizationId, ['budgets:admin', 'cost:read'], { inclusions: { services: ['Tax'] } });
    const created = await admin(scoped).create(budget({ name: 'Tax only', filters: {}, notify: [] }));
    expect(created.status).toBe(201);
    const [seen] = (await status(scoped)).body.data.budgets;
    expect(seen).toMatchObject({ name: 'Tax only', actual: 5 });
    expect((await status(org)).body.data.budgets.map((item: { name: string }) => item.name)).toEqual(['Payments monthly', 'Search']);
    const other = await t.http.get(`/v1/admin/budgets/${budgetId}`).set(scoped.auth);
    expect(other.status).toBe(404);
  });

  it('another organisation never sees a budget: 404 by id, empty lists', async () => {
    const stranger = await t.newOrganization();
    expect((await t.http.get(`/v1/admin/budgets/${budgetId}`).set(stranger.auth)).status).toBe(404);
    expect((await status(stranger)).body.data.budgets).toEqual([]);
    expect((await t.http.put(`/v1/admin/budgets/${budgetId}`).set(stranger.auth).send(budget())).status).toBe(404);
  });
});

/** The first day of the month `count` months before `monthStart`. */
function monthsBefore(monthStart: string, count: number): string {
  const [year, month] = monthStart.split('-').map(Number);
  const index = year * 12 + (month - 1) - count;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}
