// modes: embedded server cluster — the publish protocol, killed
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { keepRecoveringImports } from '../../src/startup';
import { startAppWithEnv } from '../support/app-with-env';
import { toScaled } from '../support/decimals';
import { LocalServer, startClickhouseServer } from '../support/local-servers';
import { BUILT } from '../support/built-dist';
import { CliRun, runCli } from '../support/cli-run';
import { TestApp } from '../support/test-app';
import { childEnv as builtChildEnv, readStoreInChild, withBuiltApi } from '../support/built-app';
import { LocalCluster, startClickhouseCluster } from '../support/clickhouse-cluster';
import { E2E_MODE, SHARED_SERVERS } from '../support/e2e-mode';
import { StoreTable } from '../../src/store/schema/store-tables';

/**
 * Crash safety of a multi-period FOCUS import (issue 3: "an import that fails at any point leaves the
 * previously visible data exactly as it was"). The compiled CLI runs in a child process, and the
 * test-only INGEST_FAULT_AFTER_SWAPS / INGEST_FAULT_AFTER_RESTORES (src/store/publish/fault-injection.ts) make
 * it SIGKILL itself between two partition swaps / two partition restores. Recovery (`ingest recover`,
 * or the next import) must then bring every API answer back exactly as it was before the crash, and
 * a normal re-import must converge to the new data.
 *
 * The store is this file's own: an embedded chDB directory (the HTTP API is then the built server,
 * started on it between CLI runs), in server mode a private ClickHouse server, in cluster mode a private
 * 2 × 2 cluster, with the API in-process: on the suite's shared servers, other files' imports would run
 * recovery in the middle of this test's steps. On the cluster every partition is swapped (and restored)
 * by both replicas of its shard, one after the other: a fault after N partitions is after 2N steps.
 */
const MODE = E2E_MODE;
/** Swaps (and restores) per partition: each replica of its shard does its own on a cluster. */
const STEPS_PER_PARTITION = MODE === 'cluster' ? 2 : 1;
const afterPartitions = (partitions: number) => String(partitions * STEPS_PER_PARTITION);
const ROOT = resolve(__dirname, '../..');
const WORK = join(process.env.E2E_TMP_DIR ?? join(ROOT, '.test-tmp'), `crash-recovery-${process.env.JEST_WORKER_ID ?? '1'}`);
/** A private build: the CLI's migrations path is relative to it, hence the `clickhouse` link beside it. */
const { dist: DIST, cli: CLI, server: SERVER } = BUILT;
const DATABASE = process.env.CLICKHOUSE_DATABASE ?? 'cost_insights_test';
const INTEGRATION = 'crash-test';

type Env = Record<string, string>;
type Agent = ReturnType<typeof request>;

// ------------------------------------------------------------------ FOCUS files with known sums

interface Charge {
  period: string; // yyyy-MM
  day: number;
  service: string;
  billed: string;
  effective: string;
  list: string;
}

/** Distinct exact decimals (10 places) per `k`. */
const decimal = (k: number) => `${(k * 7919) % 1000}.${String((k * 104729) % 9999999999).padStart(10, '0')}`;

/** Nine charges per billing period; `version` gives each export its own amounts. */
function charges(periods: string[], version: number): Charge[] {
  const result: Charge[] = [];
  for (const period of periods) {
    for (const service of ['Amazon EC2', 'Amazon S3', 'AWS Lambda']) {
      for (const day of [1, 12, 28]) {
        const k = version * 1000 + result.length * 3;
        result.push({ period, day, service, billed: decimal(k), effective: decimal(k + 1), list: decimal(k + 2) });
      }
    }
  }
  return result;
}

