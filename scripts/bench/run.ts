/**
 * `npm run bench` — the API against raw ClickHouse and PostgreSQL 15 on one generated estate, in one run.
 *
 *   npm run bench -- [--rows 10000000] [--runs 40] [--warmup 3] [--pg-runs 5] [--pg-db test] [--skip-postgres]
 *                    [--duration 10] [--connections 16] [--dir .test-tmp/bench-api] [--activated]
 *                    [--estate own-dimensions|shared-dimensions] [--categories] [--budgets] [--unit-costs] [--commitments]
 *                    [--reuse-store]   measure the estate a run with the same --dir and --rows left (estate.json)
 *   npm run bench -- --cluster [--rows …] [--runs …] [--warmup …]     the cluster against one server (cluster.ts)
 *   npm run bench -- --growth [--sizes 1000000,10000000,100000000] [any flag above]   one run per size, then the
 *                    curve (growth.ts: bench/results/<stamp>-growth.md, docs/images/growth.svg)
 *
 * Run through scripts/bench/run.sh: compiled by tsc and run as plain JavaScript, as production runs the API.
 *
 * 1. Starts a ClickHouse HTTP server from libchdb (with system.query_log) and the API in this process
 *    (createApp, exactly as production, plus a probe route that exists only here: GET /v1/bench/ping, the
 *    "trivial authenticated endpoint" — same middleware, key guard, rate limit and scopes, no query).
 * 2. Generates the estate inside ClickHouse (scripts/bench/estate.ts) and copies it into PostgreSQL.
 * 3. Per case: the API over HTTP and, in alternation with it, the very statements the API sent for that
 *    request (captured from ClickhouseService) run directly on ClickHouse, concurrently as the API runs
 *    them, and the same statements behind a bare Node http server in the API's process (bare-relay.ts: the
 *    cost of the extra hop alone). Warm-up, then p50/p95/p99. Every timed request is sent from one child process
 *    (measuring-client.ts), so this process only serves the API, as in production.
 * 4. The 12-month monthly case with the aggregate projection disabled (optimize_use_projections = 0) vs enabled;
 *    then the equivalent PostgreSQL statements of every case (after all the API and ClickHouse timings).
 * 5. autocannon against the probe route and a tiny /data request (repeated: answer cache; and computed afresh),
 *    then the largest case computed afresh under the same load; API RSS sampled throughout.
 * 6. Issue 34, with --activated (off by default: the back-fill rewrites the measured organisation's partitions, a
 *    re-import's work, and changes the estate every later phase would read): the measured organisation activates the keys the tag pairs name through
 *    PUT /v1/admin/tag-keys; the back-fill is timed, every pair must answer the same bytes as on the full maps (the
 *    bench fails otherwise), the tag pairs are measured again (tag-activated ÷ column) and the disk of the activated
 *    columns and projections is read per million of the organisation's line items.
 * 7. Issue 56, with --categories: the measured organisation defines a cost category by 100 rules and 3 shared-cost
 *    splits (categories.ts) through PUT /v1/admin/cost-categories after every other measurement; the /data tag pairs asked by that category
 *    are measured against the same questions by a column (category ÷ column), each answer's total checked equal.
 * Results: bench/results/<timestamp>.json and .md.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, platform, release } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from '../../src/app.factory';
import { AppModule } from '../../src/app.module';
import { loadConfig } from '../../src/config/app-config';
import type { SettingOverrides } from '../../src/config/settings';
import { applyHeapGrowing } from '../../src/config/heap-tuning';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { ok } from '../../src/common/http/envelope';
import { RequireScopes } from '../../src/common/http/request-context';
import { ClickhouseService, StatementParameters } from '../../src/store/clickhouse/clickhouse.service';
import { prepareStore } from '../../src/startup';
import { startClickhouseWithQueryLog } from '../../test/support/app-with-env';
import { freePort, startRedisServer } from '../../test/support/local-servers';
import { answerStatementFilter } from './answer-statements';
import { BENCH_CATEGORY, benchCategoryDefinition, CATEGORY_PAIRS, totalOf } from './categories';
import { BENCH_BUDGETS, benchBudget, STATUS_BUDGETS, statusWindowQuestion, UNIT_COST_PAIRS } from './budgets';
import { BudgetsService } from '../../src/budgets/budgets.service';
import { BudgetAlertsService } from '../../src/budgets/budget-alerts.service';
import { addDays, todayUtc } from '../../src/common/dates/calendar-date';
import { BusinessMetricsService } from '../../src/unit-costs/business-metrics.service';
import { ACTIVATED_KEYS, CASES, CONVERSION_CASES, insightCases, PROJECTION_CASE, TAG_PAIRS, TAG_PROJECTION_CASE, TagPair } from './cases';
import { activatedDisk, activateThroughRoute, answerBytes, checkKeysCoverPairs, describeDisk, firstDifference } from './activated';
import { judgeTargets } from './targets';
import {
  CONVERTED_TWIN_ORGANIZATION,
  DAYS as ESTATE_DAYS,
  FIRST_DAY as ESTATE_FIRST_DAY,
  generateConvertedTwin,
  ESTATE_SHAPES,
  EstateShape,
  generateEstate,
  loadPostgres,
  MEASURED_ORGANIZATION,
  PG_TABLE,
} from './estate';
import { startBareRelay } from './bare-relay';
import { startMeasuringClient, Statement, Task } from './measuring-client';
import { round, Stats, stats } from './stats';
import { metrics } from '../../src/observability/prometheus-metrics';
import { runClusterBench } from './cluster';
import { writeGrowthReport } from './growth';

@Controller('bench')
class BenchProbeController {
  @Get('ping')
  @RequireScopes('cost:read')
  ping() {
    return ok({ pong: true });
  }
}

/** Flags the growth run sets itself per size, not passed on as given: these with their values, and --growth. */
const GROWTH_OWN_VALUED_FLAGS = ['--sizes', '--rows', '--dir'];

/**
 * Issue 61's curve: this bench once per estate size, each in a process of its own on a store of its own (removed after
 * it, the 100M one is ~10 GB), then the growth report of their results.
 */
async function runGrowth(): Promise<void> {
  const sizes = arg('sizes', '1000000,10000000,100000000').split(',').map(Number);
  if (sizes.length < 2 || sizes.some((size) => !Number.isInteger(size) || size < 100_000))
    throw new Error('--sizes: two or more row counts, each ≥ 100000');
  const given = process.argv.slice(2);
  const passed = given.filter(
    (value, i) => value !== '--growth' && !GROWTH_OWN_VALUED_FLAGS.includes(value) && !GROWTH_OWN_VALUED_FLAGS.includes(given[i - 1]),
  );
  const files: string[] = [];
  for (const size of sizes) {
    const dir = resolve(`${arg('dir', '.test-tmp/bench-api')}-growth-${size}`);
    log(`== growth: ${size.toLocaleString('en-US')} line items`);
    const output = await new Promise<string>((done, fail) => {
      const child = spawn(process.execPath, [__filename, ...passed, '--rows', String(size), '--dir', dir], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        process.stdout.write(chunk);
      });
      child.on('exit', (code) => (code === 0 ? done(text) : fail(new Error(`the bench of ${size} line items ended with ${code}`))));
    });
    rmSync(dir, { recursive: true, force: true });
    const stamp = /written to bench\/results\/(\S+)\.\{json,md\}/.exec(output)?.[1];
    if (!stamp) throw new Error(`the bench of ${size} line items named no result`);
    files.push(resolve('bench/results', `${stamp}.json`));
  }
  writeGrowthReport(files);
}

@Module({ imports: [AppModule], controllers: [BenchProbeController] })
class BenchAppModule {}

