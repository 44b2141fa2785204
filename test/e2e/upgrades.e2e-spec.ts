// modes: embedded server cluster — migrations on every topology
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../src/config/app-config';
import { METRIC_CSV_HEADERS, METRIC_NAMES, METRIC_SUMMARY_NAMES } from '../../src/cost-query/metrics';
import { ClickhouseService } from '../../src/store/clickhouse/clickhouse.service';
import { loadMigrations, migrate } from '../../src/store/schema/migrator';
import { sumDecimalText, toScaled } from '../support/decimals';
import { E2E_MODE, SHARED_SERVERS } from '../support/e2e-mode';
import { buildOldStore, DAYS, MONEY_COLUMNS, oldEstate, OldRow, writtenColumns } from '../support/old-store';
import { BUILT } from '../support/built-dist';
import { CliRun, runCli } from '../support/cli-run';
import { TestApp, workerSettings } from '../support/test-app';
import { childEnv as builtChildEnv, readStoreInChild, withBuiltApi } from '../support/built-app';

/**
 * Upgrades (issue 33 item 3). A store written by an older release — the schema of migrations 1..N only, filled with
 * rows in that schema's own shape (test/support/old-store.ts) — is migrated by today's migrator, and then every read
 * endpoint must answer exactly what the inserted rows say (expectations computed here with exact BigInt sums) and
 * byte for byte what a store filled with the same rows through today's write path answers; the schema reached must
 * be today's. N = 1 (migration 0001's world) and N = 23 (the previous release: 0024 and 0025 came with the last).
 *
 * Crash safety: `migrate` (the compiled CLI, in a child process) is killed with SIGKILL between two statements of a
 * multi-statement migration (MIGRATE_FAULT_AFTER_STATEMENT, src/store/schema/migration-fault.ts); the
 * next `migrate` must complete it, record every migration once, and leave the answers of the uncrashed path. And
 * every migration, cut after each of its statements, then run whole (a crash and the re-run), ends in today's schema.
 *
 * Each store is a database of the test's own on the mode's ClickHouse (embedded: this worker's directory; the crash
 * tests, whose processes must open the store themselves, a directory of their own).
 */
const MODE = E2E_MODE;
const ROOT = resolve(__dirname, '../..');
const WORK = join(process.env.E2E_TMP_DIR ?? join(ROOT, '.test-tmp'), `upgrades-${process.env.JEST_WORKER_ID ?? '1'}`);
const { dist: DIST, cli: CLI, server: SERVER } = BUILT;
const LATEST = loadMigrations('x').at(-1)!.version;

type Env = Record<string, string>;
type Agent = ReturnType<typeof request>;

/** Cut stores the sweep migrates at once on a server or cluster (the embedded engine takes one statement at a time). */
const STORES_SIDE_BY_SIDE = SHARED_SERVERS ? 3 : 1;

/** Runs `work` on each of `items`, `width` at a time. */
async function inPool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const lane = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: width }, lane));
}

