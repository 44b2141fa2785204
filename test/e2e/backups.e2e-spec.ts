// modes: embedded server cluster — backups and restores of every topology
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { E2E_MODE, SHARED_SERVERS } from '../support/e2e-mode';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { LocalServer, startRedisServer, startS3Server, stopProcess } from '../support/local-servers';
import { BUILT } from '../support/built-dist';
import { CliRun, runCli } from '../support/cli-run';
import { itWithTools } from '../support/system-tools';
import { childEnv as storeChildEnv, readStoreInChild, spawnBuiltApi, waitForHttp, withBuiltApi } from '../support/built-app';
import { SCOPES } from '../../src/common/http/principal';

/**
 * Backups (issue 33): `backup create|list|restore` run as the operator runs them (the built CLI, child processes) in
 * every mode, and the API (the built server) answers every read endpoint byte for byte as before once a backup is
 * restored onto an empty store. Refusals: a store that is not empty, an unknown or incomplete backup, a corrupt file,
 * a folder that cannot be written. The fence: an import publishing while a backup starts is wholly in it; one that
 * would publish while a backup runs waits and is not in it. A restore killed mid-way leaves the store refused.
 */
const ROOT = resolve(__dirname, '../..');
const WORK = join(process.env.E2E_TMP_DIR ?? join(ROOT, '.test-tmp'), `backups-e2e-${process.env.JEST_WORKER_ID ?? '1'}`);
const { cli: CLI, server: SERVER } = BUILT;
const BACKUP_DIR = process.env.BACKUP_DIR!;
const RUN = randomUUID().slice(0, 8);

type Env = Record<string, string>;
type Agent = ReturnType<typeof request>;

let redis: LocalServer | undefined;

/** A store of its own: an embedded directory, or a database of the suite's server or cluster. */
function newStore(label: string): Env {
  const database = `backups_${label}_${RUN}`;
  if (!SHARED_SERVERS) return { DATA_DIR: join(WORK, `store-${label}`), CLICKHOUSE_DATABASE: database };
  const store: Env = { CLICKHOUSE_URL: process.env.CLICKHOUSE_URL!, CLICKHOUSE_DATABASE: database };
  for (const name of ['CLICKHOUSE_CLUSTER', 'CLICKHOUSE_CLUSTER_NODE_URLS']) if (process.env[name]) store[name] = process.env[name];
  return store;
}

function childEnv(store: Env, extra: Env = {}): NodeJS.ProcessEnv {
  // The shared filters' Redis of this file's own (a restore rewrites its keys: never another file's).
  return storeChildEnv({ BACKUP_DIR, ...(redis ? { REDIS_URL: redis.url } : {}), ...store, ...extra });
}

function cli(store: Env, args: string[], extra: Env = {}): Promise<CliRun> {
  return runCli(CLI, args, childEnv(store, extra));
}

async function ok(run: Promise<CliRun>): Promise<string> {
  const result = await run;
  if (result.code !== 0) throw new Error(`CLI failed (${result.code}): ${result.stderr}${result.stdout}`);
  return result.stdout;
}

const API_SETTINGS: Env = { DEMO_ON_EMPTY_STORE: 'false', INGEST_WORKER: 'false', LOG_LEVEL: 'warn' };
const START_MS = 90_000;

/** Runs the built API on `store` for `work`, then stops it. */
async function withApi<T>(store: Env, work: (http: () => Agent) => Promise<T>, extra: Env = {}): Promise<T> {
  return withBuiltApi(SERVER, childEnv(store, { ...API_SETTINGS, ...extra }), { ready: '/health/ready', timeoutMs: START_MS }, work);
}

// ------------------------------------------------------------------ the questions asked before and after

const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
const RANGE = { start: day(40), end: day(1) };