function writeFocusCsv(path: string, rows: Charge[]): string {
  const header =
    'BilledCost,EffectiveCost,ListCost,ChargeCategory,ChargePeriodStart,BillingPeriodStart,BillingAccountId,ServiceName,ProviderName,BillingCurrency,Tags';
  const lines = rows.map((c) =>
    [
      c.billed,
      c.effective,
      c.list,
      'Usage',
      `${c.period}-${String(c.day).padStart(2, '0')}T00:00:00Z`,
      `${c.period}-01T00:00:00Z`,
      '123456789012',
      c.service,
      'AWS',
      'USD',
      // A team tag on two services: the answers by tag come from the tag projections (migration 0015).
      c.service === 'AWS Lambda' ? '' : `"{""team"":""${c.service === 'Amazon EC2' ? 'compute' : 'storage'}""}"`,
    ].join(','),
  );
  writeFileSync(path, `${header}\n${lines.join('\n')}\n`);
  return path;
}

/** `integration|period` → rows and exact Σ BilledCost (units of 1e-10), as imports of `exports` must leave them. */
function expectedTotals(exports: [integration: string, rows: Charge[]][]): Record<string, { rows: number; billed: string }> {
  const totals: Record<string, { rows: number; billed: bigint }> = {};
  for (const [integration, rows] of exports) {
    for (const row of rows) {
      const total = (totals[`${integration}|${row.period}`] ??= { rows: 0, billed: 0n });
      total.rows += 1;
      total.billed += toScaled(row.billed);
    }
  }
  return Object.fromEntries(Object.entries(totals).map(([key, t]) => [key, { rows: t.rows, billed: t.billed.toString() }]));
}

const OLD = charges(['2024-08', '2024-09'], 1);
/** Its first billing period is new: rolling back must make it vanish again, not keep it. */
const NEW = charges(['2024-07', '2024-08', '2024-09'], 2);
const BYSTANDER = charges(['2024-08'], 3);
const LATER = charges(['2024-10'], 4);
const newPeriod = (period: string) => NEW.filter((c) => c.period === period);
const oldPeriod = (period: string) => OLD.filter((c) => c.period === period);

// ------------------------------------------------------------------ what the API shows

const RANGE = { start: '2024-07-01', end: '2024-09-30' };
/** Answers that together show every sum of the organisation's July–September. */
const SNAPSHOT_REQUESTS: [path: string, body: object][] = [
  [
    'data',
    {
      filters: { inclusions: { dateRange: RANGE } },
      groupBy: { dateGrouping: 'monthly', dimensions: ['integration', 'billingPeriod', 'service'] },
    },
  ],
  ['data', { filters: { inclusions: { dateRange: RANGE } }, groupBy: { dateGrouping: 'daily' } }],
  [
    'data',
    { filters: { inclusions: { dateRange: RANGE } }, groupBy: { dateGrouping: 'monthly', dimensions: ['tag:team', 'integration'] } },
  ],
  ['filters', { filters: { inclusions: { dateRange: RANGE } } }],
  [
    'compare',
    {
      baselinePeriod: { start: '2024-07-01', end: '2024-08-31' },
      comparisonPeriod: { start: '2024-09-01', end: '2024-09-30' },
      metric: 'amortized_cost',
      groupBy: { dateGrouping: 'monthly', dimension: 'integration' },
    },
  ],
];

async function apiSnapshot(http: () => Agent, key: string): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const [path, body] of SNAPSHOT_REQUESTS) {
    // Freshly computed: the answer cache may serve a previous answer for up to RESULT_CACHE_VERSION_CHECK_MS after a write by another process.
    const response = await http()
      .post(`/v1/cost-insights/${path}`)
      .set('Authorization', `Bearer ${key}`)
      .set('Cache-Control', 'no-cache')
      .send(body);
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    // The sums of the range only: /filters' freshness fields tell of the whole organisation (later imports too).
    if (path === 'filters')
      answers.push({ ...response.body, data: { ...response.body.data, dataThrough: undefined, dataImportedAt: undefined } });
    else answers.push(response.body);
  }
  return answers;
}

/** Σ billed per `integration|period` as /data reports it, for the same comparison as the store's. */
function billedByPeriod(snapshot: unknown[]): Record<string, number> {
  const items = (snapshot[0] as { data: { items: { dimension_values: Record<string, string>; billed_cost: number }[] } }).data.items;
  return Object.fromEntries(
    items.reduce((map, item) => {
      const key = `${item.dimension_values.integration}|${item.dimension_values.billingPeriod}`;
      return map.set(key, (map.get(key) ?? 0) + item.billed_cost);
    }, new Map<string, number>()),
  );
}

