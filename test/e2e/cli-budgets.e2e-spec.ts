// modes: embedded — the CLI over the budgets service; the store's topology is covered by budgets.e2e-spec.ts
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { addDays, todayUtc } from '../../src/common/dates/calendar-date';
import { childEnv } from '../support/built-app';
import { BUILT } from '../support/built-dist';
import { CliRun, runCli } from '../support/cli-run';
import { sumDecimalText, toScaled } from '../support/decimals';

/**
 * `budgets list|show|set|remove` as an operator runs them: the compiled CLI in a child process on an embedded store of
 * this file's own, for one fresh organisation whose rows it imports first. Every figure expected is summed here from
 * those rows, exactly.
 */
const ROOT = resolve(__dirname, '../..');
const WORK = join(process.env.E2E_TMP_DIR ?? join(ROOT, '.test-tmp'), `cli-budgets-e2e-${process.env.JEST_WORKER_ID ?? '1'}`);
const STORE = { DATA_DIR: join(WORK, 'store'), CLICKHOUSE_DATABASE: process.env.CLICKHOUSE_DATABASE! };

const ORG = randomUUID();
const TODAY = todayUtc();
const MONTH = TODAY.slice(0, 7);
const MONTH_START = `${MONTH}-01`;
const LAST_MONTH_START = `${addDays(MONTH_START, -1).slice(0, 7)}-01`;

/** This month's payments rows (on its first day: never after today), another team's, and last month's payments row. */
const ROWS = [
  { date: MONTH_START, amount: '1.2345', team: 'payments' },
  { date: MONTH_START, amount: '3.0005', team: 'payments' },
  { date: MONTH_START, amount: '100', team: 'search' },
  { date: LAST_MONTH_START, amount: '7.25', team: 'payments' },
];
const PAYMENTS = { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } };

/** The exact sum of the payments rows from `start` to the end of its month. */
function paymentsIn(start: string): string {
  return sumDecimalText(
    ROWS.filter((row) => row.team === 'payments' && row.date.slice(0, 7) === start.slice(0, 7)).map((row) => row.amount),
  );
}

/** actual ÷ amount × 100, rounded half up to 2 places, in integers. */
function percentUsed(actual: string, amount: string): number {
  const [part, whole] = [toScaled(actual) * 100n * 100n, toScaled(amount)];
  return Number((2n * part + whole) / (2n * whole)) / 100;
}

function focusExport(): string {
  const header =
    'BilledCost,EffectiveCost,ListCost,ChargeCategory,ChargePeriodStart,BillingPeriodStart,BillingAccountId,ServiceName,ProviderName,BillingCurrency,Tags';
  const lines = ROWS.map(
    ({ date, amount, team }) =>
      `${amount},${amount},${amount},Usage,${date}T00:00:00Z,${date}T00:00:00Z,123456789012,Amazon EC2,AWS,USD,"{""team"": ""${team}""}"`,
  );
  return [header, ...lines, ''].join('\n');
}

function file(name: string, body: object): string {
  const path = join(WORK, name);
  writeFileSync(path, JSON.stringify(body));
  return path;
}

function cli(...args: string[]): Promise<CliRun> {
  return runCli(BUILT.cli, args, childEnv(STORE));
}

function json<T>(result: CliRun): T {
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(result.stdout) as T;
}

/** A table's lines as cells (columns are two spaces or more apart; a cell holds single spaces at most). */
function tableRows(stdout: string): string[][] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => line.split(/ {2,}/));
}

interface StatusFigures {
  period: { label: string };
  amount: number | null;
  actual: number;
  percent_used: number | null;
}
interface ListedBudget {
  budgetId: string;
  name: string;
  version: number;
  amounts: Record<string, string>;
  updatedAt: string;
  updatedBy: string;
  status: StatusFigures & { thresholds: Array<{ kind: string; percent: number; amount: number; state: string }>; history: StatusFigures[] };
}

const BUDGET = {
  name: 'Payments monthly',
  period: 'monthly',
  filters: PAYMENTS,
  amounts: { default: '10' },
  thresholds: [
    { kind: 'actual', percent: 40 },
    { kind: 'actual', percent: 80 },
  ],
};