const QUESTIONS: { name: string; method: 'get' | 'post'; path: string; body?: object; csv?: boolean }[] = [
  {
    name: 'data monthly by cloud',
    method: 'post',
    path: '/v1/cost-insights/data',
    body: { groupBy: { dateGrouping: 'monthly', dimension: 'cloud' } },
  },
  {
    name: 'data daily by service, csv',
    method: 'post',
    path: '/v1/cost-insights/data',
    body: { filters: { inclusions: { dateRange: RANGE } }, groupBy: { dateGrouping: 'daily', dimension: 'service' } },
    csv: true,
  },
  {
    name: 'compare',
    method: 'post',
    path: '/v1/cost-insights/compare',
    body: {
      baselinePeriod: { start: day(40), end: day(21) },
      comparisonPeriod: { start: day(20), end: day(1) },
      metric: 'amortized_cost',
      groupBy: { dateGrouping: 'daily', dimension: 'service' },
    },
  },
  { name: 'filters', method: 'post', path: '/v1/cost-insights/filters', body: { filters: { inclusions: { dateRange: RANGE } } } },
  { name: 'tag values', method: 'post', path: '/v1/cost-insights/tag-values', body: { tagKey: 'team' } },
  {
    name: 'invoices',
    method: 'post',
    path: '/v1/cost-insights/invoices',
    body: { filters: { inclusions: { billingPeriods: [day(1).slice(0, 7)] } } },
  },
  {
    name: 'forecast',
    method: 'post',
    path: '/v1/cost-insights/forecast',
    body: { forecastEnd: day(-20), groupBy: { dimension: 'cloud' } },
  },
  // Every rise (no impact thresholds): anomalies with ids, which a restore keeps (the installation secret is in the backup).
  { name: 'anomalies', method: 'post', path: '/v1/cost-insights/anomalies', body: { minImpact: 0, minImpactPercentage: 0 } },
  { name: 'currency', method: 'get', path: '/v1/admin/currency' },
  { name: 'sources', method: 'get', path: '/v1/admin/sources' },
  { name: 'audit events', method: 'get', path: '/v1/admin/audit-events' },
];

/** What `backup restore --json` prints (the parts this file reads). */
interface RestoreReport {
  rows: Record<string, number>;
  backupsEnded: string[];
}

/** The backups `store`'s fence holds imports for now, as an import reads them (a child process: the store is closed). */
function runningBackupsIn(store: Env): string[] {
  return readStoreInChild(childEnv(store), [{ module: 'store/publish/publish-fence', call: 'runningBackups' }])[0] as string[];
}

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
}

/** Every question's answer; a key's last use (it moves with every request) is taken out of the key list. */
async function answers(http: () => Agent, key: string, filterId: string): Promise<Record<string, Answer>> {
  const result: Record<string, Answer> = {};
  const asked = [...QUESTIONS, { name: 'shared filter', method: 'get' as const, path: `/v1/cost-insights/shared-filters/${filterId}` }];
  for (const question of asked) {
    const call = question.method === 'get' ? http().get(question.path) : http().post(question.path).send(question.body);
    const response = await call
      .set('Authorization', `Bearer ${key}`)
      .set('Cache-Control', 'no-cache')
      .set('Accept', 'csv' in question && question.csv ? 'text/csv' : 'application/json');
    const headers = response.headers as Record<string, string | undefined>;
    result[question.name] = {
      status: response.status,
      headers: { dataThrough: headers['x-data-through'], importedAt: headers['x-data-imported-at'], currency: headers['x-currency'] },
      body: response.text,
    };
  }
  const keys = await http().get('/v1/admin/api-keys').set('Authorization', `Bearer ${key}`);
  const listed: unknown = JSON.parse(keys.text, (name, value: unknown) => (name === 'lastUsedAt' ? undefined : value));
  result['api keys'] = { status: keys.status, headers: {}, body: JSON.stringify(listed) };
  return result;
}

// ------------------------------------------------------------------ an estate

async function createKey(store: Env, organizationId: string): Promise<string> {
  const created = JSON.parse(
    await ok(cli(store, ['keys', 'create', '--org', organizationId, '--name', 'backup test', '--scopes', SCOPES.join(','), '--json'])),
  ) as { key: string };
  return created.key;
}