/** The estate written (and merged, as an import leaves each partition: one part). */
async function writeEstate(
  clickhouse: ClickhouseService,
  rows: number,
  shape: EstateShape,
  skipConversion: boolean,
): Promise<{ generateSeconds: number; optimizeSeconds: number }> {
  log(`generating ${rows.toLocaleString('en-US')} rows (${shape}) in ClickHouse…`);
  let began = Date.now();
  await generateEstate(clickhouse, rows, log, shape);
  // Before the merges below, so the twin's partitions are merged alike.
  if (!skipConversion) await generateConvertedTwin(clickhouse);
  const generateSeconds = (Date.now() - began) / 1000;
  began = Date.now();
  // One partition at a time: each statement stays well inside the client's request timeout at any --rows.
  const partitions = await clickhouse.query<{ partition_id: string }>(
    `SELECT DISTINCT partition_id FROM system.parts WHERE database = {db:String} AND table = 'cost_line_items' AND active`,
    { db: clickhouse.database },
  );
  for (const { partition_id } of partitions) {
    if (!/^[0-9a-z_-]+$/i.test(partition_id)) throw new Error(`unexpected partition id ${partition_id}`); // engine-made: a hash
    await clickhouse.client.command({
      query: `OPTIMIZE TABLE ${clickhouse.table('cost_line_items')} PARTITION ID '${partition_id}' FINAL`,
      clickhouse_settings: { max_execution_time: 0 },
    });
  }
  const optimizeSeconds = (Date.now() - began) / 1000;
  log(`  OPTIMIZE FINAL in ${optimizeSeconds.toFixed(1)} s (an import writes each partition once, as one part)`);
  return { generateSeconds, optimizeSeconds };
}

interface WrittenEstate {
  rows: number;
  shape: EstateShape;
  skipConversion: boolean;
  generateSeconds: number;
  optimizeSeconds: number;
}

/** The estate an earlier run wrote in this directory, if it is the one asked for. */
function reusableEstate(file: string, rows: number, shape: EstateShape, skipConversion: boolean): WrittenEstate {
  if (!existsSync(file)) throw new Error(`--reuse-store: no estate in ${file}; run once without it`);
  const written = JSON.parse(readFileSync(file, 'utf8')) as WrittenEstate;
  if (written.rows !== rows || written.shape !== shape || written.skipConversion !== skipConversion)
    throw new Error(`--reuse-store: ${file} holds ${JSON.stringify(written)}, not the estate asked for`);
  return written;
}

/** The reused estate without what an earlier run's phases defined in it (budgets, rule-defined categories, alerts). */
async function clearedForReuse(clickhouse: ClickhouseService, written: WrittenEstate): Promise<WrittenEstate> {
  log(
    `reusing the estate of ${written.rows.toLocaleString('en-US')} rows (written in ${written.generateSeconds} s, merged in ${written.optimizeSeconds} s)`,
  );
  for (const table of ['budget_versions', 'budget_alerts', 'budget_webhook_attempts', 'cost_category_versions'] as const)
    await clickhouse.client.command({ query: `TRUNCATE TABLE ${clickhouse.table(table)}` });
  return written;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}
const flag = (name: string) => process.argv.includes(`--${name}`);
const log = (message: string) => process.stdout.write(`${message}\n`);