// ------------------------------------------------------------------ the store, the CLI and the API

let app: TestApp | undefined;
let clickhouseServer: LocalServer | undefined;
let clickhouseCluster: LocalCluster | undefined;
let store: Env;

function childEnv(extra: Env = {}): NodeJS.ProcessEnv {
  return builtChildEnv({ ...store, ...extra }, [
    'CLICKHOUSE_URL',
    'REDIS_URL',
    'DATA_DIR',
    'PORT',
    'INGEST_FAULT_AFTER_SWAPS',
    'INGEST_FAULT_AFTER_RESTORES',
    'INGEST_FAULT_AFTER_PUBLISHES',
  ]);
}

function cli(args: string[], extraEnv: Env = {}): Promise<CliRun> {
  return runCli(CLI, args, childEnv(extraEnv));
}

function json<T>(run: CliRun): T {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as T;
}

/** Killed by its injected fault: SIGKILL, nothing printed, no cleanup ran. */
function expectKilled(run: CliRun): void {
  expect({ code: run.code, signal: run.signal, stdout: run.stdout }).toEqual({ code: null, signal: 'SIGKILL', stdout: '' });
}

/** A table as the service reads it (through its Distributed table on a cluster). */
const table = (name: StoreTable) => (app ? app.clickhouse.table(name) : `${DATABASE}.${name}`);

/** A query straight on the store (not through the API): in process on a server; embedded, in a child once the CLI has exited. */
async function storeQuery<T>(sql: string, params: Record<string, unknown> = {}): Promise<T[]> {
  if (app) return app.clickhouse.query<T>(sql, params);
  return readStoreInChild(childEnv(), [{ sql, params }])[0] as T[];
}

type Totals = Record<string, { rows: number; billed: string }>;

const TOTALS_SQL = (from: string) =>
  `SELECT integration_id AS integration, billing_period AS period, toUInt32(count()) AS row_count, toString(sum(billed_cost)) AS billed
   FROM ${from} WHERE organization_id = {org:UUID} GROUP BY integration_id, billing_period`;

function readTotals(rows: { integration: string; period: string; row_count: number; billed: string }[]): Totals {
  return Object.fromEntries(
    rows.map((r) => [`${r.integration}|${r.period}`, { rows: Number(r.row_count), billed: toScaled(r.billed).toString() }]),
  );
}

/**
 * Rows and exact Σ billed_cost per `integration|period` of one organisation, in the store. On a cluster read
 * on every node (each its own rows), so a difference between the replicas of a shard shows instead of
 * depending on which replica a read happens to reach: they must hold the same rows.
 */
async function storeTotals(organizationId: string): Promise<Totals> {
  if (!app?.clickhouse.cluster) return readTotals(await storeQuery(TOTALS_SQL(table('cost_line_items')), { org: organizationId }));
  const byShard = new Map<number, Totals>();
  for (const node of (await app.clickhouse.cluster.nodes()).reachable) {
    const totals = readTotals(await node.connection.query(TOTALS_SQL(node.connection.table('cost_line_items')), { org: organizationId }));
    if (byShard.has(node.shard)) expect({ node: node.id, totals }).toEqual({ node: node.id, totals: byShard.get(node.shard) });
    else byShard.set(node.shard, totals);
  }
  return Object.assign({}, ...byShard.values()) as Totals;
}

async function journal(
  organizationId: string,
): Promise<{ import_id: string; state_text: string; partitions: number; backed_up: number }[]> {
  return storeQuery(
    `SELECT import_id, toString(state) AS state_text, toUInt32(length(partition_ids)) AS partitions,
            toUInt32(length(backed_up_partition_ids)) AS backed_up
     FROM ${table('import_journal')} FINAL WHERE organization_id = {org:UUID} ORDER BY import_id`,
    { org: organizationId },
  );
}