/** Demo costs, EUR reporting with ECB-style rates, a data source, an admin-made key (an audit event) and a shared filter. */
async function fillEstate(store: Env, organizationId: string): Promise<{ key: string; filterId: string }> {
  await ok(cli(store, ['demo-data', '--org', organizationId, '--days', '45']));
  const rates = join(WORK, `rates-${organizationId}.csv`);
  writeFileSync(
    rates,
    ['date,from,to,rate', ...Array.from({ length: 50 }, (_, i) => `${day(i)},USD,EUR,0.9${i % 10}12`)].join('\n') + '\n',
  );
  await ok(cli(store, ['rates', 'import', rates, '--org', organizationId, '--source', 'test']));
  await ok(cli(store, ['currency', 'set', '--org', organizationId, '--reporting-currency', 'EUR']));
  mkdirSync(join(WORK, 'exports'), { recursive: true });
  await ok(
    cli(store, [
      'sources',
      'add',
      '--org',
      organizationId,
      '--integration',
      'aws-main',
      '--kind',
      'focus-files',
      '--url',
      `file://${join(WORK, 'exports')}`,
    ]),
  );
  const key = await createKey(store, organizationId);
  const filterId = await withApi(store, async (http) => {
    const made = await http()
      .post('/v1/admin/api-keys')
      .set('Authorization', `Bearer ${key}`)
      .send({ name: 'made by the admin API', scopes: ['cost:read'] });
    expect(made.status).toBe(201);
    const shared = await http()
      .post('/v1/cost-insights/shared-filters')
      .set('Authorization', `Bearer ${key}`)
      .send({ organizationId, filterConfiguration: {} });
    expect(shared.status).toBe(201);
    return (JSON.parse(shared.text) as { data: { filterId: string } }).data.filterId;
  });
  return { key, filterId };
}

/** FOCUS charges of two billing periods (two partitions: two swaps) for `org`, with known totals. */
function focusExport(path: string, cents: number): string {
  const header =
    'BilledCost,EffectiveCost,ListCost,ChargeCategory,ChargePeriodStart,BillingPeriodStart,BillingAccountId,ServiceName,ProviderName,BillingCurrency';
  const lines = ['2025-01', '2025-02'].flatMap((period) =>
    [1, 15].map(
      (d) =>
        `${cents}.25,${cents}.25,${cents}.5,Usage,${period}-${String(d).padStart(2, '0')}T00:00:00Z,${period}-01T00:00:00Z,111122223333,Amazon EC2,AWS,USD`,
    ),
  );
  writeFileSync(path, `${header}\n${lines.join('\n')}\n`);
  return path;
}

async function billedTotal(store: Env, key: string): Promise<string> {
  return withApi(store, async (http) => {
    const answer = await http()
      .post('/v1/cost-insights/data')
      .set('Authorization', `Bearer ${key}`)
      .set('Cache-Control', 'no-cache')
      .send({
        filters: { inclusions: { dateRange: { start: '2025-01-01', end: '2025-02-28' } } },
        groupBy: { dateGrouping: 'monthly' },
      });
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.text) as { data: { items: { billed_cost: string | number }[] } };
    return body.data.items.map((item) => String(item.billed_cost)).join(' ');
  });
}

// ------------------------------------------------------------------ the tests

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  if (SHARED_SERVERS) redis = await startRedisServer(join(WORK, 'redis'));
}, 240_000);

afterAll(async () => {
  await redis?.stop();
});