async function main(): Promise<void> {
  if (flag('growth')) return runGrowth();
  if (flag('cluster')) {
    const options = { rows: Number(arg('rows', '10000000')), runs: Number(arg('runs', '40')), warmup: Number(arg('warmup', '3')) };
    return runClusterBench({ ...options, dir: arg('dir', '.test-tmp/bench-cluster') });
  }
  const rows = Number(arg('rows', '10000000'));
  const runs = Number(arg('runs', '40'));
  const warmup = Number(arg('warmup', '3'));
  const pgRuns = Number(arg('pg-runs', '5'));
  const pgDatabase = arg('pg-db', 'test');
  const duration = Number(arg('duration', '10'));
  const connections = Number(arg('connections', '16'));
  const dir = resolve(arg('dir', '.test-tmp/bench-api'));
  const skipPostgres = flag('skip-postgres');
  // A growth run (issue 34's 100M) needs no converted twin: at 100M it is 70M more rows to write and merge.
  const skipConversion = flag('skip-conversion');
  const measureActivatedKeys = flag('activated');
  const measureRuleCategories = flag('categories');
  const measureBudgets = flag('budgets');
  const measureUnitCostsFlag = flag('unit-costs');
  const measureCommitmentsFlag = flag('commitments');
  const shape = arg('estate', 'own-dimensions') as EstateShape;
  if (!ESTATE_SHAPES.includes(shape)) throw new Error(`--estate: one of ${ESTATE_SHAPES.join(', ')}`);
  // A 100M estate takes half an hour to write and merge: --reuse-store measures the one a run left in --dir.
  const estateFile = join(dir, 'estate.json');
  const reused = flag('reuse-store') ? reusableEstate(estateFile, rows, shape, skipConversion) : undefined;
  if (reused) {
    // The earlier run's own writes go: budgets and categories are defined anew below, stored sums read afresh. So
    // does its query log: the server recreates system.query_log at its first flush, and an old one's files stop it.
    rmSync(join(dir, 'redis'), { recursive: true, force: true });
    rmSync(join(dir, 'clickhouse', 'data', 'data', 'system'), { recursive: true, force: true });
  } else {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }

  const server = await startClickhouseWithQueryLog(join(dir, 'clickhouse'));
  // Budgets keep their sums in Redis (stored for the same data and day): that case gets a Redis of its own.
  const redis = measureBudgets ? await startRedisServer(join(dir, 'redis')) : undefined;
  if (redis) process.on('exit', () => void redis.stop());
  // The server is a detached child: never leave it behind, whatever happens below.
  process.on('exit', () => {
    try {
      process.kill(server.pid, 'SIGKILL');
    } catch {
      // already stopped
    }
  });
  log(`ClickHouse server (libchdb) at ${server.url}`);
  const port = await freePort();
  const settings: SettingOverrides = {
    CLICKHOUSE_URL: server.url,
    CLICKHOUSE_DATABASE: 'bench',
    CLICKHOUSE_MAX_EXECUTION_SECONDS: '120',
    DEMO_ON_EMPTY_STORE: 'false',
    RATE_LIMIT_PER_MINUTE: '1000000',
    // Nothing in the background: the worker's rounds (budget evaluations, sources) would race the measured ones.
    INGEST_WORKER: 'false',
    LOG_LEVEL: 'warn', // request logs would go to this terminal; the per-request cost is the same for both routes
    PORT: String(port),
    REDIS_URL: redis?.url,
  };
  // As main.ts does for production (the measuring client applies the same setting to itself).
  const { heapGrowingPercent } = loadConfig({ ...process.env, ...settings });
  applyHeapGrowing(heapGrowingPercent);
  const app = await createApp({ module: BenchAppModule, settings });
  await prepareStore(app);
  await app.listen(port);
  const base = `http://127.0.0.1:${port}`;
  const clickhouse = app.get(ClickhouseService);
  // The floor of any HTTP service in front of ClickHouse: the same statements behind a bare Node server in this process.
  const relay = await startBareRelay(clickhouse);

  // RSS of this process (the API) sampled every 100 ms.
  let rssPeak = 0;
  const rssTimer = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);
  const resetRss = () => (rssPeak = process.memoryUsage().rss);

  const { generateSeconds, optimizeSeconds } = reused
    ? await clearedForReuse(clickhouse, reused)
    : await writeEstate(clickhouse, rows, shape, skipConversion);
  if (!reused) writeFileSync(estateFile, JSON.stringify({ rows, shape, skipConversion, generateSeconds, optimizeSeconds }));
  const [facts] = await clickhouse.query<Record<string, string>>(
    `SELECT version() AS version, toString(count()) AS total_rows,
            toString(countIf(organization_id = {org:UUID})) AS measured_rows,
            toString((SELECT count() FROM system.parts WHERE database = {db:String} AND table = 'cost_line_items' AND active)) AS parts,
            toString((SELECT groupArray(name) FROM system.projections WHERE database = {db:String} AND table = 'cost_line_items')) AS projections
     FROM ${clickhouse.table('cost_line_items')}`,
    { org: MEASURED_ORGANIZATION, db: clickhouse.database },
  );
  log(
    `  ${facts.total_rows} rows, ${facts.measured_rows} in the measured organisation, ${facts.parts} parts, projections ${facts.projections}`,
  );

  let pgVersion = 'skipped';
  let pgLoadSeconds = 0;
  if (!skipPostgres) {
    log('loading PostgreSQL…');
    const began = Date.now();
    pgVersion = await loadPostgres(clickhouse, pgDatabase, join(dir, 'estate.csv'), log);
    pgLoadSeconds = (Date.now() - began) / 1000;
    rmSync(join(dir, 'estate.csv'), { force: true });
  }

  // Every timed request comes from this child process; this one only serves the API (and samples its RSS).
  const client = startMeasuringClient(settings, skipPostgres ? undefined : { database: pgDatabase });
  process.on('exit', () => client.stop());

  const { key } = await app.get(ApiKeysService).create(MEASURED_ORGANIZATION, 'bench', ['cost:read']);
  const { key: twinKey } = await app.get(ApiKeysService).create(CONVERTED_TWIN_ORGANIZATION, 'bench', ['cost:read']);
  // Latency cases ask for freshly computed answers (Cache-Control: no-cache): the API's answer cache would
  // otherwise answer every repetition from memory. Cached latency is measured separately.
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const apiRequest = (path: string, body: unknown, cached = false, as = key): Task => ({
    kind: 'http',
    url: `${base}${path}`,
    headers: { ...headers, Authorization: `Bearer ${as}`, ...(cached ? {} : { 'Cache-Control': 'no-cache' }) },
    body: JSON.stringify(body),
  });

  // Statement capture: every cost statement the API sends while `capturing` is set.
  let capturing: Statement[] | undefined;
  const isCostStatement = answerStatementFilter(clickhouse.table('cost_line_items'));
  const originalQuery = clickhouse.query.bind(clickhouse);
  clickhouse.query = (async (sql: string, params: StatementParameters = {}) => {
    if (capturing && isCostStatement(sql)) capturing.push({ sql, params, format: 'JSONEachRow' });
    return originalQuery(sql, params);
  }) as typeof clickhouse.query;
  const originalQueryRaw = clickhouse.queryRaw.bind(clickhouse);
  clickhouse.queryRaw = (async (sql: string, params: StatementParameters = {}) => {
    if (capturing && isCostStatement(sql)) capturing.push({ sql, params, format: 'TabSeparatedRaw' });
    return originalQueryRaw(sql, params);
  }) as typeof clickhouse.queryRaw;
  /** Asks the API once (from the client) and returns the statements it sent ClickHouse, and the answer's size. */
  const capture = async (request: Task) => {
    capturing = [];
    const outcome = await client.once(request);
    const statements = capturing;
    capturing = undefined;
    return { statements, bytes: outcome.bytes };
  };

  // The statements as the API sends them (with the settings the API's reads carry), read as the API reads
  // them (parsed rows, or the bytes).
  const readSettings = await clickhouse.readSettings();
  const direct = (statements: Statement[], extraSettings: Record<string, number> = {}, tagQueryIds = false): Task => ({
    kind: 'clickhouse',
    statements,
    settings: { ...readSettings, ...extraSettings } as Record<string, string | number>,
    tagQueryIds,
  });

  /**
   * What the engine itself reports for statements run with query ids (system.query_log): the time from start
   * to finish, and the rows read by the last run's statements. X-ClickHouse-Summary cannot tell: the server
   * sends it with the response headers, i.e. as soon as the first result bytes are ready, so a statement that
   * answers while still reading (e.g. the branches of /filters' UNION ALL) reports only what it had read by then.
   */
  const engineFacts = async (ids: string[], lastRunIds: string[]) => {
    // A statement's QueryFinish entry may be logged just after its client got the last byte: flush and ask again.
    let rows: { id: string; us: string; read_rows: string }[] = [];
    for (let attempt = 0; attempt < 20 && rows.length !== ids.length; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 250));
      await clickhouse.command('SYSTEM FLUSH LOGS');
      rows = await clickhouse.query<{ id: string; us: string; read_rows: string }>(
        `SELECT query_id AS id, toString(dateDiff('microsecond', query_start_time_microseconds, event_time_microseconds)) AS us,
                toString(read_rows) AS read_rows
         FROM system.query_log WHERE type = 'QueryFinish' AND query_id IN {ids:Array(String)}`,
        { ids },
      );
    }
    if (rows.length !== ids.length) throw new Error(`system.query_log has ${rows.length} of ${ids.length} statements`);
    const last = new Set(lastRunIds);
    return {
      engine: stats(rows.map((row) => Number(row.us) / 1000)),
      readRows: rows.filter((row) => last.has(row.id)).reduce((total, row) => total + Number(row.read_rows), 0),
    };
  };

  // The floor of any statement on this server: one trivial round trip.
  const selectOne = stats(
    (await client.series(warmup, runs, direct([{ sql: 'SELECT 1 AS one', params: {}, format: 'JSONEachRow' }]))).samples[0],
  );
  log(`ClickHouse round trip (SELECT 1): p50 ${selectOne.p50} ms`);

  // All API and ClickHouse latencies first, PostgreSQL afterwards: its multi-second scans and spilled sorts leave
  // the 2 cores busy (writeback, cache refills) for a while after they finish, which would weigh on whichever
  // case came next — and more on the API's path (three processes in turn) than on the direct one (two).
  const results: Array<
    Record<string, unknown> & { case: string; api: Stats; clickhouse: Stats; postgres?: Stats; postgresOverApiP50?: number }
  > = [];
  resetRss();
  for (const c of CASES) {
    log(`case: ${c.name}`);
    const { statements, bytes } = await capture(apiRequest(c.path, c.body));
    // Query ids on the direct statements: rows read and engine time come from system.query_log.
    const relayRequest: Task = {
      kind: 'http',
      url: relay.route(statements),
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(c.body),
    };
    const alternated = await client.alternated(warmup, runs, [apiRequest(c.path, c.body), direct(statements, {}, true), relayRequest]);
    const [api, raw, bare] = alternated.samples.map(stats);
    const apiCached = stats((await client.series(warmup, runs, apiRequest(c.path, c.body, true))).samples[0]);
    const { readRows, engine } = await engineFacts(alternated.queryIds[1], alternated.last[1].queryIds);
    const entry = {
      case: c.name,
      path: c.path,
      body: c.body,
      responseBytes: bytes,
      clickhouseStatements: statements.length,
      clickhouseReadRows: readRows,
      clickhouseEngine: engine,
      api,
      apiCached,
      clickhouse: raw,
      relay: bare,
      apiOverClickhouseP50: round(api.p50 / raw.p50),
      apiMinusClickhouseP50: round(api.p50 - raw.p50),
      relayOverClickhouseP50: round(bare.p50 / raw.p50),
      apiOverRelayP50: round(api.p50 / bare.p50),
    };
    results.push(entry);
    log(
      `  API p50 ${api.p50} ms (p95 ${api.p95}), ClickHouse p50 ${raw.p50} ms → ×${entry.apiOverClickhouseP50} (+${entry.apiMinusClickhouseP50} ms); ` +
        `bare relay p50 ${bare.p50} ms → ×${entry.relayOverClickhouseP50}; engine p50 ${engine.p50} ms, read ${readRows.toLocaleString('en-US')} rows`,
    );
  }
  const rssQueriesPeak = rssPeak;

  // Issue 23: each question by a tag against the same question by a column, on the API and on ClickHouse, alternated.
  // Measured again (issue 34) once the keys the pairs name are activated: `label` says which.
  const measureTagPair = async (pair: TagPair, label: string) => {
    const { statements: columnStatements } = await capture(apiRequest(pair.path, pair.column));
    const { statements: tagStatements } = await capture(apiRequest(pair.path, pair.tag));
    const measuredPair = await client.alternated(warmup, runs, [
      apiRequest(pair.path, pair.column),
      apiRequest(pair.path, pair.tag),
      direct(columnStatements, {}, true),
      direct(tagStatements, {}, true),
    ]);
    const [columnApi, tagApi, columnClickhouse, tagClickhouse] = measuredPair.samples.map(stats);
    const columnFacts = await engineFacts(measuredPair.queryIds[2], measuredPair.last[2].queryIds);
    const tagFacts = await engineFacts(measuredPair.queryIds[3], measuredPair.last[3].queryIds);
    const entry = {
      pair: pair.name,
      column: { api: columnApi, clickhouse: columnClickhouse, engine: columnFacts.engine, readRows: columnFacts.readRows },
      tag: { api: tagApi, clickhouse: tagClickhouse, engine: tagFacts.engine, readRows: tagFacts.readRows },
      tagOverColumnApiP50: round(tagApi.p50 / columnApi.p50),
      tagOverColumnEngineP50: round(tagFacts.engine.p50 / columnFacts.engine.p50),
    };
    log(
      `${label}: ${pair.name}: API ${columnApi.p50} → ${tagApi.p50} ms (×${entry.tagOverColumnApiP50}), engine ${columnFacts.engine.p50} → ` +
        `${tagFacts.engine.p50} ms (×${entry.tagOverColumnEngineP50}), rows read ${columnFacts.readRows.toLocaleString('en-US')} → ${tagFacts.readRows.toLocaleString('en-US')}`,
    );
    return { entry, tagStatements };
  };
  const tagPairs: Awaited<ReturnType<typeof measureTagPair>>['entry'][] = [];
  for (const pair of TAG_PAIRS) tagPairs.push((await measureTagPair(pair, 'tag pair')).entry);

  // Issue 29: the same question converted (the twin's Azure rows are EUR) and not (the measured organisation's are USD).
  // The first converted question is answered from the cost rows and starts the build of the twin's converted sums;
  // the pairs are measured once answers read it (the steady state), and the build's wait is reported.
  let convertedSumsBuildSeconds: number | undefined;
  const conversions = [];
  if (!skipConversion) {
    const buildStartedAt = Date.now();
    convertedSumsBuildSeconds = await untilBuildRead(metrics.convertedAnswers, 'converted_sums', 'converted sums', () =>
      client.once(apiRequest(CONVERSION_CASES[0].path, CONVERSION_CASES[0].body, false, twinKey)),
    );
    log(`conversion: converted sums built and read ${round((Date.now() - buildStartedAt) / 1000)} s after the first converted question`);
  }
  for (const question of skipConversion ? [] : CONVERSION_CASES) {
    const converted = (await client.once(apiRequest(question.path, question.body, false, twinKey))).bytes;
    const pair = await client.alternated(warmup, runs, [
      apiRequest(question.path, question.body),
      apiRequest(question.path, question.body, false, twinKey),
    ]);
    const [unconvertedApi, convertedApi] = pair.samples.map(stats);
    const entry = {
      case: question.name,
      unconverted: unconvertedApi,
      converted: convertedApi,
      convertedOverUnconvertedApiP50: round(convertedApi.p50 / unconvertedApi.p50),
    };
    conversions.push(entry);
    log(
      `conversion: ${question.name}: API ${unconvertedApi.p50} → ${convertedApi.p50} ms (×${entry.convertedOverUnconvertedApiP50}), converted answer ${converted} bytes`,
    );
  }

  // Issue 32: a forecast and an anomaly scan against the /data question that reads the same days, alternated.
  const measureInsights = async (label: string) => {
    const measured = [];
    for (const question of insightCases()) {
      const pair = await client.alternated(warmup, runs, [
        apiRequest(question.data.path, question.data.body),
        apiRequest(question.insight.path, question.insight.body),
      ]);
      const [dataApi, insightApi] = pair.samples.map(stats);
      const answered = await insightAnswered(apiRequest(question.insight.path, question.insight.body));
      const entry = {
        case: question.name,
        data: dataApi,
        insight: insightApi,
        insightOverDataApiP50: round(insightApi.p50 / dataApi.p50),
        answered,
      };
      measured.push(entry);
      log(`${label}: ${question.name}: /data ${dataApi.p50} → ${insightApi.p50} ms (×${entry.insightOverDataApiP50}), ${answered}`);
    }
    return measured;
  };
  const insights = await measureInsights('insights');

  // One question from the line items (projections off) against the same statements from a projection, alternated.
  // Each run's statements get query ids, so the engine's own time (system.query_log) is known too: the
  // client-observed time adds transfer and parsing of the answer, the same for both paths.
  const rawVersusProjection = async (label: string, question: { name: string; path: string; body: unknown }) => {
    const { statements } = await capture(apiRequest(question.path, question.body));
    const scans = await client.alternated(warmup, runs, [
      direct(statements, { optimize_use_projections: 0 }, true),
      direct(statements, { optimize_use_projections: 1 }, true),
    ]);
    const [rawScan, projected] = scans.samples.map(stats);
    const rawFacts = await engineFacts(scans.queryIds[0], scans.last[0].queryIds);
    const projectedFacts = await engineFacts(scans.queryIds[1], scans.last[1].queryIds);
    const measured = {
      rawScan: { ...rawScan, readRows: rawFacts.readRows },
      projection: { ...projected, readRows: projectedFacts.readRows },
      speedupP50: round(rawScan.p50 / projected.p50),
      engine: {
        rawScan: rawFacts.engine,
        projection: projectedFacts.engine,
        speedupP50: round(rawFacts.engine.p50 / projectedFacts.engine.p50),
      },
    };
    log(
      `${label}: raw p50 ${rawScan.p50} ms (${rawFacts.readRows} rows) vs ${projected.p50} ms (${projectedFacts.readRows} rows) → ×${measured.speedupP50}; ` +
        `in the engine ${rawFacts.engine.p50} vs ${projectedFacts.engine.p50} ms → ×${measured.engine.speedupP50}`,
    );
    return measured;
  };
  // The 12-month monthly case, and (issue 23) the 12-month monthly tag question against the tag projection (migration 0015).
  const projectionCase = CASES.find((c) => c.name === PROJECTION_CASE)!;
  const projection = {
    case: PROJECTION_CASE,
    projectionsDefined: facts.projections,
    ...(await rawVersusProjection('projection', projectionCase)),
  };
  const tagProjection = { case: TAG_PROJECTION_CASE.name, ...(await rawVersusProjection('tag projection', TAG_PROJECTION_CASE)) };

  // What the pre-aggregation costs on disk: the line items' own bytes and each projection's, per million line items.
  const storage = await clickhouse.query<{ name: string; bytes: string; rows: string }>(
    `SELECT 'line items' AS name, toString(sum(bytes_on_disk) - (SELECT sum(bytes_on_disk) FROM system.projection_parts
                                                                  WHERE database = {db:String} AND table = 'cost_line_items' AND active)) AS bytes,
            toString(sum(rows)) AS rows
     FROM system.parts WHERE database = {db:String} AND table = 'cost_line_items' AND active
     UNION ALL
     SELECT name, toString(sum(bytes_on_disk)), toString(sum(rows)) FROM system.projection_parts
     WHERE database = {db:String} AND table = 'cost_line_items' AND active GROUP BY name ORDER BY name`,
    { db: clickhouse.database },
  );
  const disk = storage.map((row) => ({
    name: row.name,
    rows: Number(row.rows),
    bytes: Number(row.bytes),
    mbPerMillionLineItems: round(Number(row.bytes) / 1e6 / (rows / 1e6)),
  }));
  log(`disk per million line items: ${disk.map((d) => `${d.name} ${d.mbPerMillionLineItems} MB`).join(', ')}`);

  if (!skipPostgres) {
    for (const [i, c] of CASES.entries()) {
      const postgres = stats((await client.series(1, pgRuns, { kind: 'postgres', statements: c.postgres })).samples[0]);
      const entry = results[i];
      entry.postgres = postgres;
      entry.postgresOverApiP50 = round(postgres.p50 / entry.api.p50);
      log(`PostgreSQL, ${c.name}: p50 ${postgres.p50} ms → API ${entry.postgresOverApiP50}× faster`);
    }
  }

  /**
   * Issue 34: snapshots every pair's answers on the full maps, activates ACTIVATED_KEYS through PUT /v1/admin/tag-keys
   * (timing the back-fill), requires the very same bytes afterwards, checks each tag question now reads the activated
   * columns, measures TAG_PAIRS again and reads the disk of the activated columns and projections before and after.
   */
  const measureActivated = async () => {
    checkKeysCoverPairs(TAG_PAIRS, ACTIVATED_KEYS);
    const { key: adminKey } = await app.get(ApiKeysService).create(MEASURED_ORGANIZATION, 'bench admin', ['tag-keys:admin']);
    const ask = (path: string, body: unknown) => answerBytes(`${base}${path}`, key, body);
    const before = [];
    for (const pair of TAG_PAIRS) before.push({ tag: await ask(pair.path, pair.tag), column: await ask(pair.path, pair.column) });
    const diskBefore = await activatedDisk(clickhouse, MEASURED_ORGANIZATION);
    log(`activated keys: ${JSON.stringify(ACTIVATED_KEYS)}; disk before: ${describeDisk(diskBefore)}`);
    const backfillSeconds = await activateThroughRoute(app, base, adminKey, ACTIVATED_KEYS);
    log(`activated keys: back-filled in ${backfillSeconds} s (${Number(facts.measured_rows).toLocaleString('en-US')} line items)`);
    for (const [i, pair] of TAG_PAIRS.entries()) {
      for (const side of ['tag', 'column'] as const) {
        const after = await ask(pair.path, pair[side]);
        if (!after.equals(before[i][side]))
          throw new Error(`ACTIVATED KEYS CHANGED AN ANSWER: ${pair.name} (${side}): ${firstDifference(before[i][side], after)}`);
      }
    }
    log(`activated keys: all ${TAG_PAIRS.length} pairs answer the same bytes as on the full maps`);
    // The data version an activation bumps is re-read within 2 × RESULT_CACHE_VERSION_CHECK_MS: until then a question
    // may still read the full maps. Each tag question must read the activated columns before it is measured.
    const readsActivated = (statements: Statement[]) => statements.some((s) => /\bactivated_(resource_tags|cost_categories)\b/.test(s.sql));
    const pairs = [];
    for (const pair of TAG_PAIRS) {
      for (let attempt = 0; !readsActivated((await capture(apiRequest(pair.path, pair.tag))).statements); attempt++) {
        if (attempt === 20) throw new Error(`${pair.name}: the tag question still reads the full maps after activation`);
        await new Promise((r) => setTimeout(r, 500));
      }
      const { entry, tagStatements } = await measureTagPair(pair, 'activated tag pair');
      if (!readsActivated(tagStatements)) throw new Error(`${pair.name}: the measured tag question read the full maps`);
      const onFullMaps = tagPairs.find((p) => p.pair === pair.name)!;
      pairs.push({ ...entry, fullMapsTagApiP50: onFullMaps.tag.api.p50, fullMapsTagOverColumnApiP50: onFullMaps.tagOverColumnApiP50 });
    }
    // Issue 32 again: the scan's root causes now look in the activated keys (its default once an organisation has some).
    const scan = insightCases().find((question) => question.insight.path.endsWith('/anomalies'))!.insight;
    for (let attempt = 0; !readsActivated((await capture(apiRequest(scan.path, scan.body))).statements); attempt++) {
      if (attempt === 20) throw new Error('the anomaly scan still reads the full maps after activation');
      await new Promise((r) => setTimeout(r, 500));
    }
    const insightsActivated = await measureInsights('activated insights');
    const diskAfter = await activatedDisk(clickhouse, MEASURED_ORGANIZATION);
    log(`activated keys: disk after (per million of the organisation's line items): ${describeDisk(diskAfter)}`);
    return {
      keys: ACTIVATED_KEYS,
      backfillSeconds,
      answersIdentical: true,
      pairs,
      insights: insightsActivated,
      disk: { before: diskBefore, after: diskAfter },
    };
  };

  /**
   * Issue 56: the /data tag pairs asked by a category of 100 rules instead (categories.ts), first without its shared-cost
   * splits, then with them; the totals must not move.
   */
  const measureCategories = async () => {
    const { key: adminKey } = await app.get(ApiKeysService).create(MEASURED_ORGANIZATION, 'bench categories', ['cost-categories:admin']);
    const definition = benchCategoryDefinition();
    const save = async (body: object) => {
      const saved = await fetch(`${base}/v1/admin/cost-categories/${BENCH_CATEGORY}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${adminKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (saved.status !== 200) throw new Error(`saving the bench category answered ${saved.status}: ${await saved.text()}`);
    };
    const ask = (path: string, body: unknown) => answerBytes(`${base}${path}`, key, body);
    // A saved version is answered by the rules until the organisation's category sums are built (in the background,
    // after the first question): the pairs are measured once answers read the build, and the build's wait is reported.
    const untilBuilt = async () => {
      const [first] = CATEGORY_PAIRS;
      return untilBuildRead(metrics.categoryAnswers, 'category_sums', 'category sums', () => ask(first.path, first.tag));
    };
    const measurePairs = async (label: string) => {
      const pairs = [];
      for (const pair of CATEGORY_PAIRS) {
        const [byCategory, byColumn] = [totalOf(await ask(pair.path, pair.tag)), totalOf(await ask(pair.path, pair.column))];
        if (byCategory !== byColumn) throw new Error(`${pair.name}: the category moved cost: ${byCategory} ≠ ${byColumn}`);
        const { entry, tagStatements } = await measureTagPair(pair, label);
        if (!tagStatements.some((statement) => statement.sql.includes('category_value_sums')))
          throw new Error(`${pair.name}: the category sums were not read`);
        pairs.push(entry);
      }
      return pairs;
    };
    const { splits, ...rulesOnly } = definition;
    await save(rulesOnly);
    const builtAfterSeconds = await untilBuilt();
    log(`categories: category sums of ${BENCH_CATEGORY} built and read ${builtAfterSeconds} s after its first question`);
    const pairs = await measurePairs('rule-defined category pair');
    await save(definition);
    const builtWithSplitsAfterSeconds = await untilBuilt();
    log(`categories: with its splits, built and read ${builtWithSplitsAfterSeconds} s after the first question`);
    const splitPairs = await measurePairs('rule-defined category pair with splits');
    return {
      category: BENCH_CATEGORY,
      rules: definition.rules.length,
      splits: splits.length,
      builtAfterSeconds,
      builtWithSplitsAfterSeconds,
      pairs,
      splitPairs,
    };
  };

  /**
   * Issue 58: 1,000 budgets evaluated as the worker does (three rounds: the first fires alerts, the others find nothing
   * new), and the status of 50 of them against one /data question over the months they read.
   */
  const measureBudgetCases = async () => {
    const owner = { organizationId: MEASURED_ORGANIZATION, dataScope: '', actor: 'bench' };
    const created = [];
    for (let i = 0; i < BENCH_BUDGETS; i++) created.push((await app.get(BudgetsService).create(owner, benchBudget(i))).budgetId);
    // Three rounds after a change of the data (a line item of no cost added: every sum read from ClickHouse anew), then
    // one of unchanged data (the hourly round: the sums the last round stored).
    let changes = 0;
    const changeTheData = () =>
      clickhouse.insert('cost_line_items', [
        {
          organization_id: MEASURED_ORGANIZATION,
          usage_date: todayUtc(),
          billing_period: todayUtc().slice(0, 7),
          billing_currency: 'USD',
          integration_id: 'bench-change',
          service: `bench change ${++changes}`,
        },
      ]);
    const evaluations = [];
    for (let round = 0; round < 4; round++) {
      const afresh = round < 3;
      if (afresh) await changeTheData();
      const began = Date.now();
      const alerts = await app.get(BudgetAlertsService).evaluate(MEASURED_ORGANIZATION);
      evaluations.push({ seconds: (Date.now() - began) / 1000, alerts: alerts.length, afresh });
      log(
        `budgets: evaluating ${BENCH_BUDGETS} took ${evaluations.at(-1)!.seconds} s (${alerts.length} alerts, ${afresh ? 'sums read afresh' : 'sums stored'})`,
      );
    }
    const statusIds = created.filter((_, i) => i % 3 === 0).slice(0, STATUS_BUDGETS);
    const status = apiRequest('/v1/cost-insights/budgets', { budgetIds: statusIds });
    const data = apiRequest('/v1/cost-insights/data', statusWindowQuestion(todayUtc()));
    const pair = await client.alternated(warmup, Math.min(runs, 20), [status, data]);
    const [statusApi, dataApi] = pair.samples.map(stats);
    const statusOverData = round(statusApi.p50 / dataApi.p50);
    log(
      `budgets: status of ${STATUS_BUDGETS} monthly budgets ${statusApi.p50} ms (their sums stored by the evaluation), /data over the same 13 months ${dataApi.p50} ms (×${statusOverData})`,
    );
    // The first status after the data changed: its sums read from ClickHouse (a line item of no cost added before each run).
    const afresh: number[] = [];
    for (let run = 0; run < warmup + Math.min(runs, 20); run++) {
      await changeTheData();
      const began = performance.now();
      await app.get(BudgetsService).statusAnswer(owner, statusIds);
      if (run >= warmup) afresh.push(performance.now() - began);
    }
    const afreshStats = stats(afresh);
    const afreshOverData = round(afreshStats.p50 / dataApi.p50);
    log(`budgets: the same status with its sums read afresh ${afreshStats.p50} ms in process (×${afreshOverData} the /data answer)`);
    return {
      budgets: BENCH_BUDGETS,
      evaluations,
      statusBudgets: STATUS_BUDGETS,
      status: statusApi,
      data: dataApi,
      statusOverDataP50: statusOverData,
      statusAfresh: afreshStats,
      statusAfreshOverDataP50: afreshOverData,
    };
  };

  /** Issue 60: /unit-costs against the /data question of the same window and grouping (a metric of every day of the estate). */
  const measureUnitCosts = async () => {
    const metrics = app.get(BusinessMetricsService);
    await metrics.define(MEASURED_ORGANIZATION, 'orders', { unit: 'order', unitScale: 1000 }, 'bench');
    const days = Array.from({ length: ESTATE_DAYS }, (_, i) => addDays(ESTATE_FIRST_DAY, i));
    await metrics.load(
      MEASURED_ORGANIZATION,
      'orders',
      days.map((date, i) => ({ date, value: String(1_000 + (i % 7) * 50) })),
    );
    const pairs = [];
    for (const [name, window, grouping] of UNIT_COST_PAIRS) {
      const filters = { inclusions: { dateRange: window } };
      const unitCosts = apiRequest('/v1/cost-insights/unit-costs', { metric: 'orders', filters, groupBy: { dateGrouping: grouping } });
      const data = apiRequest('/v1/cost-insights/data', { filters, groupBy: { dateGrouping: grouping } });
      const pair = await client.alternated(warmup, Math.min(runs, 20), [unitCosts, data]);
      const [unitCostsApi, dataApi] = pair.samples.map(stats);
      pairs.push({ name, unitCosts: unitCostsApi, data: dataApi, unitCostsOverDataP50: round(unitCostsApi.p50 / dataApi.p50) });
      log(`unit costs: ${name}: ${unitCostsApi.p50} ms against /data ${dataApi.p50} ms (×${pairs.at(-1)!.unitCostsOverDataP50})`);
    }
    return { pairs };
  };

  /** Issue 57: /commitments against the /data question of the same window and grouping (the estate's savings plans). */
  const measureCommitments = async () => {
    const pairs = [];
    // The issue's target question first: 12 months without a series (each commitment's figures and the total).
    const twelveMonths = UNIT_COST_PAIRS.find(([, , grouping]) => grouping === 'monthly')!;
    const questions = [
      ['12 months, no series (/data: monthly)', twelveMonths[1], undefined, twelveMonths[2]] as const,
      ...UNIT_COST_PAIRS.map(([name, window, grouping]) => [name, window, grouping, grouping] as const),
    ];
    for (const [name, window, grouping, dataGrouping] of questions) {
      const filters = { inclusions: { dateRange: window } };
      const commitments = apiRequest('/v1/cost-insights/commitments', { filters, dateGrouping: grouping });
      const data = apiRequest('/v1/cost-insights/data', { filters, groupBy: { dateGrouping: dataGrouping } });
      const pair = await client.alternated(warmup, Math.min(runs, 20), [commitments, data]);
      const [commitmentsApi, dataApi] = pair.samples.map(stats);
      pairs.push({ name, commitments: commitmentsApi, data: dataApi, commitmentsOverDataP50: round(commitmentsApi.p50 / dataApi.p50) });
      log(`commitments: ${name}: ${commitmentsApi.p50} ms against /data ${dataApi.p50} ms (×${pairs.at(-1)!.commitmentsOverDataP50})`);
    }
    return { pairs };
  };

  // Small-request throughput.
  const tiny = {
    groupBy: { dateGrouping: 'daily', dimension: 'service' },
    filters: {
      inclusions: { dateRange: { start: '2026-10-15', end: '2026-10-15' }, services: ['AWS Service 05'], accountIds: ['100000000007'] },
    },
  };
  await client.once(apiRequest('/v1/cost-insights/data', tiny, true));
  resetRss();
  const probe = await autocannon(`${base}/v1/bench/ping`, 'GET', key, undefined, duration, connections);
  // A dashboard repeating its question (answer cache), and every request computed afresh (no-cache).
  const data = await autocannon(`${base}/v1/cost-insights/data`, 'POST', key, JSON.stringify(tiny), duration, connections);
  const dataFresh = await autocannon(`${base}/v1/cost-insights/data`, 'POST', key, JSON.stringify(tiny), duration, connections, true);
  const rssLoadPeak = rssPeak;
  // Memory under heavy load: the largest answer of the cases (12 months × every account), computed afresh
  // by every request from as many connections as the throughput runs use.
  const heavy = CASES.find((c) => c.name === PROJECTION_CASE)!;
  resetRss();
  const heavyLoad = await autocannon(`${base}${heavy.path}`, 'POST', key, JSON.stringify(heavy.body), duration, connections, true);
  const rssHeavyPeak = rssPeak;
  log(
    `heavy load (${heavy.name}, afresh): ${heavyLoad.requestsPerSecond} req/s, p99 ${heavyLoad.latencyP99} ms, RSS peak ${round(rssHeavyPeak / 1024 ** 2)} MiB`,
  );
  const throughput = {
    connections,
    durationSeconds: duration,
    probe,
    tinyData: data,
    tinyDataOverProbe: round(data.requestsPerSecond / probe.requestsPerSecond),
    tinyDataFresh: dataFresh,
    tinyDataFreshOverProbe: round(dataFresh.requestsPerSecond / probe.requestsPerSecond),
  };
  log(
    `throughput: probe ${probe.requestsPerSecond} req/s, tiny /data ${data.requestsPerSecond} req/s → ${throughput.tinyDataOverProbe}, ` +
      `computed afresh ${dataFresh.requestsPerSecond} req/s → ${throughput.tinyDataFreshOverProbe}`,
  );
  clearInterval(rssTimer);

  // Issue 34: the keys the tag pairs name activated for the measured organisation, after every measurement above
  // (all on the full maps), so none of them is changed by it. Then the same pairs again: tag-activated ÷ column.
  const activated = measureActivatedKeys ? await measureActivated() : undefined;
  const ruleCategories = measureRuleCategories ? await measureCategories() : undefined;
  const budgets = measureBudgets ? await measureBudgetCases() : undefined;
  const unitCosts = measureUnitCostsFlag ? await measureUnitCosts() : undefined;
  const commitments = measureCommitmentsFlag ? await measureCommitments() : undefined;

  const machine = {
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    memoryGiB: round(totalmem() / 1024 ** 3),
    os: `${platform()} ${release()}`,
    node: process.version,
    clickhouse: `${facts.version} (libchdb HTTP server, same machine)`,
    postgres: pgVersion,
  };
  const measured = {
    startedAt: new Date().toISOString(),
    machine,
    estate: {
      rows,
      shape,
      measuredOrganizationRows: Number(facts.measured_rows),
      parts: Number(facts.parts),
      generateSeconds,
      optimizeSeconds,
      postgresLoadSeconds: pgLoadSeconds,
      postgresTable: PG_TABLE,
    },
    settings: { runs, warmup, pgRuns, readSettings, heapGrowingPercent },
    clickhouseSelectOne: selectOne,
    cases: results,
    projection,
    tagPairs,
    tagProjection,
    activated,
    ruleCategories,
    budgets,
    unitCosts,
    commitments,
    conversions,
    convertedSumsBuildSeconds,
    insights,
    disk,
    throughput,
    heavyLoad: { case: heavy.name, ...heavyLoad },
    apiRss: {
      peakDuringCasesMiB: round(rssQueriesPeak / 1024 ** 2),
      peakDuringThroughputMiB: round(rssLoadPeak / 1024 ** 2),
      peakDuringHeavyLoadMiB: round(rssHeavyPeak / 1024 ** 2),
    },
  };
  const report = { ...measured, targets: judgeTargets(measured) };
  const outDir = resolve('bench/results');
  mkdirSync(outDir, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  writeFileSync(join(outDir, `${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(outDir, `${stamp}.md`), markdown(report));
  log(`\n${markdown(report)}\nwritten to bench/results/${stamp}.{json,md}`);

  client.stop();
  // Requests autocannon left in flight finish before the store goes away.
  await new Promise((r) => setTimeout(r, 2000));
  await relay.close();
  await app.close();
  await server.stop();
  process.exit(0);
}

interface CannonResult {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
  errors: number;
}

/** autocannon in a child process, so the load generator does not share the API's event loop. */
function autocannon(
  url: string,
  method: string,
  key: string,
  body: string | undefined,
  duration: number,
  connections: number,
  fresh = false,
): Promise<CannonResult> {
  const args = [
    require.resolve('autocannon/autocannon.js'),
    '--json',
    '-c',
    String(connections),
    '-d',
    String(duration),
    '-m',
    method,
    '-H',
    `Authorization=Bearer ${key}`,
  ];
  if (fresh) args.push('-H', 'Cache-Control=no-cache');
  if (body) args.push('-H', 'Content-Type=application/json', '-b', body);
  args.push(url);
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', () => {
      try {
        const r = JSON.parse(out);
        resolveRun({
          requestsPerSecond: r.requests.average,
          latencyP50: r.latency.p50,
          latencyP99: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors,
        });
      } catch (error) {
        reject(error);
      }
    });
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function markdown(report: any): string {
  const m = report.machine;
  const lines = [
    `# Benchmark ${report.startedAt}`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}; ClickHouse ${m.clickhouse}; PostgreSQL ${m.postgres}.`,
    `ClickHouse round trip floor (SELECT 1 through the client): p50 ${report.clickhouseSelectOne.p50} ms.`,
    `Estate: ${report.estate.rows.toLocaleString('en-US')} line items (${report.estate.shape ?? 'own-dimensions'} estate; ${report.estate.measuredOrganizationRows.toLocaleString('en-US')} in the measured organisation), ${report.estate.parts} parts; ${report.settings.warmup} warm-up + ${report.settings.runs} runs (PostgreSQL ${report.settings.pgRuns}). Times in ms.`,
    '',
    'Targets (judged on unrounded p50 ratios; the tables below round to two places):',
    '',
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    ...report.targets.map((t: any) => `- ${t.met === undefined ? '–' : t.met ? '✓ met' : '✗ missed'}: ${t.target}: ${t.detail}`),
    '',
    'API = answers computed afresh (`Cache-Control: no-cache`); API cached = the same question repeated (answer cache); engine = the direct statements from start to finish in ClickHouse (system.query_log, as are the rows read). ' +
      "bare relay = the same statements behind a bare Node `http` server in the API's process (no framework, authentication, validation or envelope): relay ÷ ClickHouse is the extra hop any service in front of ClickHouse pays on this host, API ÷ relay what the API adds on top of it. " +
      `API, ClickHouse and the relay are measured in alternation, all from one client process of their own (Node's http module with keep-alive, as @clickhouse/client uses it) against the API running as compiled JavaScript; the direct statements carry the settings of the API's reads (${JSON.stringify(report.settings.readSettings)}); both processes run with HEAP_GROWING_PERCENT=${report.settings.heapGrowingPercent}.`,
    '',
    '| case | API p50 | API p95 | API p99 | ClickHouse p50 | engine p50 | API ÷ ClickHouse | API − ClickHouse | bare relay p50 | relay ÷ ClickHouse | API ÷ relay | PostgreSQL p50 | PostgreSQL ÷ API | API cached p50 | rows read |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.cases.map(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (c: any) =>
        `| ${c.case} | ${c.api.p50} | ${c.api.p95} | ${c.api.p99} | ${c.clickhouse.p50} | ${c.clickhouseEngine?.p50 ?? '–'} | ${c.apiOverClickhouseP50} | ${c.apiMinusClickhouseP50} | ${c.relay.p50} | ${c.relayOverClickhouseP50} | ${c.apiOverRelayP50} | ${c.postgres?.p50 ?? '–'} | ${c.postgresOverApiP50 ?? '–'} | ${c.apiCached.p50} | ${c.clickhouseReadRows.toLocaleString('en-US')} |`,
    ),
    '',
    `Pre-aggregation (${report.projection.case}, projections: ${report.projection.projectionsDefined}): raw scan p50 ${report.projection.rawScan.p50} ms reading ${report.projection.rawScan.readRows.toLocaleString('en-US')} rows; projection p50 ${report.projection.projection.p50} ms reading ${report.projection.projection.readRows.toLocaleString('en-US')} rows → **×${report.projection.speedupP50}** as the client sees it (answer transfer and parsing included, the same for both); in the engine (system.query_log) ${report.projection.engine.rawScan.p50} ms vs ${report.projection.engine.projection.p50} ms → **×${report.projection.engine.speedupP50}**.`,
    '',
    'Tags and cost categories at column speed (issue 23): the same question by a tag and by a column, alternated.',
    '',
    '| pair | column API p50 | tag API p50 | tag ÷ column (API) | column engine p50 | tag engine p50 | tag ÷ column (engine) | rows read column → tag |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...report.tagPairs.map(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (p: any) =>
        `| ${p.pair} | ${p.column.api.p50} | ${p.tag.api.p50} | ${p.tagOverColumnApiP50} | ${p.column.engine.p50} | ${p.tag.engine.p50} | ${p.tagOverColumnEngineP50} | ${p.column.readRows.toLocaleString('en-US')} → ${p.tag.readRows.toLocaleString('en-US')} |`,
    ),
    '',
    `Tag pre-aggregation (${report.tagProjection.case}): raw line items p50 ${report.tagProjection.rawScan.p50} ms reading ${report.tagProjection.rawScan.readRows.toLocaleString('en-US')} rows; tag projection p50 ${report.tagProjection.projection.p50} ms reading ${report.tagProjection.projection.readRows.toLocaleString('en-US')} rows → **×${report.tagProjection.speedupP50}** (engine ×${report.tagProjection.engine.speedupP50}).`,
    '',
    ...activatedMarkdown(report.activated),
    ...categoriesMarkdown(report.ruleCategories),
    ...budgetsMarkdown(report.budgets),
    ...unitCostsMarkdown(report.unitCosts),
    ...commitmentsMarkdown(report.commitments),
    ...conversionMarkdown(report),
    'Insights (issue 32): a forecast and an anomaly scan against the /data question that reads the same days, alternated.',
    '',
    ...insightsTable(report.insights),
    '',
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    `Disk per million line items: ${report.disk.map((d: any) => `${d.name} ${d.mbPerMillionLineItems} MB (${d.rows.toLocaleString('en-US')} rows)`).join('; ')}.`,
    '',
    `Small requests (autocannon, ${report.throughput.connections} connections, ${report.throughput.durationSeconds} s): trivial authenticated probe ${report.throughput.probe.requestsPerSecond} req/s (p50 ${report.throughput.probe.latencyP50} ms); tiny /data ${report.throughput.tinyData.requestsPerSecond} req/s (p50 ${report.throughput.tinyData.latencyP50} ms, non-2xx ${report.throughput.tinyData.non2xx}) → **${Math.round(report.throughput.tinyDataOverProbe * 100)} %** of the probe; the same request computed afresh every time (\`Cache-Control: no-cache\`) ${report.throughput.tinyDataFresh.requestsPerSecond} req/s (p50 ${report.throughput.tinyDataFresh.latencyP50} ms, non-2xx ${report.throughput.tinyDataFresh.non2xx}) → **${Math.round(report.throughput.tinyDataFreshOverProbe * 100)} %**.`,
    '',
    `Heavy load (${report.heavyLoad.case}, every answer computed afresh, ${report.throughput.connections} connections, ${report.throughput.durationSeconds} s): ${report.heavyLoad.requestsPerSecond} req/s, p50 ${report.heavyLoad.latencyP50} ms, p99 ${report.heavyLoad.latencyP99} ms, non-2xx ${report.heavyLoad.non2xx}.`,
    '',
    `API RSS peak: ${report.apiRss.peakDuringCasesMiB} MiB during the cases, ${report.apiRss.peakDuringThroughputMiB} MiB under small-request load, ${report.apiRss.peakDuringHeavyLoadMiB} MiB under heavy load.`,
    '',
  ];
  return lines.join('\n');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function conversionMarkdown(report: any): string[] {
  if (report.conversions.length === 0) return ['Money in one currency (issue 29): not measured (--skip-conversion).', ''];
  return [
    "Money in one currency (issue 29): the same question of the measured organisation (USD) and of its twin whose Azure rows are billed in EUR, converted at each day's rate, alternated.",
    '',
    '| case | unconverted API p50 | converted API p50 | converted ÷ unconverted |',
    '|---|---:|---:|---:|',
    ...report.conversions.map(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (c: any) => `| ${c.case} | ${c.unconverted.p50} | ${c.converted.p50} | ${c.convertedOverUnconvertedApiP50} |`,
    ),
    '',
    `Converted answers read the twin's converted sums: built and first read ${report.convertedSumsBuildSeconds} s after its first converted question (answered from the cost rows meanwhile).`,
    '',
  ];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function categoriesMarkdown(categories: any): string[] {
  if (!categories) return ['Rule-defined cost categories (issue 56): not measured (run with --categories).', ''];
  return [
    `Rule-defined cost categories (issue 56): the measured organisation defines ${categories.category} by ${categories.rules} rules (scripts/bench/categories.ts) after every measurement above, then adds its ${categories.splits ?? 0} shared-cost splits; each question by it answered the same total as by the column, from the organisation's category sums (built and first read ${categories.builtAfterSeconds} s after the first question, ${categories.builtWithSplitsAfterSeconds} s after the version with splits was saved; answered by the rules meanwhile):`,
    '',
    '| pair | column API p50 | category API p50 | category ÷ column (API) | column engine p50 | category engine p50 | category ÷ column (engine) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    ...[...categories.pairs, ...(categories.splitPairs ?? []).map((p: any) => ({ ...p, pair: `${p.pair}, with splits` }))].map(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (p: any) =>
        `| ${p.pair} | ${p.column.api.p50} | ${p.tag.api.p50} | ${p.tagOverColumnApiP50} | ${p.column.engine.p50} | ${p.tag.engine.p50} | ${p.tagOverColumnEngineP50} |`,
    ),
    '',
  ];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function unitCostsMarkdown(unitCosts: any): string[] {
  if (!unitCosts) return ['Unit costs (issue 60): not measured (run with --unit-costs).', ''];
  return [
    'Unit costs (issue 60): POST /unit-costs of a metric with a value every day against the /data question of the same window and grouping (target ≤ 1.3):',
    '',
    '| question | /unit-costs p50 | /data p50 | ratio |',
    '|---|---:|---:|---:|',
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    ...unitCosts.pairs.map((p: any) => `| ${p.name} | ${p.unitCosts.p50} | ${p.data.p50} | ${p.unitCostsOverDataP50} |`),
    '',
  ];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function commitmentsMarkdown(commitments: any): string[] {
  if (!commitments) return ['Commitments (issue 57): not measured (run with --commitments).', ''];
  return [
    "Commitments (issue 57): POST /commitments (a quarter of the usage on each account's savings plans) against the /data question of the same window and grouping (target ≤ 1.5):",
    '',
    '| question | /commitments p50 | /data p50 | ratio |',
    '|---|---:|---:|---:|',
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    ...commitments.pairs.map((p: any) => `| ${p.name} | ${p.commitments.p50} | ${p.data.p50} | ${p.commitmentsOverDataP50} |`),
    '',
  ];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function budgetsMarkdown(budgets: any): string[] {
  if (!budgets) return ['Budgets (issue 58): not measured (run with --budgets).', ''];
  return [
    `Budgets (issue 58): ${budgets.budgets} budgets of the measured organisation (scripts/bench/budgets.ts), evaluated as the worker does: ` +
      budgets.evaluations
        .map(
          (e: { seconds: number; alerts: number; afresh?: boolean }, i: number) =>
            `round ${i + 1} **${e.seconds} s** (${e.alerts} alerts, ${e.afresh === false ? 'the sums stored' : 'every sum read afresh'})`,
        )
        .join(', ') +
      `. The status of ${budgets.statusBudgets} monthly budgets p50 **${budgets.status.p50} ms** (their sums stored by the evaluation for the same data and day) against /data over the same 13 months by service ${budgets.data.p50} ms: **×${budgets.statusOverDataP50}** (target ≤ 2); ` +
      `the first status after a change of the data, its sums read afresh (a line item of no cost added before each run; measured in process, without HTTP) ${budgets.statusAfresh?.p50} ms: ×${budgets.statusAfreshOverDataP50}.`,
    '',
  ];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function activatedMarkdown(activated: any): string[] {
  if (!activated) return ['Activated keys (issue 34): not measured (run with --activated).', ''];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const disk = (d: any) =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    d.entries.map((e: any) => `${e.name} ${e.mbPerMillionLineItems} MB (${e.rows.toLocaleString('en-US')} rows)`).join('; ') +
    (d.compactParts > 0 ? ` (${d.compactParts} of ${d.parts} parts compact: their column sizes read 0)` : '');
  return [
    `Activated keys (issue 34): the measured organisation activates tag ${activated.keys.tag.join(', ')} and cost category ${activated.keys.costCategory.join(', ')} through PUT /v1/admin/tag-keys after every measurement above; back-fill (rewrite and check of its ${activated.disk.after.organizationRows.toLocaleString('en-US')} line items) **${activated.backfillSeconds} s**. Every pair answered the same bytes before and after. The same pairs again, each tag question now reading the activated columns:`,
    '',
    '| pair | column API p50 | activated tag API p50 | activated tag ÷ column (API) | full-map tag ÷ column (API, above) | column engine p50 | activated tag engine p50 | activated tag ÷ column (engine) | rows read column → activated tag |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...activated.pairs.map(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (p: any) =>
        `| ${p.pair} | ${p.column.api.p50} | ${p.tag.api.p50} | ${p.tagOverColumnApiP50} | ${p.fullMapsTagOverColumnApiP50} | ${p.column.engine.p50} | ${p.tag.engine.p50} | ${p.tagOverColumnEngineP50} | ${p.column.readRows.toLocaleString('en-US')} → ${p.tag.readRows.toLocaleString('en-US')} |`,
    ),
    '',
    "Insights (issue 32) again, the scan's root causes now looking in the activated tag keys (its default once an organisation has some):",
    '',
    ...insightsTable(activated.insights),
    '',
    `Disk in the measured organisation's partitions per million of its line items, before activation: ${disk(activated.disk.before)}.`,
    `After: ${disk(activated.disk.after)}.`,
    '',
  ];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function insightsTable(insights: any[]): string[] {
  return [
    '| case | /data API p50 | insight API p50 | insight ÷ /data | answered |',
    '|---|---:|---:|---:|---|',
    ...insights.map(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (c: any) => `| ${c.case} | ${c.data.p50} | ${c.insight.p50} | ${c.insightOverDataApiP50} | ${c.answered ?? '–'} |`,
    ),
  ];
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

/**
 * Asks a question until an answer reads a background build (`counter`'s `read` label, the service's own counter in this
 * process), at most 30 minutes; the seconds that took.
 */
async function untilBuildRead(
  counter: { get(): Promise<{ values: Array<{ labels: Partial<Record<string, string | number>>; value: number }> }> },
  read: string,
  what: string,
  ask: () => Promise<unknown>,
): Promise<number> {
  const startedAt = Date.now();
  const readFromBuild = async () => (await counter.get()).values.find((value) => value.labels.read === read)?.value ?? 0;
  const before = await readFromBuild();
  while (Date.now() - startedAt < 30 * 60_000) {
    await ask();
    if ((await readFromBuild()) > before) return round((Date.now() - startedAt) / 1000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`the ${what} were not read within 30 minutes`);
}

/** What an insight answered, to read its time by: the anomalies found (their root causes are most of a scan), or the series forecast. */
async function insightAnswered(task: Task): Promise<string> {
  if (task.kind !== 'http') throw new Error('an insight is asked over HTTP');
  const response = await fetch(task.url, { method: 'POST', headers: task.headers, body: task.body });
  if (!response.ok) throw new Error(`${task.url} answered ${response.status}`);
  const { data } = (await response.json()) as { data: { anomalies?: unknown[]; series?: unknown[] } };
  return data.anomalies ? `${data.anomalies.length} anomalies` : `${data.series?.length ?? 0} series`;
}