describe('operator CLI: budgets (embedded)', () => {
  let budgetId = '';
  let secret = '';

  beforeAll(async () => {
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    writeFileSync(join(WORK, 'export.csv'), focusExport());
    expect((await cli('ingest', 'focus', join(WORK, 'export.csv'), '--org', ORG, '--json')).code).toBe(0);
  }, 60_000);

  afterAll(() => rmSync(WORK, { recursive: true, force: true }));

  it('creates a budget from a JSON file, printing its signing secret once, and lists it without the secret', async () => {
    const created = await cli('budgets', 'set', '--org', ORG, '--file', file('budget.json', BUDGET));
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const [, id] = /^Created budget ([0-9a-f-]{36}) "Payments monthly"\.$/m.exec(created.stdout)!;
    expect(created.stdout).toContain('shown now and never again');
    [budgetId, secret] = [id, /^ {2}(whsec_\S+)$/m.exec(created.stdout)![1]];

    const listed = await cli('budgets', 'list', '--org', ORG);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const actual = paymentsIn(MONTH_START);
    expect(tableRows(listed.stdout)).toEqual([
      ['ID', 'NAME', 'PERIOD', 'CURRENCY', 'AMOUNT', 'ACTUAL', '% USED', 'THRESHOLDS', 'UPDATED'],
      [
        budgetId,
        'Payments monthly',
        'monthly',
        'USD',
        '10',
        actual,
        String(percentUsed(actual, '10')),
        'actual 40 % breached, actual 80 %',
        expect.any(String),
      ],
    ]);
    expect(listed.stdout).not.toContain(secret);
  }, 30_000);

  it('refuses a file with a percent of 0 and an unknown field, naming each, and saves nothing', async () => {
    const bad = { ...BUDGET, thresholds: [{ kind: 'actual', percent: 0 }], colour: 'red' };
    const refused = await cli('budgets', 'set', '--org', ORG, '--file', file('bad.json', bad));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('the budget was refused, nothing was saved');
    expect(refused.stderr).toMatch(/^ {2}thresholds\[0\]\.percent: /m);
    expect(refused.stderr).toMatch(/^ {2}colour: unknown field$/m);

    const listed = json<{ organizationId: string; today: string; budgets: ListedBudget[] }>(
      await cli('budgets', 'list', '--org', ORG, '--json'),
    );
    expect(listed).toMatchObject({ organizationId: ORG, today: TODAY });
    expect(listed.budgets).toEqual([expect.objectContaining({ budgetId, version: 1, amounts: { default: '10' }, updatedBy: 'cli' })]);
    expect(JSON.stringify(listed)).not.toContain(secret);
  }, 30_000);

  it("shows the budget's standing, summed from the organisation's rows its filters select", async () => {
    const shown = json<{ today: string; budget: ListedBudget }>(await cli('budgets', 'show', '--org', ORG, '--id', budgetId, '--json'));
    const actual = paymentsIn(MONTH_START);
    const lastMonth = paymentsIn(LAST_MONTH_START);
    expect(shown.budget.status).toMatchObject({
      period: { label: MONTH, start: MONTH_START },
      amount: 10,
      actual: Number(actual),
      percent_used: percentUsed(actual, '10'),
      thresholds: [
        { kind: 'actual', percent: 40, amount: 4, state: 'breached' },
        { kind: 'actual', percent: 80, amount: 8, state: 'ok' },
      ],
    });
    expect(shown.budget.status.history.at(-1)).toEqual({
      period: expect.objectContaining({ label: LAST_MONTH_START.slice(0, 7) }),
      amount: 10,
      actual: Number(lastMonth),
      percent_used: percentUsed(lastMonth, '10'),
    });
    expect(JSON.stringify(shown)).not.toContain(secret);
  }, 30_000);

  it("replaces the definition with --id, keeping the id, and shows the new month's amount", async () => {
    const amounts = { default: '5', [MONTH]: '20' };
    const saved = json<ListedBudget>(
      await cli('budgets', 'set', '--org', ORG, '--id', budgetId, '--file', file('v2.json', { ...BUDGET, amounts }), '--json'),
    );
    expect(saved).toMatchObject({ budgetId, version: 2, amounts, updatedBy: 'cli' });

    const shown = await cli('budgets', 'show', '--org', ORG, '--id', budgetId);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    const actual = paymentsIn(MONTH_START);
    expect(shown.stdout).toContain(`version 2, updated ${saved.updatedAt} by cli`);
    expect(shown.stdout).toContain(`  actual ${actual} of 20 (${percentUsed(actual, '20')} % used)`);
    const lastMonth = paymentsIn(LAST_MONTH_START);
    expect(tableRows(shown.stdout)).toContainEqual([LAST_MONTH_START.slice(0, 7), '5', lastMonth, String(percentUsed(lastMonth, '5'))]);
  }, 30_000);

  it('removes the budget; showing it then fails naming it', async () => {
    const removed = await cli('budgets', 'remove', '--org', ORG, '--id', budgetId);
    expect(removed).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `Removed budget ${budgetId} "Payments monthly" (its alerts are kept 13 months).\n`,
    });
    const missing = await cli('budgets', 'show', '--org', ORG, '--id', budgetId);
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: `Error: No budget ${budgetId} in this organisation.\n` });
  }, 30_000);
});