describe(`backups (${E2E_MODE})`, () => {
  const source = newStore('source');
  const organizationId = randomUUID();
  let estate: { key: string; filterId: string };
  let before: Record<string, Answer>;
  const full = `full-${RUN}`;
  const embeddedOnly = SHARED_SERVERS ? it.skip : it;
  const embeddedOnlyWithUnshare = SHARED_SERVERS ? it.skip : itWithTools(['unshare']);

  beforeAll(async () => {
    estate = await fillEstate(source, organizationId);
    before = await withApi(source, (http) => answers(http, estate.key, estate.filterId));
    const created = JSON.parse(await ok(cli(source, ['backup', 'create', '--name', full, '--json']))) as {
      name: string;
      parts: unknown[];
      redisKeys: number;
    };
    expect(created.name).toBe(full);
    expect(created.parts).toHaveLength(E2E_MODE === 'cluster' ? 2 : 1);
    // With Redis the one shared filter is four keys: the filter, the organisation's set and byte count, the key's set.
    expect(created.redisKeys).toBe(SHARED_SERVERS ? 4 : 0);
  }, 600_000);

  it('restores onto an empty store: every endpoint answers byte for byte as before', async () => {
    expect(Object.values(before).every((answer) => answer.status === 200)).toBe(true);
    expect(before['audit events'].body).toContain('made by the admin API');
    expect(before.anomalies.body).toMatch(/"id":"an_[0-9a-f]{24}"/);
    if (redis) await flushRedis(); // shared filters live in Redis here: the restore must bring them back
    const target = newStore('restored');
    const report = JSON.parse(await ok(cli(target, ['backup', 'restore', full, '--json']))) as RestoreReport;
    expect(report.rows.cost_line_items).toBeGreaterThan(0);
    // The backup's own 'running' row is in its copy (its lease not yet expired): ended by the restore, so no import
    // into the restored store waits out that lease.
    expect(report.backupsEnded).toEqual([full]);
    expect(runningBackupsIn(target)).toEqual([]);
    const after = await withApi(target, (http) => answers(http, estate.key, estate.filterId));
    expect(after).toEqual(before);
  }, 600_000);

  it('lists complete and incomplete backups; refuses an unknown or incomplete one by name', async () => {
    mkdirSync(join(BACKUP_DIR, `half-${RUN}`, 'store'), { recursive: true });
    const listed = JSON.parse(await ok(cli(source, ['backup', 'list', '--json']))) as {
      name: string;
      complete: boolean;
      problem?: string;
    }[];
    expect(listed.find((b) => b.name === full)).toMatchObject({ complete: true });
    expect(listed.find((b) => b.name === `half-${RUN}`)).toMatchObject({ complete: false, problem: expect.stringContaining('incomplete') });
    const empty = newStore('refusals');
    const half = await cli(empty, ['backup', 'restore', `half-${RUN}`]);
    expect(half.code).toBe(1);
    expect(half.stderr).toContain(`backup half-${RUN} is not restorable: it is incomplete`);
    const unknown = await cli(empty, ['backup', 'restore', `none-${RUN}`]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no backup named none-${RUN}`);
    expect(unknown.stderr).toContain(full);
    rmSync(join(BACKUP_DIR, `half-${RUN}`), { recursive: true });
  }, 300_000);

  it('refuses to restore onto a store that is not empty, naming what is there, and changes nothing', async () => {
    const refused = await cli(source, ['backup', 'restore', full]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/restore refused, nothing was changed: the store is not empty: .*cost_line_items \(\d+ rows\).*--force/);
    const again = await withApi(source, (http) => answers(http, estate.key, estate.filterId));
    expect(again).toEqual(before);
  }, 300_000);

  it('refuses a tampered manifest.json, naming the field, and changes nothing: no database, table, row or Redis key', async () => {
    const manifest = JSON.parse(readFileSync(join(BACKUP_DIR, full, 'manifest.json'), 'utf8')) as TamperedManifest;
    const { folder } = manifest.parts[0];
    // Each a field the restore puts into SQL, a path or Redis, as an attacker who can write the backups would set it.
    const tamperings: { field: string; tamper: (manifest: TamperedManifest, name: string) => void }[] = [
      {
        field: 'database',
        tamper: (m, name) => (m.database = `${m.database} AS tampered_${RUN} FROM File('${join(BACKUP_DIR, name, folder)}') ASYNC --`),
      },
      { field: 'parts[0].folder', tamper: (m) => (m.parts[0].folder = `../${full}/${folder}`) },
      { field: 'base', tamper: (m) => (m.base = `../${full}`) },
      {
        field: 'redisKeys[0].key',
        // A sign-in session of someone's choosing, were it written (shared mode: the backup's own filter's dump).
        tamper: (m) =>
          (m.redisKeys[0] = { ...(m.redisKeys[0] ?? { ttlMs: 0, dump: '' }), key: `cost-insights:sign-in:session:${'0'.repeat(64)}` }),
      },
    ];
    const named = tamperings.map(({ field, tamper }) => {
      const name = `tampered-${field.replace(/\W+/g, '-')}-${RUN}`;
      cpSync(join(BACKUP_DIR, full), join(BACKUP_DIR, name), { recursive: true });
      const tampered = structuredClone(manifest);
      tampered.name = name;
      tamper(tampered, name);
      writeFileSync(join(BACKUP_DIR, name, 'manifest.json'), JSON.stringify(tampered, null, 2));
      return { field, name };
    });
    try {
      const listed = JSON.parse(await ok(cli(source, ['backup', 'list', '--json']))) as {
        name: string;
        complete: boolean;
        problem?: string;
      }[];
      for (const { field, name } of named) {
        expect(listed.find((backup) => backup.name === name)).toMatchObject({
          complete: false,
          problem: expect.stringContaining(`its manifest.json field ${field} `),
        });
      }
      const before = await storeState(source);
      expect(before.nodes[0].tables.length).toBeGreaterThan(10);
      for (const { field, name } of named) {
        const refused = await cli(source, ['backup', 'restore', name, '--force']);
        expect({ field, code: refused.code }).toEqual({ field, code: 1 });
        expect(refused.stderr).toContain(`Error: backup ${name} is not restorable: its manifest.json field ${field} `);
        expect(await storeState(source)).toEqual(before);
      }
    } finally {
      for (const { name } of named) rmSync(join(BACKUP_DIR, name), { recursive: true, force: true });
    }
  }, 600_000);

  it('with --force, replaces a store that is not empty whole: it answers as before, and takes imports', async () => {
    const report = JSON.parse(await ok(cli(source, ['backup', 'restore', full, '--force', '--json']))) as RestoreReport;
    expect(report.rows.cost_line_items).toBeGreaterThan(0);
    expect(report.backupsEnded).toEqual([full]);
    expect(runningBackupsIn(source)).toEqual([]);
    const after = await withApi(source, (http) => answers(http, estate.key, estate.filterId));
    expect(after).toEqual(before);
    // The restored cost table's defaults read the store's own dictionaries (not the restore's scratch database's).
    const org = randomUUID();
    const key = await createKey(source, org);
    await ok(cli(source, ['ingest', 'focus', focusExport(join(WORK, 'after-force.csv'), 2), '--org', org]));
    expect(await billedTotal(source, key)).toBe('4.5 4.5');
  }, 600_000);

  it('refuses a corrupt backup, naming the file, and leaves the store as it was', async () => {
    const corrupt = `corrupt-${RUN}`;
    cpSync(join(BACKUP_DIR, full), join(BACKUP_DIR, corrupt), { recursive: true });
    const manifestPath = join(BACKUP_DIR, corrupt, 'manifest.json');
    writeFileSync(manifestPath, readFileSync(manifestPath, 'utf8').replace(`"name": "${full}"`, `"name": "${corrupt}"`));
    const damaged = largestFile(join(BACKUP_DIR, corrupt), 'data.bin');
    const bytes = readFileSync(damaged);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    writeFileSync(damaged, bytes);
    const target = newStore('corrupt');
    const refused = await cli(target, ['backup', 'restore', corrupt]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`backup ${corrupt} is corrupt: file ${damaged}`);
    expect(refused.stderr).toContain('Nothing was changed');
    // The target is still an empty store: a good backup restores onto it without --force.
    await ok(cli(target, ['backup', 'restore', full]));
    rmSync(join(BACKUP_DIR, corrupt), { recursive: true });
  }, 600_000);

  it('refuses a backup folder it cannot write, leaving no backup behind', async () => {
    const blocked = join(WORK, 'not-a-folder');
    writeFileSync(blocked, 'a file where the backup folder should be\n');
    const refused = await cli(source, ['backup', 'create', '--name', `blocked-${RUN}`], { BACKUP_DIR: blocked });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`cannot write to the backup folder ${join(blocked, `blocked-${RUN}`)}`);
    expect(refused.stderr).toContain('Nothing was backed up');
  }, 120_000);

  // Embedded only: there the CLI process itself writes the backup. The target is a 128 KiB tmpfs mounted for that
  // process alone (unshare: a user and mount namespace of its own, no privileges needed), where the backup cannot fit.
  // Without unshare on the PATH it is skipped loudly (failed under CI), like every suite's system tool.
  embeddedOnlyWithUnshare(
    'a target that fills up mid-backup: a clear error, and no backup left behind or listed',
    async () => {
      const dir = join(WORK, 'small-disk');
      mkdirSync(dir, { recursive: true });
      const script =
        'mount -t tmpfs -o size=128k tmpfs "$BACKUP_DIR" || exit 97; "$0" "$1" backup create --name "$2"; echo "exit=$?"; exec "$0" "$1" backup list --json';
      const run = spawnSync('unshare', ['-rm', 'sh', '-c', script, process.execPath, CLI, `small-${RUN}`], {
        cwd: ROOT,
        env: childEnv(source, { BACKUP_DIR: dir }),
        encoding: 'utf8',
        timeout: 180_000,
      });
      expect(run.status).not.toBe(97); // the namespace and the mount worked
      expect(run.stdout).toContain('exit=1');
      expect(run.stderr).toMatch(
        new RegExp(`Error: backup small-${RUN} failed, nothing was kept: .*(not written whole|No space left on device)`),
      );
      expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('[]'); // nothing listed: the partial folder was removed
    },
    300_000,
  );

  it('takes an incremental backup on the newest complete one, and restores it whole', async () => {
    const second = randomUUID();
    const secondKey = await createKey(source, second);
    await ok(cli(source, ['ingest', 'focus', focusExport(join(WORK, 'second.csv'), 7), '--org', second]));
    const incremental = JSON.parse(await ok(cli(source, ['backup', 'create', '--incremental', '--name', `inc-${RUN}`, '--json']))) as {
      base: string;
    };
    expect(incremental.base).toBe(full);
    expect(folderBytes(join(BACKUP_DIR, `inc-${RUN}`))).toBeLessThan(folderBytes(join(BACKUP_DIR, full)) / 2);
    const target = newStore('incremental');
    await ok(cli(target, ['backup', 'restore', `inc-${RUN}`]));
    expect(await billedTotal(target, secondKey)).toBe('14.5 14.5');
    const after = await withApi(target, (http) => answers(http, estate.key, estate.filterId));
    expect(after['data monthly by cloud']).toEqual(before['data monthly by cloud']);
  }, 600_000);

  it('a restore killed mid-way leaves the store refused ("being restored") until restore is run again', async () => {
    const target = newStore('killed');
    const child = spawn(process.execPath, [CLI, 'backup', 'restore', full], {
      cwd: ROOT,
      env: childEnv(target),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((marked) =>
      child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes('Restoring part') && marked()),
    );
    child.kill('SIGKILL');
    await new Promise((closed) => child.on('close', closed));
    const { child: api, url, output } = await spawnBuiltApi(SERVER, childEnv(target, API_SETTINGS), { stdout: true });
    try {
      if (!SHARED_SERVERS) {
        // Embedded: no other process can be restoring, so the API refuses to start, saying why.
        await new Promise((exited) => api.on('close', exited));
        expect(output()).toContain(`the store is being restored from backup ${full}`);
        await ok(cli(target, ['backup', 'restore', full, '--force']));
      } else {
        await waitUntil(() => output().includes(`Waiting before serving: the store is being restored from backup ${full}`));
        expect(
          await fetch(`${url}/health/ready`).then(
            (r) => r.status,
            () => 0,
          ),
        ).toBe(0);
        await ok(cli(target, ['backup', 'restore', full, '--force']));
        await waitForHttp(`${url}/health/ready`, api, output, START_MS);
      }
    } finally {
      await stopProcess(api);
    }
    const after = await withApi(target, (http) => answers(http, estate.key, estate.filterId));
    expect(after['data daily by service, csv']).toEqual(before['data daily by service, csv']);
  }, 600_000);

  it('the worker takes a backup on schedule (BACKUP_INTERVAL_MINUTES) that restores whole', async () => {
    const scheduledDir = join(BACKUP_DIR, `scheduled-${RUN}`);
    const scheduled = { INGEST_WORKER: 'true', BACKUP_INTERVAL_MINUTES: '60', BACKUP_DIR: scheduledDir };
    // None yet, so one is due at once: full, complete once its manifest is written.
    await withApi(
      source,
      () =>
        waitUntil(
          () => existsSync(scheduledDir) && readdirSync(scheduledDir).some((name) => existsSync(join(scheduledDir, name, 'manifest.json'))),
        ),
      scheduled,
    );
    const [name] = readdirSync(scheduledDir);
    expect(JSON.parse(readFileSync(join(scheduledDir, name, 'manifest.json'), 'utf8'))).toMatchObject({
      name,
      base: null,
      database: source.CLICKHOUSE_DATABASE,
    });
    const target = newStore('scheduled');
    await ok(cli(target, ['backup', 'restore', name], { BACKUP_DIR: scheduledDir }));
    const after = await withApi(target, (http) => answers(http, estate.key, estate.filterId));
    expect(after['data monthly by cloud']).toEqual(before['data monthly by cloud']);
  }, 600_000);

  // libchdb's server (clickhouse-local listening: scripts/clickhouse-server.py) never starts the backups' S3 I/O pool
  // ("The BackupsIOThreadPool is not initialized"); the embedded engine and a real clickhouse-server do. So S3 runs here
  // embedded only (the location code, the AWS SDK side and ClickHouse's S3 engine are the same in every mode).
  embeddedOnly(
    'backs up to S3-compatible storage (s3rver) and restores from it, incremental through its base, never echoing the secret',
    async () => {
      const s3 = await startS3Server(join(WORK, 's3'));
      try {
        const bucket = `backups-${RUN}`;
        const client = new S3Client({
          endpoint: s3.url,
          region: 'us-east-1',
          forcePathStyle: true,
          credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        });
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
        const inS3 = {
          BACKUP_S3_URL: `s3://${bucket}/nightly`,
          BACKUP_S3_ENDPOINT: s3.url,
          BACKUP_S3_ACCESS_KEY_ID: 'S3RVER',
          BACKUP_S3_SECRET_ACCESS_KEY: 'S3RVER',
        };
        const runs = [
          await cli(source, ['backup', 'create', '--name', `s3-full-${RUN}`], inS3),
          await cli(source, ['backup', 'create', '--incremental', '--name', `s3-inc-${RUN}`], inS3),
          await cli(source, ['backup', 'list', '--json'], inS3),
        ];
        for (const run of runs) {
          expect(run.code).toBe(0);
          expect(`${run.stdout}${run.stderr}`).not.toContain('S3RVER');
        }
        const listed = JSON.parse(runs[2].stdout) as { name: string; complete: boolean; base: string | null }[];
        expect(listed.map(({ name, complete, base }) => ({ name, complete, base }))).toEqual([
          { name: `s3-inc-${RUN}`, complete: true, base: `s3-full-${RUN}` },
          { name: `s3-full-${RUN}`, complete: true, base: null },
        ]);
        const objects = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `nightly/s3-inc-${RUN}/` }));
        expect((objects.Contents ?? []).map((object) => object.Key)).toContain(`nightly/s3-inc-${RUN}/manifest.json`);
        const target = newStore('s3');
        const restored = await cli(target, ['backup', 'restore', `s3-inc-${RUN}`], inS3);
        expect(restored.code).toBe(0);
        expect(`${restored.stdout}${restored.stderr}`).not.toContain('S3RVER');
        const after = await withApi(target, (http) => answers(http, estate.key, estate.filterId));
        expect(after['data monthly by cloud']).toEqual(before['data monthly by cloud']);
        expect(after['filters']).toEqual(before['filters']);
      } finally {
        await s3.stop();
      }
    },
    600_000,
  );

  const fenced = SHARED_SERVERS ? it : it.skip; // embedded: one process per store, so no import can run beside a backup
  fenced(
    'an import publishing when a backup starts is wholly in it (the backup waits for it)',
    async () => {
      const org = randomUUID();
      const key = await createKey(source, org);
      const file = focusExport(join(WORK, 'caught.csv'), 3);
      // The import pauses 8 s after its first of two swaps: half published when the backup starts.
      const importing = cli(source, ['ingest', 'focus', file, '--org', org], { INGEST_PAUSE_AFTER_SWAPS: '1:8000' });
      await waitUntil(async () => (await swappingImports(source)) > 0);
      const backup = await cli(source, ['backup', 'create', '--name', `caught-${RUN}`]);
      expect(backup.code).toBe(0);
      expect(backup.stderr).toContain('Waiting for 1 import(s) to finish publishing');
      expect((await importing).code).toBe(0);
      const target = newStore('caught');
      await ok(cli(target, ['backup', 'restore', `caught-${RUN}`]));
      expect(await billedTotal(target, key)).toBe('6.5 6.5');
    },
    600_000,
  );
});