/** Each node's own totals of the organisation (cluster mode). */
async function nodeTotals(organizationId: string): Promise<Record<string, Totals>> {
  const totals: Record<string, Totals> = {};
  for (const node of (await app!.clickhouse.cluster!.nodes()).reachable) {
    totals[node.id] = readTotals(
      await node.connection.query(TOTALS_SQL(node.connection.table('cost_line_items')), { org: organizationId }),
    );
  }
  return totals;
}

/** The import tables on the store (on a cluster: on any node; an interrupted import left one on each). */
async function importTables(): Promise<string[]> {
  const sql = `SELECT name FROM system.tables WHERE database = {database:String} AND startsWith(name, 'focus_import_') ORDER BY name`;
  if (!app?.clickhouse.cluster) return (await storeQuery<{ name: string }>(sql, { database: DATABASE })).map((row) => row.name);
  const names = new Set<string>();
  for (const node of await app.nodes())
    (await node.query<{ name: string }>(sql, { database: DATABASE })).forEach((row) => names.add(row.name));
  return [...names].sort();
}

/** What an import killed while publishing leaves: its staging table and backup (and, on a cluster, the Distributed staging table). */
const interruptedImportTables = (importId: string) =>
  MODE === 'cluster' ? [importId, `${importId}_backup`, `${importId}_distributed`] : [importId, `${importId}_backup`];

const LACKING_PROJECTIONS_SQL = `SELECT toUInt32(count()) AS parts FROM system.parts
  WHERE database = {database:String} AND table = 'cost_line_items' AND active AND rows > 0 AND startsWith(partition, {prefix:String})
    AND length(projections) < (SELECT count() FROM system.projections WHERE database = {database:String} AND table = 'cost_line_items')`;

/** The organisation's active parts that lack one of the cost table's projections (on a cluster: on every node). */
async function partsLackingProjections(organizationId: string): Promise<number> {
  const params = { database: DATABASE, prefix: `('${organizationId}'` };
  if (!app?.clickhouse.cluster) return Number((await storeQuery<{ parts: number }>(LACKING_PROJECTIONS_SQL, params))[0].parts);
  let parts = 0;
  for (const node of await app.nodes()) parts += Number((await node.query<{ parts: number }>(LACKING_PROJECTIONS_SQL, params))[0].parts);
  return parts;
}

/**
 * Server mode: ten minutes pass for the journal. A live lease protects an import that may still be
 * running in another process; recovery only takes over once it has expired.
 */
async function expireLease(importId: string): Promise<void> {
  const journalTable = table('import_journal');
  await app!.clickhouse.command(
    `INSERT INTO ${journalTable} SELECT * REPLACE (now64(3) - toIntervalSecond(1) AS lease_expires_at, now64(6) AS updated_at)
     FROM ${journalTable} FINAL WHERE import_id = {import_id:String}`,
    { import_id: importId },
  );
}

/** The HTTP API on the store: in-process on a server, the built server when embedded (after the CLI exited). */
async function withApi<T>(run: (http: () => Agent) => Promise<T>): Promise<T> {
  if (app) return run(() => app!.http);
  return withBuiltApi(SERVER, childEnv({ MIGRATE_ON_START: 'true', DEMO_ON_EMPTY_STORE: 'false' }), { ready: '/docs-json' }, run);
}

/**
 * The data-source worker (`npm run worker`, compiled) on the store until it dies, or until its output shows `until`
 * (then stopped with SIGTERM, after its check in progress).
 */
