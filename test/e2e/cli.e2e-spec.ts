// modes: embedded server cluster — the operator CLI on each store
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { DemoCostRow, generateDemoRows } from '../../src/demo/demo-data.generator';
import { sumDecimals } from '../support/decimals';
import { demoExchangeRates } from '../../src/demo/demo-exchange-rates';
import { asNumber, exact, rounded, sum, times } from '../support/money';
import { stopProcess } from '../support/local-servers';
import { BUILT } from '../support/built-dist';
import { itIn } from '../support/suite-modes';
import { CliRun, runCli } from '../support/cli-run';
import { TestApp } from '../support/test-app';
import { childEnv, readStoreInChild, spawnBuiltApi, waitForHttp, withBuiltApi } from '../support/built-app';
import { E2E_MODE, SHARED_SERVERS } from '../support/e2e-mode';

/**
 * The operator CLI as an operator runs it: the compiled `dist/cli/main.js` in a child process,
 * against the mode's store. Server mode: the suite's ClickHouse server (CLICKHOUSE_URL), with the
 * HTTP API checked in-process on the same store. Embedded mode: a chDB directory of this file's
 * own; since one process at a time can open it, the HTTP API is the real server (`dist/main.js`)
 * started on it after the CLI has exited.
 */
const MODE = E2E_MODE;
const ROOT = resolve(__dirname, '../..');
const WORK = join(process.env.E2E_TMP_DIR ?? join(ROOT, '.test-tmp'), `cli-e2e-${process.env.JEST_WORKER_ID ?? '1'}`);
const { cli: CLI, server: SERVER } = BUILT;
const EMBEDDED_STORE = join(WORK, 'store');

type CliResult = CliRun;

type Env = Record<string, string>;

/** The store this file's CLI runs use: the suite's server or cluster, or an embedded directory of its own. */
function modeStore(): Env {
  if (!SHARED_SERVERS) return { DATA_DIR: EMBEDDED_STORE, CLICKHOUSE_DATABASE: process.env.CLICKHOUSE_DATABASE! };
  const store: Env = { CLICKHOUSE_URL: process.env.CLICKHOUSE_URL!, CLICKHOUSE_DATABASE: process.env.CLICKHOUSE_DATABASE! };
  for (const name of ['CLICKHOUSE_CLUSTER', 'CLICKHOUSE_CLUSTER_NODE_URLS']) if (process.env[name]) store[name] = process.env[name];
  return store;
}

function embeddedStore(dataDir: string): Env {
  return { DATA_DIR: dataDir, CLICKHOUSE_DATABASE: process.env.CLICKHOUSE_DATABASE! };
}

function cli(args: string[], store: Env = modeStore()): Promise<CliResult> {
  return runCli(CLI, args, childEnv(store));
}

function json<T>(result: CliResult): T {
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout.endsWith('\n')).toBe(true);
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1); // exactly one line
  return JSON.parse(result.stdout) as T;
}

interface CreatedKey {
  id: string;
  key: string;
  organizationId: string;
  name: string;
  scopes: string[];
}

interface ListedKey {
  id: string;
  organizationId: string;
  name: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
}

interface DemoLoad {
  organizationId: string;
  rows: number;
  from: string;
  to: string;
  days: number;
  seed: number;
}

/** The rows the demo generator defines for an organisation: the independent expectation. */
/**
 * The API's USD total of demo rows (its reporting currency): USD amounts as they are, each day's EUR sum (the Azure
 * enrollment) at the demo's rate of that day or the latest earlier business day, rounded once. The rates are the
 * demo's generated data, like the rows; the arithmetic is this test's own.
 */
function inUsd(
  rows: DemoCostRow[],
  load: { from: string; to: string; seed: number },
  measure: 'amortized_cost' | 'on_demand_cost',
): number {
  const rates = new Map(demoExchangeRates(load.from, load.to, load.seed).map((rate) => [rate.date, rate.rate]));
  const rateOn = (day: string): string =>
    rates.get(day) ?? rateOn(new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10));
  const euroByDay = new Map<string, string[]>();
  for (const row of rows.filter((r) => r.billing_currency === 'EUR'))
    euroByDay.set(row.usage_date, [...(euroByDay.get(row.usage_date) ?? []), row[measure]]);
  const dollars = rows.filter((r) => r.billing_currency === 'USD').map((r) => exact(r[measure]));
  const converted = [...euroByDay].map(([day, amounts]) => times(sum(amounts.map(exact)), exact(rateOn(day))));
  return asNumber(rounded(sum([...dollars, ...converted])));
}

function expectedDemoRows(organizationId: string, load: { from: string; to: string; seed: number }): DemoCostRow[] {
  const rows: DemoCostRow[] = [];
  for (const day of generateDemoRows({ organizationId, from: load.from, to: load.to, seed: load.seed })) rows.push(...day);
  return rows;
}