interface TamperedManifest {
  name: string;
  base: string | null;
  database: string;
  parts: { folder: string }[];
  redisKeys: { key: string; ttlMs: number; dump: string }[];
}

/**
 * What a restore could change, read around it: on each node, every database of this file's run and their tables with
 * their rows (FINAL where merges fold rows: a background merge changes nothing here), and every Redis key with its value.
 */
/** Redis keys expiring sooner than this are left out of a store's state (rate-limit counters live one minute). */
const VOLATILE_KEY_MS = 300_000;

async function storeState(store: Env): Promise<{ nodes: { databases: unknown[]; tables: unknown[] }[]; redis: Record<string, string> }> {
  const nodes = [];
  for (const node of storeNodes(store)) {
    const [databases, tables] = (await node([
      `SELECT name FROM system.databases WHERE name LIKE '%${RUN}%' ORDER BY name`,
      `SELECT database, name, engine FROM system.tables WHERE database LIKE '%${RUN}%' ORDER BY database, name`,
    ])) as [unknown[], { database: string; name: string; engine: string }[]];
    const counted = tables.filter((table) => table.engine.endsWith('MergeTree'));
    const final = (engine: string) => (/(Replacing|Collapsing|Summing|Aggregating)MergeTree$/.test(engine) ? ' FINAL' : '');
    const counts = await node(counted.map((table) => `SELECT count() AS rows FROM ${table.database}.${table.name}${final(table.engine)}`));
    nodes.push({ databases, tables: tables.map((table) => ({ ...table, rows: counts[counted.indexOf(table)]?.[0] ?? null })) });
  }
  const values: Record<string, string> = {};
  if (redis) {
    const { default: Redis } = await import('ioredis');
    const client = new Redis(redis.url);
    for (const key of await client.keys('*')) {
      // A rate-limit counter of the current minute expires while a slow run waits: not state a restore could change.
      const ttl = await client.pttl(key);
      if (ttl >= 0 && ttl < VOLATILE_KEY_MS) continue;
      values[key] = (await client.dumpBuffer(key))?.toString('base64') ?? '';
    }
    client.disconnect();
  }
  return { nodes, redis: values };
}