const freshDatabase = (purpose: string) => `upgrade_${purpose}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

/** A connection of this test's own to `database` on the mode's ClickHouse (embedded: this worker's directory). */
function connect(database: string): ClickhouseService {
  return new ClickhouseService(loadConfig({ ...process.env, ...workerSettings(), CLICKHOUSE_DATABASE: database } as NodeJS.ProcessEnv));
}

// ------------------------------------------------------------------ the questions and their expected answers

const RANGE = { start: '2025-03-01', end: '2025-04-30' };
const SAVINGS = MONEY_COLUMNS.slice(4);

interface Question {
  name: string;
  path: string;
  body: object;
  csv?: boolean;
}

const QUESTIONS: Question[] = [
  {
    name: 'data monthly by service',
    path: 'data',
    body: { filters: { inclusions: { dateRange: RANGE } }, groupBy: { dateGrouping: 'monthly', dimension: 'service' } },
    csv: true,
  },
  {
    name: 'data weekly by region and tag',
    path: 'data',
    body: { filters: { inclusions: { dateRange: RANGE } }, groupBy: { dateGrouping: 'weekly', dimensions: ['region', 'tag:team'] } },
    csv: true,
  },
  {
    name: 'data daily by account and cost category, tag filter',
    path: 'data',
    body: {
      filters: { inclusions: { dateRange: RANGE, resourceTag: 'team', resourceTagValues: ['web'] } },
      groupBy: { dateGrouping: 'daily', dimensions: ['account', 'costCategory:Unit'] },
    },
    csv: true,
  },
  {
    name: 'data json summary',
    path: 'data',
    body: { filters: { inclusions: { dateRange: RANGE } }, groupBy: { dateGrouping: 'monthly' } },
  },
  {
    name: 'compare March with April by service',
    path: 'compare',
    body: {
      baselinePeriod: { start: '2025-03-01', end: '2025-03-31' },
      comparisonPeriod: { start: '2025-04-01', end: '2025-04-30' },
      metric: 'amortized_cost',
      groupBy: { dateGrouping: 'monthly', dimension: 'service' },
    },
    csv: true,
  },
  { name: 'filters', path: 'filters', body: { filters: { inclusions: { dateRange: RANGE } } } },
  { name: 'tag values', path: 'tag-values', body: { tagKey: 'team' } },
  { name: 'cost category values', path: 'cost-category-values', body: { categoryKey: 'Unit' } },
  { name: 'invoices', path: 'invoices', body: { filters: { inclusions: { billingPeriods: ['2025-03', '2025-04'] } } } },
];

interface Answer {
  status: number;
  dataThrough: string | undefined;
  importedAt: string | undefined;
  body: string;
}

/** Every question's answer, computed afresh (no answer cache). /filters' dataImportedAt is taken out of its body. */
async function answers(http: () => Agent, key: string): Promise<Record<string, Answer>> {
  const result: Record<string, Answer> = {};
  for (const question of QUESTIONS) {
    const response = await http()
      .post(`/v1/cost-insights/${question.path}`)
      .set('Authorization', `Bearer ${key}`)
      .set('Cache-Control', 'no-cache')
      .set('Accept', question.csv ? 'text/csv' : 'application/json')
      .send(question.body);
    let body = response.text;
    if (question.path === 'filters' && response.status === 200) {
      const parsed = JSON.parse(body) as { data: { dataImportedAt?: string } };
      result[`${question.name} imported at`] = { status: 200, dataThrough: undefined, importedAt: parsed.data.dataImportedAt, body: '' };
      delete parsed.data.dataImportedAt;
      body = JSON.stringify(parsed);
    }
    result[question.name] = {
      status: response.status,
      dataThrough: response.headers['x-data-through'] as string | undefined,
      importedAt: response.headers['x-data-imported-at'] as string | undefined,
      body,
    };
  }
  return result;
}

/** Answers without the import times (a store upgraded and one written today hold rows written at other times). */
function withoutImportTimes(all: Record<string, Answer>): Record<string, Omit<Answer, 'importedAt'>> {
  return Object.fromEntries(
    Object.entries(all)
      .filter(([name]) => !name.endsWith(' imported at'))
      .map(([name, { importedAt: _importedAt, ...rest }]) => [name, rest]),
  );
}

const money = (row: OldRow, column: string) => row[column] as string;
const sum = (rows: OldRow[], column: string) => sumDecimalText(rows.map((row) => money(row, column)));
const metricCells = (rows: OldRow[]) =>
  METRIC_NAMES.map((metric) =>
    metric === 'total_savings' ? sumDecimalText(rows.flatMap((row) => SAVINGS.map((s) => money(row, s)))) : sum(rows, metric),
  );
const monthOf = (date: string) => `${date.slice(0, 7)}-01`;
function mondayOf(date: string): string {
  const value = new Date(`${date}T00:00:00Z`);
  value.setUTCDate(value.getUTCDate() - ((value.getUTCDay() + 6) % 7));
  return value.toISOString().slice(0, 10);
}
const tags = (row: OldRow) => row.resource_tags as Record<string, string>;
const categories = (row: OldRow) => row.cost_categories as Record<string, string>;
const NOT_SET = '(not set)';
const sortedUnique = (values: string[]) => [...new Set(values)].sort();

/** Groups rows by a key of several parts; the groups in byte order of their parts. */
function groups(rows: OldRow[], key: (row: OldRow) => string[]): [string[], OldRow[]][] {
  const map = new Map<string, [string[], OldRow[]]>();
  for (const row of rows) {
    const parts = key(row);
    const entry = map.get(JSON.stringify(parts)) ?? [parts, []];
    entry[1].push(row);
    map.set(JSON.stringify(parts), entry);
  }
  return [...map.values()].sort(([a], [b]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  });
}

const csvLine = (texts: string[], numbers: string[]) => [...texts.map((t) => `"${t}"`), ...numbers].join(',');
const csv = (header: string[], lines: string[]) => [header.map((h) => `"${h}"`).join(','), ...lines].map((line) => `${line}\r\n`).join('');

/** What each question must answer for `rows` (its CSV text, or the parts of its JSON the test checks). */
function expectedAnswers(rows: OldRow[]) {
  const dataCsv = (bucket: (date: string) => string, dimensions: string[], key: (row: OldRow) => string[], of: OldRow[]) =>
    csv(
      ['usage_date', ...dimensions, ...METRIC_CSV_HEADERS],
      groups(of, (row) => [bucket(row.usage_date as string), ...key(row)]).map(([[date, ...values], members]) =>
        csvLine([date, ...values], metricCells(members)),
      ),
    );
  const compareLines: string[] = [];
  const byService = groups(rows, (row) => [row.service as string]).map(([[service], members]) => {
    const baseline = sum(
      members.filter((row) => (row.usage_date as string) < '2025-04-01'),
      'amortized_cost',
    );
    const comparison = sum(
      members.filter((row) => (row.usage_date as string) >= '2025-04-01'),
      'amortized_cost',
    );
    return { service, baseline, comparison, delta: toScaled(comparison) - toScaled(baseline) };
  });
  const magnitude = (delta: bigint) => (delta < 0n ? -delta : delta);
  byService.sort((a, b) =>
    magnitude(a.delta) === magnitude(b.delta) ? (a.service < b.service ? -1 : 1) : magnitude(b.delta) > magnitude(a.delta) ? 1 : -1,
  );
  for (const { service, baseline, comparison } of byService) {
    compareLines.push(`${service}|baseline|2025-03-01|${baseline}|${baseline}`);
    compareLines.push(`${service}|comparison|2025-04-01|${comparison}|${comparison}`);
  }
  const invoices = groups(rows, (row) => [
    (row.billing_account_id as string | undefined) ?? '',
    row.billing_period as string,
    (row.invoice_id as string | undefined) ?? '',
  ]).map(([[account, period, invoice], members]) => {
    const corrections = members.filter((row) => (row.cost_type as string).endsWith('(Correction)'));
    const charged = members.filter((row) => !corrections.includes(row));
    const category = (name: string) =>
      sum(
        charged.filter((row) => ({ Usage: 'usage', 'Spot Usage': 'usage', Tax: 'tax' })[row.cost_type as string] === name),
        'billed_cost',
      );
    return {
      billing_account_id: account,
      billing_period: period,
      invoice_id: invoice,
      billing_currency: 'USD',
      invoice_issuer: (members[0].invoice_issuer as string | undefined) ?? '',
      line_items: String(members.length),
      billed_cost: sum(members, 'billed_cost'),
      effective_cost: sum(members, 'amortized_cost'),
      charges: { usage: category('usage'), purchase: '0', tax: category('tax'), credit: '0', adjustment: '0', other: '0' },
      corrections: sum(corrections, 'billed_cost'),
    };
  });
  return {
    'data monthly by service': dataCsv(monthOf, ['service'], (row) => [row.service as string], rows),
    'data weekly by region and tag': dataCsv(
      mondayOf,
      ['region', 'tag:team'],
      (row) => [row.region as string, tags(row).team ?? NOT_SET],
      rows,
    ),
    'data daily by account and cost category, tag filter': dataCsv(
      (date) => date,
      ['account', 'costCategory:Unit'],
      (row) => [row.account_id as string, categories(row).Unit ?? NOT_SET],
      rows.filter((row) => tags(row).team === 'web'),
    ),
    summary: metricCells(rows),
    compare: compareLines,
    filters: {
      services: sortedUnique(rows.map((row) => row.service as string)),
      regions: sortedUnique(rows.map((row) => row.region as string)),
      accounts: sortedUnique(rows.map((row) => row.account_id as string)),
      resourceTags: ['team'],
      costCategories: ['Unit'],
      tagValues: { team: sortedUnique(rows.flatMap((row) => (tags(row).team ? [tags(row).team] : []))) },
      accountIdToName: Object.fromEntries(rows.map((row) => [row.account_id, row.account_name])),
    },
    'tag values': sortedUnique(rows.flatMap((row) => (tags(row).team ? [tags(row).team] : []))),
    'cost category values': sortedUnique(rows.flatMap((row) => (categories(row).Unit ? [categories(row).Unit] : []))),
    invoices,
  };
}

/** Checks every answer against what `rows` say. */
function expectAnswersOf(all: Record<string, Answer>, rows: OldRow[]): void {
  const expected = expectedAnswers(rows);
  for (const question of QUESTIONS) {
    expect({ question: question.name, status: all[question.name].status }).toEqual({ question: question.name, status: 200 });
    expect({ question: question.name, dataThrough: all[question.name].dataThrough }).toEqual({
      question: question.name,
      dataThrough: DAYS.at(-1),
    });
  }
  for (const name of [
    'data monthly by service',
    'data weekly by region and tag',
    'data daily by account and cost category, tag filter',
  ] as const) {
    expect({ name, csv: all[name].body }).toEqual({ name, csv: expected[name] });
  }
  // The summary's JSON numbers carry every digit: read as text, they are the exact sums.
  const summaryBody = all['data json summary'].body.slice(all['data json summary'].body.indexOf('"summary":'));
  const summaryText = (field: string) => new RegExp(`"${field}":(-?[0-9.]+)`).exec(summaryBody)?.[1];
  expect(METRIC_SUMMARY_NAMES.map(summaryText)).toEqual(expected.summary);
  // /compare's long CSV: value and period total exact; the delta columns follow from them.
  const compareRecords = all['compare March with April by service'].body
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.replace(/"/g, '').split(','));
  expect(compareRecords.map(([value, period, date, amount, total]) => [value, period, date, amount, total].join('|'))).toEqual(
    expected.compare,
  );
  const filters = (JSON.parse(all.filters.body) as { data: Record<string, unknown> }).data;
  expect(filters).toMatchObject(expected.filters);
  expect(JSON.parse(all['tag values'].body).data.values).toEqual(expected['tag values']);
  expect(JSON.parse(all['cost category values'].body).data.values).toEqual(expected['cost category values']);
  expect(JSON.parse(all.invoices.body).data.invoices).toEqual(expected.invoices);
}

// ------------------------------------------------------------------ schema

/** Every table of `database` as created (database name taken out), and the migrations it recorded. */
async function schemaOf(clickhouse: ClickhouseService, database: string): Promise<{ tables: string[]; migrations: string[] }> {
  const tables = await clickhouse.query<{ create: string }>(
    `SELECT replaceAll(create_table_query, {database:String}, 'DB') AS create FROM system.tables
     WHERE database = {database:String} AND name != 'schema_migrations' ORDER BY name`,
    { database },
  );
  const migrations = await clickhouse.query<{ migration: string }>(
    `SELECT concat(toString(version), ' ', name, ' ', checksum) AS migration FROM ${database}.schema_migrations ORDER BY version`,
  );
  return { tables: tables.map((t) => t.create), migrations: migrations.map((m) => m.migration) };
}

const recordedMigrations = (upTo: number) =>
  loadMigrations('x')
    .filter((m) => m.version <= upTo)
    .map((m) => `${m.version} ${m.name} ${m.checksum}`);

// ------------------------------------------------------------------ the tests

describe(`upgrades from older releases' stores (${MODE})`, () => {
  let reference: TestApp;
  const databases: string[] = [];
  const organizationId = randomUUID();
  /** The answers and schema of today's write path, per release shape (1: without invoice columns; 16+: with). */
  const today: Record<number, { answers: Record<string, Answer>; schema: string[] }> = {};
  const upgraded: Record<number, Record<string, Answer>> = {};

  beforeAll(async () => {
    rmSync(WORK, { recursive: true, force: true });
    const database = freshDatabase('today');
    databases.push(database);
    reference = await TestApp.start({ settings: { CLICKHOUSE_DATABASE: database } });
  }, 300_000);

  afterAll(async () => {
    for (const node of await reference.nodes())
      for (const database of databases) await node.command(`DROP DATABASE IF EXISTS ${database} SYNC`);
    await reference.close();
    rmSync(WORK, { recursive: true, force: true });
  });

  /** The same rows written through today's write path into a fresh store of today's schema: its answers. */
  async function todaysAnswers(version: 1 | 23): Promise<{ answers: Record<string, Answer>; schema: string[] }> {
    if (today[version]) return today[version];
    const database = freshDatabase(`today${version}`);
    databases.push(database);
    const t = await TestApp.start({ settings: { CLICKHOUSE_DATABASE: database } });
    try {
      await t.clickhouse.insert('cost_line_items', oldEstate(organizationId, version));
      const key = (await t.keyFor(organizationId, ['cost:read'])).key;
      today[version] = { answers: await answers(() => t.http, key), schema: (await schemaOf(t.clickhouse, database)).tables };
      return today[version];
    } finally {
      await t.close();
    }
  }

  for (const version of [1, 23] as const) {
    it(`a store of release ${version} (migrations 1..${version}, filled in their shape): migrated, every answer is what its rows say and what today's store of the same rows answers`, async () => {
      const database = freshDatabase(`from${version}`);
      databases.push(database);
      const rows = oldEstate(organizationId, version);
      const old = connect(database);
      let migratedFrom: number, migratedTo: number;
      let filledFrom: number, filledTo: number;
      try {
        filledFrom = Math.floor(Date.now() / 1000);
        await buildOldStore(old, version, rows);
        filledTo = Date.now();
        expect((await schemaOf(old, database)).migrations).toEqual(recordedMigrations(version));
        migratedFrom = Math.floor(Date.now() / 1000);
        const applied = await migrate(old);
        migratedTo = Date.now();
        expect(applied.map((m) => m.version)).toEqual(
          loadMigrations('x')
            .filter((m) => m.version > version)
            .map((m) => m.version),
        );
      } finally {
        await old.onModuleDestroy();
      }
      const t = await TestApp.start({ settings: { CLICKHOUSE_DATABASE: database } });
      try {
        const schema = await schemaOf(t.clickhouse, database);
        expect(schema.migrations).toEqual(recordedMigrations(LATEST));
        const key = (await t.keyFor(organizationId, ['cost:read'])).key;
        const after = await answers(() => t.http, key);
        upgraded[version] = after;
        expectAnswersOf(after, rows);
        // The rows' import time: the migration that added the column (0010) for rows older than it, else their insert.
        const [from, to] = version < 10 ? [migratedFrom, migratedTo] : [filledFrom, filledTo];
        const importedAt = Date.parse(after.filters.importedAt ?? '');
        expect(importedAt >= from * 1000 && importedAt <= to).toBe(true);
        expect(after['filters imported at'].importedAt).toBe(after.filters.importedAt);

        const reference = await todaysAnswers(version);
        expect(withoutImportTimes(after)).toEqual(withoutImportTimes(reference.answers));
        expect(schema.tables).toEqual(reference.schema);
      } finally {
        await t.close();
      }
    }, 300_000);
  }

  // ---------------------------------------------------------------- crashes in the middle of a migration

  it("every migration cut after each of its statements (a crash), then migrated (the re-run), and applied twice in a row, ends in today's schema", async () => {
    const migrations = loadMigrations('x');
    const longest = Math.max(...migrations.map((m) => m.statements.length));
    expect(longest).toBeGreaterThan(10); // 0016 has 21 statements
    const target = await schemaOf(reference.clickhouse, reference.clickhouse.database);
    // Store k is cut after statement k of every migration of at least k statements (k = n: applied whole, then
    // again: twice in a row); shorter ones (cut in an earlier store) are simply migrated. Every cut point of every
    // migration is in one store. The whole sweep runs once, on a server (measured alone: 147 s a store at a time, 62 s
    // three side by side; 251 s embedded): the statements' re-runnability is the same SQL in every mode; the embedded
    // engine takes the first cuts and the last, a cluster (there every migrate is a round of four nodes, about a minute
    // a store) the first and the last.
    const everyCut = Array.from({ length: longest }, (_, i) => i + 1);
    const sample = { server: everyCut, embedded: [1, 2, 3, longest], cluster: [1, longest] }[E2E_MODE];
    // The stores are independent and their statements mostly wait on the server: a few are migrated side by side.
    await inPool(sample, STORES_SIDE_BY_SIDE, async (k) => {
      const database = freshDatabase(`cut${k}`);
      databases.push(database);
      const store = connect(database);
      try {
        const [first] = store.cluster ? (await store.cluster.allNodes('the test cuts on one node')).map((n) => n.connection) : [store];
        // The statements as the migrator writes them for this mode ({{serving:…}} is a Distributed table on a cluster).
        for (const migration of loadMigrations(database, undefined, store.cluster !== undefined).filter((m) => m.statements.length >= k)) {
          await migrate(store, { upToVersion: migration.version - 1 });
          // On a cluster a crash cuts one node's migration: the first's (cut here statement by statement).
          for (const statement of migration.statements.slice(0, k)) await first.command(statement);
          await migrate(store, { upToVersion: migration.version });
        }
        await migrate(store);
        const schema = await schemaOf(store, database);
        expect({ k, ...schema }).toEqual({ k, tables: target.tables, migrations: recordedMigrations(LATEST) });
      } finally {
        await store.onModuleDestroy();
      }
    });
  }, 600_000);

  describe('migrate killed between two statements (the compiled CLI, SIGKILL)', () => {
    /** The store of one case: a database of its own (embedded: in a directory of its own, opened by the children only). */
    function childEnv(store: Env, extra: Env = {}): NodeJS.ProcessEnv {
      return builtChildEnv({ ...store, ...extra }, ['DATA_DIR', 'PORT', 'MIGRATE_FAULT_AFTER_STATEMENT']);
    }

    /** buildOldStore in a child process, from the compiled migrator (the store's directory is the child's to open). */
    function buildOldStoreInChild(store: Env, version: number, rows: OldRow[]): void {
      const script = `
        require('reflect-metadata');
        const { loadConfig } = require(${JSON.stringify(join(DIST, 'config/app-config'))});
        const { ClickhouseService } = require(${JSON.stringify(join(DIST, 'store/clickhouse/clickhouse.service'))});
        const { migrate } = require(${JSON.stringify(join(DIST, 'store/schema/migrator'))});
        const { version, columns, rows } = JSON.parse(process.argv[1]);
        (async () => {
          const clickhouse = new ClickhouseService(loadConfig(process.env));
          const applied = await migrate(clickhouse, { upToVersion: version });
          if (applied.length !== version) throw new Error('not a new store: applied ' + applied.length);
          await clickhouse.client.insert({ table: clickhouse.table('cost_line_items'), columns, values: rows, format: 'JSONEachRow' });
          await clickhouse.onModuleDestroy();
        })().catch((error) => { process.stderr.write(String(error.stack)); process.exit(1); });`;
      const columns = writtenColumns(version);
      const values = rows.map((row) => Object.fromEntries(columns.map((column) => [column, row[column]])));
      const result = spawnSync(process.execPath, ['-e', script, JSON.stringify({ version, columns, rows: values })], {
        cwd: ROOT,
        env: childEnv(store),
        encoding: 'utf8',
      });
      if (result.status !== 0) throw new Error(`building the old store failed: ${result.stderr}`);
    }

    /** The schema of the store, read by a child process. */
    function schemaInChild(store: Env): { tables: string[]; migrations: string[] } {
      const [tables, migrations] = readStoreInChild(childEnv(store), [
        {
          sql: "SELECT replaceAll(create_table_query, {database:String}, 'DB') AS create FROM system.tables WHERE database = {database:String} AND name != 'schema_migrations' ORDER BY name",
        },
        {
          sql: "SELECT concat(toString(version), ' ', name, ' ', checksum) AS migration FROM {{table:schema_migrations}} ORDER BY version",
        },
      ]) as [{ create: string }[], { migration: string }[]];
      return { tables: tables.map((t) => t.create), migrations: migrations.map((m) => m.migration) };
    }

    /** The compiled API server on the store (no migration at start: the CLI did it), for `run`. */
    async function withApi<T>(store: Env, run: (http: () => Agent) => Promise<T>): Promise<T> {
      return withBuiltApi(
        SERVER,
        childEnv(store, { MIGRATE_ON_START: 'false', DEMO_ON_EMPTY_STORE: 'false' }),
        { ready: '/health/live' },
        run,
      );
    }

    const CASES: [version: number, afterStatement: number, what: string][] = [
      [4, 4, 'the re-partitioned table exchanged in, the old one not yet dropped'],
      [16, 8, 'the currency and invoice columns added, the billing currency materialised, the charge category not'],
      [23, 9, 'the four projections dropped and added again, one of them built'],
    ];

    for (const [version, afterStatement, what] of CASES) {
      it(`0${String(version).padStart(3, '0')} killed after statement ${afterStatement} (${what}): the next migrate completes it, records each migration once, and every answer is the uncrashed upgrade's`, async () => {
        const migration = loadMigrations('x').find((m) => m.version === version)!;
        expect(afterStatement).toBeLessThan(migration.statements.length); // a cut between two statements
        const database = freshDatabase(`crash${version}`);
        if (SHARED_SERVERS) databases.push(database);
        const store: Env = SHARED_SERVERS
          ? { CLICKHOUSE_DATABASE: database }
          : { DATA_DIR: join(WORK, `store-${version}`), CLICKHOUSE_DATABASE: database };
        const shape = version - 1 >= 16 ? 23 : 1;
        const rows = oldEstate(organizationId, version - 1);
        buildOldStoreInChild(store, version - 1, rows);

        const killed: CliRun = await runCli(
          CLI,
          ['migrate'],
          childEnv(store, { MIGRATE_FAULT_AFTER_STATEMENT: `${version}:${afterStatement}` }),
        );
        expect({ code: killed.code, signal: killed.signal }).toEqual({ code: null, signal: 'SIGKILL' });
        expect(schemaInChild(store).migrations).toEqual(recordedMigrations(version - 1));

        const again = await runCli(CLI, ['migrate'], childEnv(store));
        expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' });
        const schema = schemaInChild(store);
        expect(schema.migrations).toEqual(recordedMigrations(LATEST));
        expect(schema.tables).toEqual((await todaysAnswers(shape)).schema);

        const created = await runCli(
          CLI,
          ['keys', 'create', '--org', organizationId, '--name', 'upgrade', '--scopes', 'cost:read', '--json'],
          childEnv(store),
        );
        expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
        const { key } = JSON.parse(created.stdout) as { key: string };
        const after = await withApi(store, (http) => answers(http, key));
        expectAnswersOf(after, rows);
        expect(withoutImportTimes(after)).toEqual(withoutImportTimes((await todaysAnswers(shape)).answers));
      }, 300_000);
    }
  });
});