/** Count and exact amortized sum per organisation, read straight from the store. */
async function storeTotals(organizationIds: string[], app?: TestApp): Promise<Map<string, { rows: number; amortized: string }>> {
  const sql = (table: string) =>
    `SELECT toString(organization_id) AS org, toUInt32(count()) AS row_count, toString(sum(amortized_cost)) AS amortized
     FROM ${table} WHERE organization_id IN {orgs:Array(UUID)} GROUP BY org`;
  let rows: { org: string; row_count: number; amortized: string }[];
  if (app) {
    rows = await app.clickhouse.query(sql(app.clickhouse.table('cost_line_items')), { orgs: organizationIds });
  } else {
    // Embedded: the CLI has exited, so a child process can open the directory and read it.
    const [read] = readStoreInChild(childEnv(modeStore()), [{ sql: sql('{{table:cost_line_items}}'), params: { orgs: organizationIds } }]);
    rows = read as typeof rows;
  }
  return new Map(rows.map((r) => [r.org, { rows: Number(r.row_count), amortized: r.amortized }]));
}

/** The HTTP API on the CLI's store: in-process in server mode, the built server in embedded mode. */
type Agent = ReturnType<typeof request>;

async function withApi(run: (http: () => Agent) => Promise<void>): Promise<void> {
  if (SHARED_SERVERS) {
    const app = await TestApp.start();
    try {
      await run(() => app.http);
    } finally {
      await app.close();
    }
    return;
  }
  await withBuiltApi(
    SERVER,
    childEnv({ ...modeStore(), MIGRATE_ON_START: 'true', DEMO_ON_EMPTY_STORE: 'false' }),
    { ready: '/docs-json' },
    run,
  );
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A FOCUS export whose `team` tag is on 8 of its 10 dollars and `build` on the other 2: team alone is suggested. */
const TAGGED_FOCUS_CSV = [
  'BilledCost,EffectiveCost,ListCost,ChargeCategory,ChargePeriodStart,BillingPeriodStart,BillingAccountId,ServiceName,ProviderName,BillingCurrency,Tags',
  '8,8,8,Usage,2026-09-01T00:00:00Z,2026-09-01T00:00:00Z,123456789012,Amazon EC2,AWS,USD,"{""team"": ""red""}"',
  '2,2,2,Usage,2026-09-02T00:00:00Z,2026-09-01T00:00:00Z,123456789012,Amazon EC2,AWS,USD,"{""build"": ""b-1""}"',
  '',
].join('\n');

interface TagKeysAnswer {
  activated: { kind: string; key: string; state: string }[];
  present: { kind: string; key: string; suggested: boolean }[];
}

/** A FOCUS export of one line per amount, each on its own day of `month`, in USD. */
function focusCsv(amounts: string[], month: string): string {
  const lines = amounts.map(
    (amount, day) =>
      `${amount},${amount},${amount},Usage,${month}-0${day + 1}T00:00:00Z,${month}-01T00:00:00Z,123456789012,Amazon EC2,AWS,USD,`,
  );
  return [TAGGED_FOCUS_CSV.split('\n')[0], ...lines, ''].join('\n');
}

const LOCK_MESSAGE = /data directory .* is in use by another process.*Stop the server.*CLICKHOUSE_URL/s;

/** The cases that never reach the mode's store (usage; an embedded directory of their own, whatever the mode): once. */
const onceIn = itIn(['embedded']);

describe(`operator CLI (${MODE})`, () => {
  beforeAll(() => {
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
  }, 300_000);

  afterAll(() => {
    rmSync(WORK, { recursive: true, force: true });
  });

  onceIn('prints the usage for help and for no command', async () => {
    for (const args of [[], ['help'], ['--help']]) {
      const result = await cli(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Usage: npm run -s cli -- <command>');
      for (const command of ['migrate', 'keys create', 'keys list', 'keys revoke <id>', 'demo-data']) {
        expect(result.stdout).toContain(command);
      }
    }
    const keysHelp = await cli(['keys', 'create', '--help']);
    expect(keysHelp.code).toBe(0);
    expect(keysHelp.stdout).toContain('cost:read, shared-filters:read, shared-filters:write');
    // The package's command (`npx cost-insights`, package.json `bin`) is the same CLI.
    const bin = join(
      ROOT,
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['cost-insights'],
    );
    expect(await runCli(bin, ['help'], childEnv(modeStore()))).toEqual({ ...(await cli(['help'])), signal: null });
  });

  onceIn('answers usage errors with exit code 2 and a clear message, without opening the store', async () => {
    const untouched = join(WORK, 'never-opened');
    const store = embeddedStore(untouched);
    const org = randomUUID();
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /Unknown command "frobnicate"/],
      [['keys', 'create', '--org', 'not-a-uuid', '--name', 'ci', '--scopes', 'cost:read'], /--org must be a UUID/],
      [
        ['keys', 'create', '--org', org, '--name', 'ci', '--scopes', 'cost:read,cost:write'],
        /Unknown scope: cost:write\. Valid scopes: cost:read, shared-filters:read, shared-filters:write, api-keys:admin/,
      ],
      [['keys', 'create', '--org', org, '--scopes', 'cost:read'], /--name <text> is required/],
      [['keys', 'create', '--org', org, '--name', 'ci'], /--scopes <comma list> is required/],
      [['keys', 'create', '--org', org, '--name', 'ci', '--scopes', 'cost:read', '--admin'], /Unknown option '--admin'/],
      [['keys', 'create', '--org', org, '--name', 'ci', '--scopes', 'cost:read', '--data-scope', '{team'], /--data-scope must be JSON/],
      [['keys', 'list'], /--org <uuid> is required/],
      [['keys', 'revoke'], /needs the id/],
      [['keys', 'rotate'], /Unknown keys subcommand "rotate"/],
      [['demo-data', '--org', org, '--days', '0'], /--days must be between 1 and 3660/],
      [['demo-data', '--org', org, '--seed', 'abc'], /--seed must be a whole number/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args, store);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain('Usage:');
      expect(result.stdout).toBe('');
    }
    expect(existsSync(untouched)).toBe(false);
  });

  it('migrates, and reports up to date the second time', async () => {
    const first = await cli(['migrate']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Applied \d+ migrations? to cost_insights_test:\n {2}\d{4}_\w+|is up to date/);
    const second = await cli(['migrate']);
    expect(second).toEqual({ code: 0, signal: null, stdout: 'Database cost_insights_test is up to date.\n', stderr: '' });
  });

  it('creates keys that authenticate over HTTP, lists them without secrets, and revokes them', async () => {
    const orgA = randomUUID();
    const orgB = randomUUID();
    const keyA = json<CreatedKey>(
      await cli(['keys', 'create', '--org', orgA, '--name', 'reporting job', '--scopes', 'cost:read', '--json']),
    );
    expect(Object.keys(keyA)).toEqual(['id', 'key', 'organizationId', 'name', 'scopes', 'dataScope']);
    expect(keyA).toMatchObject({ organizationId: orgA, name: 'reporting job', scopes: ['cost:read'], dataScope: null });
    expect(keyA.key).toMatch(new RegExp(`^cik_${keyA.id}_`));
    const keyB = json<CreatedKey>(await cli(['keys', 'create', '--org', orgB, '--name', 'other org', '--scopes', 'cost:read', '--json']));
    const toRevoke = json<CreatedKey>(
      await cli(['keys', 'create', '--org', orgA, '--name', 'leaked', '--scopes', 'cost:read,shared-filters:write', '--json']),
    );

    // A key confined to one cloud (the scope is validated, then kept in its one spelling).
    const awsOnly = json<CreatedKey>(
      await cli([
        'keys',
        'create',
        '--org',
        orgA,
        '--name',
        'aws team',
        '--scopes',
        'cost:read',
        '--json',
        '--data-scope',
        '{"inclusions":{"clouds":["AWS","AWS"]}}',
      ]),
    );
    expect(awsOnly).toMatchObject({ dataScope: { inclusions: { clouds: ['AWS'] } } });
    const badScope = await cli([
      'keys',
      'create',
      '--org',
      orgA,
      '--name',
      'x',
      '--scopes',
      'cost:read',
      '--data-scope',
      '{"inclusions":{"billingPeriods":["2026-10"],"team":["a"]}}',
    ]);
    expect(badScope).toMatchObject({ code: 2, stdout: '' });
    expect(badScope.stderr).toMatch(/^Invalid --data-scope: /);
    expect(badScope.stderr).toContain('inclusions.team: unknown field');
    expect(badScope.stderr).toContain(
      "inclusions.billingPeriods: not allowed in a data scope: a key's scope is a slice of the organisation, over all dates",
    );

    // Human output: the key exactly once, with the warning that it will not be shown again.
    const human = await cli(['keys', 'create', '--org', orgA, '--name', 'filters only', '--scopes', 'shared-filters:read']);
    expect(human.code).toBe(0);
    const printed: string[] = human.stdout.match(/cik_\w+/g) ?? [];
    expect(printed).toHaveLength(1);
    expect(human.stdout).toMatch(/shown only this once/);
    const filtersOnlyKey = printed[0];

    const revoked = await cli(['keys', 'revoke', toRevoke.id]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked API key ${toRevoke.id}`);
    const unknown = await cli(['keys', 'revoke', 'NoSuchKey123']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No API key with id "NoSuchKey123"');

    const secrets = [keyA.key, keyB.key, toRevoke.key, filtersOnlyKey, awsOnly.key].flatMap((key) => [key, key.slice(16), sha256(key)]);
    const listed = await cli(['keys', 'list', '--org', orgA, '--json']);
    for (const secret of secrets) expect(listed.stdout).not.toContain(secret);
    const listedKeys = json<ListedKey[]>(listed);
    expect(listedKeys.map((k) => Object.keys(k))).toEqual(
      Array(4).fill(['id', 'organizationId', 'name', 'scopes', 'dataScope', 'createdAt', 'revokedAt', 'lastUsedAt']),
    );
    expect(listedKeys.map((k) => [k.name, k.revokedAt === null])).toEqual([
      ['reporting job', true],
      ['leaked', false],
      ['aws team', true],
      ['filters only', true],
    ]);
    const table = await cli(['keys', 'list', '--org', orgA]);
    expect(table.code).toBe(0);
    for (const secret of secrets) expect(table.stdout + table.stderr).not.toContain(secret);
    expect(table.stdout).toMatch(
      new RegExp(`^${toRevoke.id} +leaked +cost:read,shared-filters:write +the whole organisation +\\S+ +never +revoked `, 'm'),
    );
    expect(table.stdout).toMatch(new RegExp(`^${keyA.id} +reporting job +cost:read +the whole organisation +\\S+ +never +active$`, 'm'));
    expect(table.stdout).toMatch(new RegExp(`^${awsOnly.id} +aws team +cost:read +clouds in \\(AWS\\) +\\S+ +never +active$`, 'm'));
    expect(json<ListedKey[]>(await cli(['keys', 'list', '--org', orgB, '--json'])).map((k) => k.id)).toEqual([keyB.id]);
    expect(await cli(['keys', 'list', '--org', randomUUID()])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^No API keys/) });

    // Demo data for both organisations, with the same seed: the same estate, each in its own org.
    const loadA = json<DemoLoad>(await cli(['demo-data', '--org', orgA, '--days', '20', '--seed', '7', '--json']));
    const loadB = json<DemoLoad>(await cli(['demo-data', '--org', orgB, '--days', '20', '--seed', '7', '--json']));
    const expectedA = expectedDemoRows(orgA, loadA);
    expect(loadA).toMatchObject({ organizationId: orgA, rows: expectedA.length, days: 20, seed: 7 });
    expect(loadB).toMatchObject({ rows: loadA.rows, from: loadA.from, to: loadA.to });
    expect(new Set(expectedA.map((r) => r.billing_currency))).toEqual(new Set(['USD', 'EUR'])); // the Azure enrollment bills in EUR
    const expectedTotal = inUsd(expectedA, loadA, 'amortized_cost');
    const expectedOnDemand = inUsd(expectedA, loadA, 'on_demand_cost');

    const body = {
      filters: { inclusions: { dateRange: { start: loadA.from, end: loadA.to } } },
      groupBy: { dateGrouping: 'monthly', dimension: 'cloud' },
    };
    await withApi(async (http) => {
      for (const key of [keyA.key, keyB.key]) {
        const response = await http().post('/v1/cost-insights/data').set('Authorization', `Bearer ${key}`).send(body);
        expect(response.status).toBe(200);
        expect(response.body.data.summary.total_amortized_cost).toBeCloseTo(expectedTotal, 4);
        expect(response.body.data.summary.total_on_demand_cost).toBeCloseTo(expectedOnDemand, 4);
        expect(new Set(response.body.data.items.map((i: { dimension_value: string }) => i.dimension_value))).toEqual(
          new Set(['AWS', 'Azure', 'GCP', 'Oracle']),
        );
      }
      const aws = await http().post('/v1/cost-insights/data').set('Authorization', `Bearer ${awsOnly.key}`).send(body);
      expect(aws.body.data.items.map((i: { dimension_value: string }) => i.dimension_value)).toEqual(
        [...new Set(expectedA.filter((r) => r.cloud === 'AWS').map((r) => r.usage_date.slice(0, 7)))].map(() => 'AWS'),
      );
      expect(aws.body.data.summary.total_amortized_cost).toBeCloseTo(
        sumDecimals(expectedA.filter((r) => r.cloud === 'AWS').map((r) => r.amortized_cost)),
        4,
      );
      const rejected = await http().post('/v1/cost-insights/data').set('Authorization', `Bearer ${toRevoke.key}`).send(body);
      expect(rejected.status).toBe(401);
      expect(rejected.body).toEqual({ message: 'Unauthorized' });
      const forbidden = await http().post('/v1/cost-insights/data').set('Authorization', `Bearer ${filtersOnlyKey}`).send(body);
      expect(forbidden.status).toBe(403);

      if (MODE === 'embedded') {
        // The running server holds the directory and relays the CLI's command: the key it makes works at once.
        const relayed = json<CreatedKey>(
          await cli(['keys', 'create', '--org', orgA, '--name', 'while serving', '--scopes', 'cost:read', '--json']),
        );
        const answer = await http().post('/v1/cost-insights/data').set('Authorization', `Bearer ${relayed.key}`).send(body);
        expect(answer.status).toBe(200);
        expect(answer.body.data.summary.total_amortized_cost).toBeCloseTo(expectedTotal, 4);
      }
    });
    if (MODE === 'embedded') {
      expect(json<ListedKey[]>(await cli(['keys', 'list', '--org', orgA, '--json'])).map((k) => k.name)).toEqual([
        'reporting job',
        'leaked',
        'aws team',
        'filters only',
        'while serving',
      ]);
    }
  }, 240_000);

  it('loads demo data deterministically per seed, once per organisation unless --replace', async () => {
    const [orgC, orgD, orgE] = [randomUUID(), randomUUID(), randomUUID()];
    const loadC = json<DemoLoad>(await cli(['demo-data', '--org', orgC, '--days', '15', '--seed', '11', '--json']));
    json<DemoLoad>(await cli(['demo-data', '--org', orgD, '--days', '15', '--seed', '11', '--json']));
    const loadE = json<DemoLoad>(await cli(['demo-data', '--org', orgE, '--days', '15', '--seed', '12', '--json']));
    const expectedC = expectedDemoRows(orgC, loadC);
    const expectedE = expectedDemoRows(orgE, loadE);
    const exactSum = (rows: DemoCostRow[]) => sumDecimals(rows.map((r) => r.amortized_cost));

    const app = SHARED_SERVERS ? await TestApp.start() : undefined;
    try {
      const totals = await storeTotals([orgC, orgD, orgE], app);
      expect(totals.get(orgC)!.rows).toBe(expectedC.length);
      expect(Number(totals.get(orgC)!.amortized)).toBeCloseTo(exactSum(expectedC), 6);
      expect(totals.get(orgD)).toEqual(totals.get(orgC)); // same seed, other organisation: same estate
      expect(totals.get(orgE)!.rows).toBe(expectedE.length);
      expect(Number(totals.get(orgE)!.amortized)).toBeCloseTo(exactSum(expectedE), 6);
      expect(totals.get(orgE)!.amortized).not.toBe(totals.get(orgC)!.amortized);

      const again = await cli(['demo-data', '--org', orgC, '--days', '15', '--seed', '11']);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(new RegExp(`Organisation ${orgC} already has ${expectedC.length} cost rows.*--replace`));
      expect((await storeTotals([orgC], app)).get(orgC)!.rows).toBe(expectedC.length);

      const replaced = json<DemoLoad & { replaced: number }>(
        await cli(['demo-data', '--org', orgC, '--days', '3', '--seed', '11', '--replace', '--json']),
      );
      const expectedReplaced = expectedDemoRows(orgC, replaced);
      expect(replaced).toMatchObject({ rows: expectedReplaced.length, replaced: expectedC.length });
      const after = await storeTotals([orgC, orgD], app);
      expect(after.get(orgC)!.rows).toBe(expectedReplaced.length);
      expect(Number(after.get(orgC)!.amortized)).toBeCloseTo(exactSum(expectedReplaced), 6);
      expect(after.get(orgD)).toEqual(totals.get(orgD)); // the other organisation is untouched
    } finally {
      await app?.close();
    }
  }, 240_000);

  it('activates tag keys, waiting for the back-fill, and shows them', async () => {
    const org = randomUUID();
    json<DemoLoad>(await cli(['demo-data', '--org', org, '--days', '5', '--seed', '3', '--json']));
    const set = json<{ activated: { kind: string; key: string; state: string }[]; present: { key: string; costShare: number }[] }>(
      await cli(['tag-keys', 'set', '--org', org, '--tag', 'team,env', '--json']),
    );
    expect(set.activated.map((a) => [a.kind, a.key, a.state])).toEqual([
      ['tag', 'env', 'active'],
      ['tag', 'team', 'active'],
    ]);
    expect(set.present.find((key) => key.key === 'team')?.costShare).toBeGreaterThan(0.5);
    const shown = await cli(['tag-keys', 'show', '--org', org]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^tag\s+team\s+active\s/m);
    const cleared = await cli(['tag-keys', 'set', '--org', org]);
    expect(cleared.stdout).toContain(`No activated keys for organisation ${org}`);
  }, 240_000);

  it('warns when an import brings a billing account period another integration already holds (counted twice)', async () => {
    const org = randomUUID();
    const file = join(WORK, 'twice-export.csv');
    writeFileSync(file, TAGGED_FOCUS_CSV);
    // `ingest focus --json` prints the summary indented: parsed whole.
    const summaryOf = async (integration: string) => {
      const result = await cli(['ingest', 'focus', file, '--org', org, '--integration', integration, '--json']);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      return JSON.parse(result.stdout) as { warnings: string[] };
    };
    expect((await summaryOf('exports-cli')).warnings).toEqual([]);
    const twice =
      'billing account 123456789012, period 2026-09, is also imported under integration exports-cli: its costs now count twice.';
    const second = await cli(['ingest', 'focus', file, '--org', org, '--integration', 'exports-folder']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`Warning: ${twice}`);
    // Imported again under its own integration: a restatement, not a duplicate (the other still is).
    expect((await summaryOf('exports-cli')).warnings).toEqual([
      expect.stringContaining('is also imported under integration exports-folder: its costs now count twice.'),
    ]);
  }, 240_000);

  it('defines, previews, lists, shows and deletes a cost category by rules from a JSON file', async () => {
    const org = randomUUID();
    const month = new Date().toISOString().slice(0, 7);
    const export_ = join(WORK, 'categories-export.csv');
    // Both rows on the month's first day: never after today, whatever the day.
    writeFileSync(export_, TAGGED_FOCUS_CSV.replaceAll('2026-09-02T', '2026-09-01T').replaceAll('2026-09-', `${month}-`));
    expect((await cli(['ingest', 'focus', export_, '--org', org, '--json'])).code).toBe(0);
    const file = (name: string, body: object) => {
      const path = join(WORK, name);
      writeFileSync(path, JSON.stringify(body));
      return path;
    };
    const definition = file('team.json', { defaultValue: 'Nobody', rules: [{ inheritTag: 'team' }] });

    const refused = await cli(['cost-categories', 'set', 'Team', file('empty.json', { defaultValue: 'x', rules: [] }), '--org', org]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the definition was refused, nothing was saved');
    expect(refused.stderr).toContain('rules');
    expect((await cli(['cost-categories', 'set', 'Team', join(WORK, 'missing.json'), '--org', org])).stderr).toContain('cannot be read');

    // The export: 8 on a row tagged team=red, 2 on a row without the tag.
    const preview = json<{ values: unknown[]; unallocatedShare: unknown }>(
      await cli(['cost-categories', 'preview', 'Team', definition, '--org', org, '--json']),
    );
    expect(preview.values).toEqual([
      { value: 'red', amortizedCost: 8, rows: 1 },
      { value: 'Nobody', amortizedCost: 2, rows: 1 },
    ]);
    expect(preview.unallocatedShare).toEqual({ before: 1, after: 0.2 });
    expect(json<{ categories: unknown[] }>(await cli(['cost-categories', 'list', '--org', org, '--json'])).categories).toEqual([]);

    const saved = await cli(['cost-categories', 'set', 'Team', definition, '--org', org]);
    expect(saved).toMatchObject({ code: 0, stdout: `Saved Team version 1, in effect from ${month}.\n` });
    expect(json<{ categories: unknown[] }>(await cli(['cost-categories', 'list', '--org', org, '--json'])).categories).toEqual([
      expect.objectContaining({ key: 'Team', version: 1, effectiveFrom: month, defaultValue: 'Nobody', ruleCount: 1 }),
    ]);
    expect((await cli(['cost-categories', 'show', 'Team', '--org', org])).stdout).toMatch(
      new RegExp(`^1\\s+${month}\\s+Nobody\\s+1\\s.*\\scli$`, 'm'),
    );
    const deleted = json<{ versions: Array<{ deleted: boolean }> }>(
      await cli(['cost-categories', 'delete', 'Team', '--org', org, '--json']),
    );
    expect(deleted.versions.map((version) => version.deleted)).toEqual([false, true]);
    expect((await cli(['cost-categories', 'list', '--org', org])).stdout).toContain(
      `No cost category is defined by rules in organisation ${org}.`,
    );
    const unknown = await cli(['cost-categories', 'show', 'Nope', '--org', org]);
    expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({ code: 1, stderr: expect.stringContaining('No cost category "Nope"') });
  }, 240_000);

  it("activates the suggested tag keys at an organisation's first import, unless TAG_KEYS_DEFAULT is false", async () => {
    const file = join(WORK, 'tagged-export.csv');
    writeFileSync(file, TAGGED_FOCUS_CSV);
    const importTagged = async (org: string, tagKeysDefault: string, json = true) => {
      const result = await cli(['ingest', 'focus', file, '--org', org, ...(json ? ['--json'] : [])], {
        ...modeStore(),
        TAG_KEYS_DEFAULT: tagKeysDefault,
      });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      return result.stdout;
    };
    const activatedBy = (stdout: string) => (JSON.parse(stdout) as { rows: number; activatedTagKeys: string[] }).activatedTagKeys;
    const [off, on, text] = [randomUUID(), randomUUID(), randomUUID()];
    expect(activatedBy(await importTagged(off, 'false'))).toEqual([]);
    expect(activatedBy(await importTagged(on, 'true'))).toEqual(['tag:team']);
    expect(activatedBy(await importTagged(on, 'true'))).toEqual([]); // chosen now: nothing more
    expect(await importTagged(text, 'true', false)).toContain('Activated the suggested tag keys tag:team');
    expect((await cli(['tag-keys', 'show', '--org', on])).stdout).toMatch(/^tag\s+team\s+active\s/m);
    expect((await cli(['tag-keys', 'show', '--org', off])).stdout).toContain(`No activated keys for organisation ${off}`);
  }, 240_000);

  onceIn(
    'starts on an empty store with the demo estate and activates its suggested tag keys while serving',
    async () => {
      const store = embeddedStore(join(WORK, 'demo-store'));
      const settings = { ...store, MIGRATE_ON_START: 'true', DEMO_ON_EMPTY_STORE: 'true', TAG_KEYS_DEFAULT: 'true' };
      const api = await spawnBuiltApi(SERVER, childEnv(settings), { stdout: true });
      try {
        await waitForHttp(`${api.url}/docs-json`, api.child, api.output, 180_000);
        const key = /Demo API key[^\n]*\n\n\s+(\S+)/.exec(api.output())?.[1];
        expect(key).toBeDefined();
        const keysIn = (answer: TagKeysAnswer) => ({
          activated: answer.activated.map((a) => `${a.kind}:${a.key}:${a.state}`).sort(),
          suggested: answer.present
            .filter((p) => p.suggested)
            .map((p) => `${p.kind}:${p.key}:active`)
            .sort(),
        });
        for (let waited = 0; ; waited += 500) {
          const response = await request(api.url).get('/v1/admin/tag-keys').set('Authorization', `Bearer ${key}`);
          expect(response.status).toBe(200);
          const seen = keysIn((response.body as { data: TagKeysAnswer }).data);
          if (seen.activated.length > 0 && seen.activated.every((a) => a.endsWith(':active'))) {
            expect(seen.suggested.length).toBeGreaterThan(0);
            expect(seen.activated).toEqual(seen.suggested);
            break;
          }
          if (waited > 180_000) throw new Error(`the demo's keys are not active after 180 s: ${JSON.stringify(seen)}; ${api.output()}`);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        // The demo's incident (Amazon Athena, nine days) lies inside the anomaly scan's default window: `{}` finds it.
        const scan = await request(api.url).post('/v1/cost-insights/anomalies').set('Authorization', `Bearer ${key}`).send({});
        expect(scan.status).toBe(200);
        const athena = (
          scan.body as { data: { anomalies: Array<{ dimension_value: string; start: string; end: string }> } }
        ).data.anomalies.filter((anomaly) => anomaly.dimension_value.includes('Athena'));
        expect(athena.map((anomaly) => (Date.parse(anomaly.end) - Date.parse(anomaly.start)) / 86_400_000 + 1)).toEqual([9]);
      } finally {
        await stopProcess(api.child);
      }
    },
    420_000,
  );

  onceIn(
    'runs keys, ingest, rates and sources commands through a running API that holds the embedded store',
    async () => {
      // A short folder: a Unix socket's path is at most 107 bytes.
      const home = mkdtempSync(join(tmpdir(), 'ci-relay-'));
      const store = embeddedStore(join(home, 'store'));
      const exports = join(home, 'exports');
      const settings = {
        ...store,
        MIGRATE_ON_START: 'true',
        DEMO_ON_EMPTY_STORE: 'false',
        INGEST_FILE_ROOT: exports,
        INGEST_SETTLE_SECONDS: '0',
      };
      const api = await spawnBuiltApi(SERVER, childEnv(settings));
      // The CLI runs in `home` and names files relative to it; the API runs in the repository's folder.
      const relayed = (args: string[]) => runCli(CLI, args, childEnv(store), home);
      const org = randomUUID();
      const dropped = join(exports, org, 'dropped'); // an organisation's sources live in its own folder of the root
      mkdirSync(dropped, { recursive: true });
      try {
        await waitForHttp(`${api.url}/health/ready`, api.child, api.output, 180_000);
        const key = json<CreatedKey>(
          await relayed(['keys', 'create', '--org', org, '--name', 'relayed', '--scopes', 'cost:read', '--json']),
        );
        expect(key).toMatchObject({ organizationId: org, name: 'relayed', scopes: ['cost:read'] });

        writeFileSync(join(home, 'sep.csv'), focusCsv(['1.2345', '3.0005'], '2026-09'));
        const imported = await relayed(['ingest', 'focus', 'sep.csv', '--org', org, '--integration', 'cli-upload', '--json']);
        expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 0, stderr: '' });
        expect(JSON.parse(imported.stdout)).toMatchObject({ rows: 2, billingPeriods: ['2026-09'] });

        writeFileSync(join(home, 'rates.csv'), 'date,from,to,rate\n2026-09-01,USD,EUR,0.9125\n2026-09-02,USD,EUR,0.9137\n');
        expect(await relayed(['rates', 'import', 'rates.csv', '--org', org, '--source', 'treasury'])).toMatchObject({
          code: 0,
          stderr: '',
        });
        const pairs = json<unknown[]>(await relayed(['rates', 'list', '--org', org, '--json']));
        expect(pairs).toEqual([
          { base: 'USD', quote: 'EUR', rates: 2, firstDate: '2026-09-01', lastDate: '2026-09-02', sources: ['treasury'] },
        ]);

        writeFileSync(join(dropped, 'oct.csv'), focusCsv(['10.0001'], '2026-10'));
        const source = json<{ sourceId: string }>(
          await relayed([
            'sources',
            'add',
            '--org',
            org,
            '--integration',
            'dropped',
            '--kind',
            'focus-files',
            '--url',
            `file://${dropped}`,
            '--json',
          ]),
        );
        const run = json<{ checks: Array<{ outcome: string }> }>(
          await relayed(['sources', 'run', source.sourceId, '--org', org, '--json']),
        );
        expect(run.checks.map((check) => check.outcome)).toEqual(['imported']);

        // What the CLI did through the API, read over HTTP: both imports, to the last decimal (1.2345 + 3.0005 + 10.0001).
        const body = {
          filters: { inclusions: { dateRange: { start: '2026-09-01', end: '2026-10-31' } } },
          groupBy: { dateGrouping: 'monthly' },
        };
        const answer = await request(api.url).post('/v1/cost-insights/data').set('Authorization', `Bearer ${key.key}`).send(body);
        expect(answer.status).toBe(200);
        expect(answer.body.data.summary.total_amortized_cost).toBe(14.2351);

        const restore = await relayed(['backup', 'restore', 'any', '--force']);
        expect(restore).toMatchObject({ code: 1, stdout: '' });
        expect(restore.stderr).toContain('does not run while the API serves this store');
      } finally {
        await stopProcess(api.child);
      }
      // The API stopped: the CLI opens the store itself and finds what the relayed commands wrote.
      const keys = json<ListedKey[]>(await relayed(['keys', 'list', '--org', org, '--json']));
      expect(keys.map((listed) => listed.name)).toEqual(['relayed']);
      rmSync(home, { recursive: true, force: true });
    },
    300_000,
  );

  onceIn(
    'refuses a locked embedded data directory with exit code 1 and a clear message, and corrupts nothing',
    async () => {
      const dataDir = join(WORK, 'locked-store');
      const store = embeddedStore(dataDir);
      const org = randomUUID();
      const before = json<CreatedKey>(
        await cli(['keys', 'create', '--org', org, '--name', 'before lock', '--scopes', 'cost:read', '--json'], store),
      );

      // Another process opens the directory, as a running server would, and holds it.
      const holder = spawn(
        process.execPath,
        [
          '-e',
          `const { createClient } = require('@clickhouse/client');
         const { createChdbConnection } = require('chdb/connection');
         const client = createClient({ connection: createChdbConnection({ path: process.argv[1] }) });
         client.command({ query: 'SELECT 1' }).then(() => process.stdout.write('READY\\n'));
         setInterval(() => {}, 1000);`,
          dataDir,
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        await new Promise<void>((ready, fail) => {
          holder.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('READY') && ready());
          holder.once('exit', (code) => fail(new Error(`lock holder exited with ${code}`)));
        });
        for (const args of [
          ['migrate'],
          ['keys', 'create', '--org', org, '--name', 'during lock', '--scopes', 'cost:read', '--json'],
          ['keys', 'list', '--org', org],
          ['demo-data', '--org', org, '--days', '2'],
        ]) {
          const result = await cli(args, store);
          expect({ args, code: result.code }).toEqual({ args, code: 1 });
          expect(result.stdout).toBe('');
          expect(result.stderr).toMatch(LOCK_MESSAGE);
          expect(result.stderr).toContain(dataDir);
        }
      } finally {
        await stopProcess(holder);
      }

      // Released: the store opens, holds what was written before and nothing from the refused runs.
      expect(await cli(['migrate'], store)).toMatchObject({ code: 0, stdout: expect.stringContaining('up to date') });
      const keys = json<ListedKey[]>(await cli(['keys', 'list', '--org', org, '--json'], store));
      expect(keys.map((k) => k.id)).toEqual([before.id]);
    },
    240_000,
  );
});