async function runWorker(settings: Env, extra: Env = {}, until?: string): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const worker = spawn(process.execPath, [join(DIST, 'worker.js')], {
    cwd: ROOT,
    env: childEnv({ ...settings, ...extra }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (until && output.includes(until)) worker.kill('SIGTERM');
  };
  worker.stdout!.on('data', collect);
  worker.stderr!.on('data', collect);
  const timer = setTimeout(() => worker.kill('SIGKILL'), 120_000);
  const [code, signal] = (await once(worker, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  if (until && !output.includes(until)) throw new Error(`the worker ended (${code ?? signal}) before "${until}":\n${output}`);
  return { code, signal };
}

async function newOrganization(): Promise<{ organizationId: string; key: string }> {
  const organizationId = randomUUID();
  const created = json<{ key: string }>(
    await cli(['keys', 'create', '--org', organizationId, '--name', 'crash test', '--scopes', 'cost:read', '--json']),
  );
  return { organizationId, key: created.key };
}

const importArgs = (file: string, organizationId: string, integration = INTEGRATION) => [
  'ingest',
  'focus',
  file,
  '--org',
  organizationId,
  '--integration',
  integration,
  '--json',
];

// ------------------------------------------------------------------ the tests

describe(`FOCUS import killed while publishing (${MODE})`, () => {
  const files: Record<string, string> = {};

  beforeAll(async () => {
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    files.old = writeFocusCsv(join(WORK, 'old.csv'), OLD);
    files.new = writeFocusCsv(join(WORK, 'new.csv'), NEW);
    files.bystander = writeFocusCsv(join(WORK, 'bystander.csv'), BYSTANDER);
    files.later = writeFocusCsv(join(WORK, 'later.csv'), LATER);
    if (MODE === 'server') {
      clickhouseServer = await startClickhouseServer(join(WORK, 'clickhouse-server'));
      store = { CLICKHOUSE_URL: clickhouseServer.url, CLICKHOUSE_DATABASE: DATABASE };
      app = await startAppWithEnv({ CLICKHOUSE_URL: clickhouseServer.url });
    } else if (MODE === 'cluster') {
      clickhouseCluster = await startClickhouseCluster(join(WORK, 'clickhouse-cluster'));
      store = { ...clickhouseCluster.settings, CLICKHOUSE_DATABASE: DATABASE };
      app = await startAppWithEnv(clickhouseCluster.settings);
    } else {
      store = { DATA_DIR: join(WORK, 'store'), CLICKHOUSE_DATABASE: DATABASE };
    }
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await clickhouseServer?.stop();
    await clickhouseCluster?.stop();
    rmSync(WORK, { recursive: true, force: true });
  });

  it('rolls back an import killed between two partition swaps, also when recovery itself is killed; a re-import converges', async () => {
    const org = await newOrganization();
    json(await cli(importArgs(files.bystander, org.organizationId, 'bystander')));
    json(await cli(importArgs(files.old, org.organizationId)));
    const before = expectedTotals([
      ['bystander', BYSTANDER],
      [INTEGRATION, OLD],
    ]);
    expect(await storeTotals(org.organizationId)).toEqual(before);
    const beforeCrash = await withApi((http) => apiSnapshot(http, org.key));
    expect(Object.keys(billedByPeriod(beforeCrash)).sort()).toEqual(Object.keys(before).sort());
    const committed = await journal(org.organizationId);
    expect(committed.map((entry) => entry.state_text)).toEqual(['committed', 'committed']);

    // Killed right after the 2nd of 3 swaps (they run in billing-period order): July and August are
    // new, September still old. July did not exist before the import.
    expectKilled(await cli(importArgs(files.new, org.organizationId), { INGEST_FAULT_AFTER_SWAPS: afterPartitions(2) }));
    const mixed = expectedTotals([
      ['bystander', BYSTANDER],
      [INTEGRATION, [...newPeriod('2024-07'), ...newPeriod('2024-08'), ...oldPeriod('2024-09')]],
    ]);
    expect(await storeTotals(org.organizationId)).toEqual(mixed);
    const crashed = (await journal(org.organizationId)).at(-1)!;
    expect(await journal(org.organizationId)).toEqual([...committed, crashed]);
    expect(crashed).toMatchObject({ state_text: 'swapping', partitions: 3, backed_up: 2 });
    expect(await importTables()).toEqual(interruptedImportTables(crashed.import_id));

    if (SHARED_SERVERS) {
      // The API shows the mix until recovery runs; recovery leaves an import alone while its lease is valid.
      expect(await withApi((http) => apiSnapshot(http, org.key))).not.toEqual(beforeCrash);
      const early = json<{ rolledBack: unknown[]; leftRunning: { importId: string }[] }>(await cli(['ingest', 'recover', '--json']));
      expect(early).toEqual({ rolledBack: [], leftRunning: [expect.objectContaining({ importId: crashed.import_id, partitions: 3 })] });
      expect(await storeTotals(org.organizationId)).toEqual(mixed);
      await expireLease(crashed.import_id);
    }

    // Recovery killed after restoring its first partition (July dropped): still 'swapping', so the next one finishes it.
    expectKilled(await cli(['ingest', 'recover'], { INGEST_FAULT_AFTER_RESTORES: afterPartitions(1) }));
    expect((await journal(org.organizationId)).at(-1)).toEqual(crashed);
    expect(await storeTotals(org.organizationId)).toEqual(
      expectedTotals([
        ['bystander', BYSTANDER],
        [INTEGRATION, [...newPeriod('2024-08'), ...oldPeriod('2024-09')]],
      ]),
    );

    const recovered = await cli(['ingest', 'recover']);
    expect(recovered).toMatchObject({ code: 0, stderr: '' });
    expect(recovered.stdout).toContain(
      `Rolled back ${crashed.import_id} (organisation ${org.organizationId}, ${INTEGRATION}, 3 partition(s))`,
    );
    expect(await storeTotals(org.organizationId)).toEqual(before);
    expect(await journal(org.organizationId)).toEqual([...committed, { ...crashed, state_text: 'rolled_back' }]);
    expect(await importTables()).toEqual([]);
    expect(await withApi((http) => apiSnapshot(http, org.key))).toEqual(beforeCrash);
    expect(json(await cli(['ingest', 'recover', '--json']))).toEqual({ rolledBack: [], leftRunning: [] });

    // The same import without a fault publishes all three periods.
    const summary = json<{ billingPeriods: string[]; rolledBackImports: string[] }>(await cli(importArgs(files.new, org.organizationId)));
    expect(summary).toMatchObject({ billingPeriods: ['2024-07', '2024-08', '2024-09'], rolledBackImports: [] });
    const after = expectedTotals([
      ['bystander', BYSTANDER],
      [INTEGRATION, NEW],
    ]);
    expect(await storeTotals(org.organizationId)).toEqual(after);
    const converged = await withApi((http) => apiSnapshot(http, org.key));
    const apiBilled = billedByPeriod(converged);
    expect(Object.keys(apiBilled).sort()).toEqual(Object.keys(after).sort());
    for (const [key, total] of Object.entries(after)) expect(apiBilled[key]).toBeCloseTo(Number(total.billed) / 1e10, 6);
    expect((await journal(org.organizationId)).map((entry) => entry.state_text)).toEqual([
      'committed',
      'committed',
      'rolled_back',
      'committed',
    ]);
    expect(await importTables()).toEqual([]);
  }, 300_000);

  it('the next import first rolls back an import killed while publishing', async () => {
    const org = await newOrganization();
    json(await cli(importArgs(files.old, org.organizationId)));
    const before = expectedTotals([[INTEGRATION, OLD]]);
    const beforeCrash = await withApi((http) => apiSnapshot(http, org.key));

    expectKilled(await cli(importArgs(files.new, org.organizationId), { INGEST_FAULT_AFTER_SWAPS: afterPartitions(1) }));
    expect(await storeTotals(org.organizationId)).toEqual(expectedTotals([[INTEGRATION, [...newPeriod('2024-07'), ...OLD]]]));
    const crashed = (await journal(org.organizationId)).at(-1)!;
    expect(crashed.state_text).toBe('swapping');
    if (SHARED_SERVERS) await expireLease(crashed.import_id);

    // An import of another integration and period: it starts by recovery, then publishes only its own.
    const summary = json<{ rolledBackImports: string[] }>(await cli(importArgs(files.later, org.organizationId, 'later')));
    expect(summary.rolledBackImports).toEqual([crashed.import_id]);
    expect(await storeTotals(org.organizationId)).toEqual({ ...before, ...expectedTotals([['later', LATER]]) });
    expect(await withApi((http) => apiSnapshot(http, org.key))).toEqual(beforeCrash);
    expect((await importTables()).filter((name) => name.startsWith(crashed.import_id))).toEqual([]);
  }, 300_000);

  it('a data-source worker killed while publishing a restatement: restarted, it rolls back, reports the totals readers saw, publishes once', async () => {
    const org = await newOrganization();
    const folder = join(WORK, `source-${org.organizationId}`);
    mkdirSync(folder, { recursive: true });
    writeFocusCsv(join(folder, 'export.csv'), OLD);
    const sourceEnv = { INGEST_SETTLE_SECONDS: '0', INGEST_POLL_SECONDS: '1' };
    const { sourceId } = json<{ sourceId: string }>(
      await cli([
        'sources',
        'add',
        '--org',
        org.organizationId,
        '--integration',
        INTEGRATION,
        '--kind',
        'focus-files',
        '--url',
        `file://${folder}`,
        '--json',
      ]),
    );
    const first = json<{ checks: { outcome: string }[] }>(
      await cli(['sources', 'run', sourceId, '--org', org.organizationId, '--json'], sourceEnv),
    );
    expect(first.checks.map((check) => check.outcome)).toEqual(['imported']);
    const before = expectedTotals([[INTEGRATION, OLD]]);
    expect(await storeTotals(org.organizationId)).toEqual(before);

    // The export is restated (three periods); the worker dies right after the second partition swap.
    writeFocusCsv(join(folder, 'export.csv'), NEW);
    const killed = await runWorker(sourceEnv, { INGEST_FAULT_AFTER_SWAPS: afterPartitions(2) });
    expect(killed.signal).toBe('SIGKILL');
    expect(await storeTotals(org.organizationId)).toEqual(
      expectedTotals([[INTEGRATION, [...newPeriod('2024-07'), ...newPeriod('2024-08'), ...oldPeriod('2024-09')]]]),
    );
    const crashed = (await journal(org.organizationId)).at(-1)!;
    expect(crashed.state_text).toBe('swapping');
    if (SHARED_SERVERS) await expireLease(crashed.import_id);

    const restarted = await runWorker(sourceEnv, {}, `imported all files`);
    expect(restarted.signal === 'SIGTERM' || restarted.code === 0).toBe(true);
    expect(await storeTotals(org.organizationId)).toEqual(expectedTotals([[INTEGRATION, NEW]]));
    expect((await journal(org.organizationId)).slice(-2).map((entry) => [entry.import_id, entry.state_text])).toEqual([
      [crashed.import_id, 'rolled_back'],
      [expect.any(String), 'committed'],
    ]);
    const imports = await storeQuery<{ changes: string }>(
      `SELECT changes FROM ${table('ingest_source_checks')} WHERE organization_id = {org:UUID} AND outcome = 'imported' ORDER BY checked_at`,
      { org: org.organizationId },
    );
    expect(imports).toHaveLength(2);
    // Before → after per period: what readers saw before the restatement (not the half-published mix), then the new data.
    const changes = (JSON.parse(imports[1].changes) as { billingPeriod: string; billedBefore: string; billedAfter: string }[]).map((c) => [
      c.billingPeriod,
      toScaled(c.billedBefore).toString(),
      toScaled(c.billedAfter).toString(),
    ]);
    const billed = (rows: Charge[], period: string) => expectedTotals([[INTEGRATION, rows]])[`${INTEGRATION}|${period}`]?.billed ?? '0';
    expect(changes).toEqual(['2024-07', '2024-08', '2024-09'].map((period) => [period, billed(OLD, period), billed(NEW, period)]));
  }, 300_000);

  it('an import killed after publishing, before its projections were built: answered from its rows, completed by the worker', async () => {
    const org = await newOrganization();
    expectKilled(await cli(importArgs(files.new, org.organizationId), { INGEST_FAULT_AFTER_PUBLISHES: '1' }));
    const published = expectedTotals([[INTEGRATION, NEW]]);
    expect(await storeTotals(org.organizationId)).toEqual(published);
    expect((await journal(org.organizationId)).map((entry) => entry.state_text)).toEqual(['committed']);
    expect(await partsLackingProjections(org.organizationId)).toBeGreaterThan(0);
    const fromRows = await withApi((http) => apiSnapshot(http, org.key));
    expect(Object.keys(billedByPeriod(fromRows)).sort()).toEqual(Object.keys(published).sort());

    const worker = await runWorker({ INGEST_POLL_SECONDS: '1' }, {}, 'built the projections of');
    expect(worker.signal === 'SIGTERM' || worker.code === 0).toBe(true);
    expect(await partsLackingProjections(org.organizationId)).toBe(0);
    expect(await storeTotals(org.organizationId)).toEqual(published);
    expect(await withApi((http) => apiSnapshot(http, org.key))).toEqual(fromRows);
  }, 300_000);

  const clusterOnly = MODE === 'cluster' ? it : it.skip;
  clusterOnly(
    'rolls back an import killed between the two replicas of one partition: the replicas differed, then each is as before',
    async () => {
      const org = await newOrganization();
      json(await cli(importArgs(files.old, org.organizationId)));
      const before = await storeTotals(org.organizationId);
      const beforeCrash = await withApi((http) => apiSnapshot(http, org.key));
      // July on both replicas of its shard, August on the first only.
      expectKilled(await cli(importArgs(files.new, org.organizationId), { INGEST_FAULT_AFTER_SWAPS: '3' }));
      const crashed = (await journal(org.organizationId)).at(-1)!;
      expect(crashed.state_text).toBe('swapping');
      const august = `${INTEGRATION}|2024-08`;
      const holders = Object.entries(await nodeTotals(org.organizationId)).filter(([, totals]) => totals[august]);
      expect(holders.map(([, totals]) => totals[august].billed).sort()).toEqual(
        [expectedTotals([[INTEGRATION, newPeriod('2024-08')]]), expectedTotals([[INTEGRATION, oldPeriod('2024-08')]])]
          .map((totals) => totals[august].billed)
          .sort(),
      );

      await expireLease(crashed.import_id);
      expect(json<{ rolledBack: { importId: string }[] }>(await cli(['ingest', 'recover', '--json'])).rolledBack).toEqual([
        expect.objectContaining({ importId: crashed.import_id, partitions: 3 }),
      ]);
      expect(await storeTotals(org.organizationId)).toEqual(before);
      expect(await withApi((http) => apiSnapshot(http, org.key))).toEqual(beforeCrash);
      expect(await importTables()).toEqual([]);
    },
    300_000,
  );

  const serverOnly = SHARED_SERVERS ? it : it.skip;
  serverOnly(
    'an API instance rolls a dead import back by itself once its lease has expired (IMPORT_RECOVERY_INTERVAL_SECONDS)',
    async () => {
      const org = await newOrganization();
      json(await cli(importArgs(files.old, org.organizationId)));
      const beforeCrash = await withApi((http) => apiSnapshot(http, org.key));
      expectKilled(await cli(importArgs(files.new, org.organizationId), { INGEST_FAULT_AFTER_SWAPS: afterPartitions(1) }));
      const crashed = (await journal(org.organizationId)).at(-1)!;
      expect(crashed.state_text).toBe('swapping');

      const instance = await startAppWithEnv({ ...store, IMPORT_RECOVERY_INTERVAL_SECONDS: '1' });
      const stop = keepRecoveringImports(instance.app);
      try {
        // Within its lease the import is presumed alive: the instance leaves it alone.
        await new Promise((resolve) => setTimeout(resolve, 2500));
        expect((await journal(org.organizationId)).at(-1)!.state_text).toBe('swapping');
        await expireLease(crashed.import_id);
        const deadline = Date.now() + 20_000;
        while ((await journal(org.organizationId)).at(-1)!.state_text !== 'rolled_back') {
          if (Date.now() > deadline) throw new Error('the instance did not roll the import back');
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      } finally {
        stop();
        await instance.close();
      }
      expect(await withApi((http) => apiSnapshot(http, org.key))).toEqual(beforeCrash);
    },
    300_000,
  );
});