/** Each node of the store as a runner of queries (rows per query): over HTTP, or the embedded store opened by a child process. */
function storeNodes(store: Env): ((queries: string[]) => Promise<unknown[][]>)[] {
  if (!SHARED_SERVERS) {
    const script = `const { createClient } = require('@clickhouse/client');
      const { createChdbConnection } = require('chdb/connection');
      const client = createClient({ connection: createChdbConnection({ path: process.argv[1] }) });
      (async () => {
        const results = [];
        for (const query of JSON.parse(process.argv[2])) results.push(await (await client.query({ query, format: 'JSONEachRow' })).json());
        process.stdout.write(JSON.stringify(results));
        await client.close();
      })();`;
    return [
      async (queries) => {
        const run = spawnSync(process.execPath, ['-e', script, store.DATA_DIR, JSON.stringify(queries)], { cwd: ROOT, encoding: 'utf8' });
        if (run.status !== 0) throw new Error(`reading the embedded store failed: ${run.stderr}`);
        return JSON.parse(run.stdout) as unknown[][];
      },
    ];
  }
  return (store.CLICKHOUSE_CLUSTER_NODE_URLS ?? store.CLICKHOUSE_URL).split(',').map((node) => async (queries) => {
    const results: unknown[][] = [];
    for (const query of queries) {
      const url = new URL(node);
      url.searchParams.set('query', `${query} FORMAT JSONEachRow`);
      const answer = await fetch(url);
      const text = await answer.text();
      if (!answer.ok) throw new Error(`${query}: ${text}`);
      results.push(
        text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as unknown),
      );
    }
    return results;
  });
}

async function flushRedis(): Promise<void> {
  const { default: Redis } = await import('ioredis');
  const client = new Redis(redis!.url);
  await client.flushall();
  client.disconnect();
}

/** Imports 'swapping' in the store's journal now, asked through the built CLI's store (a query over HTTP). */
async function swappingImports(store: Env): Promise<number> {
  const url = new URL(store.CLICKHOUSE_URL.split(',')[0]);
  const table = store.CLICKHOUSE_CLUSTER ? 'import_journal_distributed' : 'import_journal';
  url.searchParams.set('query', `SELECT count() FROM ${store.CLICKHOUSE_DATABASE}.${table} FINAL WHERE state = 'swapping'`);
  return Number((await (await fetch(url)).text()).trim());
}

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

function largestFile(dir: string, name: string): string {
  let best = { path: '', size: -1 };
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === name && statSync(path).size > best.size) best = { path, size: statSync(path).size };
    }
  };
  walk(dir);
  if (!existsSync(best.path)) throw new Error(`no ${name} in ${dir}`);
  return best.path;
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}
