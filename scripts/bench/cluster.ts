/**
 * `npm run bench -- --cluster`: the same questions on a ClickHouse cluster (2 shards × 2 replicas of libchdb on
 * this machine, test/support/clickhouse-cluster.ts) and on one ClickHouse server, holding the same rows.
 *
 *   npm run bench -- --cluster [--rows 10000000] [--runs 40] [--warmup 3] [--dir .test-tmp/bench-cluster]
 *
 * Per case, measured in alternation from the measuring client (measuring-client.ts): the API on the cluster, the
 * very statements it sent run directly on the cluster's entry node, the API on the server, its statements on
 * the server. Reported: API ÷ ClickHouse on the cluster (what the service adds there) and cluster ÷ server for
 * the same question (the fan-out's cost: on one 2-core machine the shards share the cores, so no speed-up is
 * expected, only the overhead). Results: bench/results/<timestamp>-cluster.{json,md}.
 */
import { NestExpressApplication } from '@nestjs/platform-express';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from '../../src/app.factory';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { loadConfig } from '../../src/config/app-config';
import { applyHeapGrowing } from '../../src/config/heap-tuning';
import type { SettingOverrides } from '../../src/config/settings';
import { ClickhouseService, StatementParameters } from '../../src/store/clickhouse/clickhouse.service';
import { prepareStore } from '../../src/startup';
import { startClickhouseWithQueryLog } from '../../test/support/app-with-env';
import { startClickhouseCluster } from '../../test/support/clickhouse-cluster';
import { freePort } from '../../test/support/local-servers';
import { answerStatementFilter } from './answer-statements';
import { CASES } from './cases';
import { generateEstate, MEASURED_ORGANIZATION } from './estate';
import { startMeasuringClient, Statement, Task } from './measuring-client';
import { round, stats, Stats } from './stats';

/** The fan-out overhead the issue asks to stay within: cluster ÷ one server, same question, same rows. */
export const CLUSTER_OVER_SERVER_TARGET = 1.3;

const log = (message: string) => process.stdout.write(`${message}\n`);

interface Target {
  name: 'cluster' | 'server';
  app: NestExpressApplication;
  clickhouse: ClickhouseService;
  base: string;
  url: string;
  capturing?: Statement[];
}

export async function runClusterBench(options: { rows: number; runs: number; warmup: number; dir: string }): Promise<void> {
  const dir = resolve(options.dir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await startClickhouseWithQueryLog(join(dir, 'server'));
  // Without the test harness's relays (see ClusterOptions): ClickHouse's own fan-out, node to node.
  const cluster = await startClickhouseCluster(join(dir, 'cluster'), { relays: false });
  process.on('exit', () => {
    for (const pid of [server.pid, ...cluster.pids()]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already stopped
      }
    }
  });
  log(`ClickHouse server at ${server.url}; cluster ${cluster.name} (2 shards × 2 replicas) entry ${cluster.settings.CLICKHOUSE_URL}`);
  const common: SettingOverrides = {
    CLICKHOUSE_DATABASE: 'bench',
    CLICKHOUSE_MAX_EXECUTION_SECONDS: '600',
    DEMO_ON_EMPTY_STORE: 'false',
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
    REDIS_URL: undefined,
  };
  applyHeapGrowing(loadConfig({ ...process.env, ...common }).heapGrowingPercent);

  const start = async (name: Target['name'], settings: SettingOverrides): Promise<Target> => {
    const port = await freePort();
    const app = await createApp({ settings: { ...common, ...settings, PORT: String(port) } });
    await prepareStore(app);
    await app.listen(port);
    const target: Target = {
      name,
      app,
      clickhouse: app.get(ClickhouseService),
      base: `http://127.0.0.1:${port}`,
      url: settings.CLICKHOUSE_URL!,
    };
    // Statement capture: every cost statement the API sends while `capturing` is set.
    const { clickhouse } = target;
    const isCost = answerStatementFilter(clickhouse.table('cost_line_items'));
    const query = clickhouse.query.bind(clickhouse);
    clickhouse.query = (async (sql: string, params: StatementParameters = {}) => {
      if (target.capturing && isCost(sql)) target.capturing.push({ sql, params, format: 'JSONEachRow' });
      return query(sql, params);
    }) as typeof clickhouse.query;
    const queryRaw = clickhouse.queryRaw.bind(clickhouse);
    clickhouse.queryRaw = (async (sql: string, params: StatementParameters = {}) => {
      if (target.capturing && isCost(sql)) target.capturing.push({ sql, params, format: 'TabSeparatedRaw' });
      return queryRaw(sql, params);
    }) as typeof clickhouse.queryRaw;
    return target;
  };
  const onCluster = await start('cluster', { ...cluster.settings });
  const onServer = await start('server', {
    CLICKHOUSE_URL: server.url,
    CLICKHOUSE_CLUSTER: undefined,
    CLICKHOUSE_CLUSTER_NODE_URLS: undefined,
  });

  const load = { cluster: 0, server: 0 };
  for (const target of [onServer, onCluster]) {
    log(`generating ${options.rows.toLocaleString('en-US')} rows on the ${target.name}…`);
    const began = Date.now();
    await generateEstate(target.clickhouse, options.rows, log);
    // An import writes each partition once, as one part: the same layout on both (every node of the cluster).
    const nodes = target.clickhouse.cluster
      ? (await target.clickhouse.cluster.allNodes('bench')).map((node) => node.connection)
      : [target.clickhouse];
    for (const node of nodes) {
      const partitions = await node.query<{ partition_id: string }>(
        `SELECT DISTINCT partition_id FROM system.parts WHERE database = {db:String} AND table = 'cost_line_items' AND active`,
        { db: node.database },
      );
      for (const { partition_id } of partitions) {
        if (!/^[0-9a-z_-]+$/i.test(partition_id)) throw new Error(`unexpected partition id ${partition_id}`);
        await node.command(`OPTIMIZE TABLE ${node.table('cost_line_items')} PARTITION ID '${partition_id}' FINAL`);
      }
    }
    load[target.name] = (Date.now() - began) / 1000;
    log(`  loaded and optimized in ${load[target.name].toFixed(1)} s`);
  }
  const [facts] = await onCluster.clickhouse.query<{ version: string; total_rows: string; measured_rows: string }>(
    `SELECT version() AS version, toString(count()) AS total_rows, toString(countIf(organization_id = {org:UUID})) AS measured_rows
     FROM ${onCluster.clickhouse.table('cost_line_items')}`,
    { org: MEASURED_ORGANIZATION },
  );

  const client = startMeasuringClient({ ...common, ...cluster.settings });
  process.on('exit', () => client.stop());
  const request = async (target: Target, path: string, body: unknown): Promise<Task> => {
    const { key } = await target.app.get(ApiKeysService).create(MEASURED_ORGANIZATION, 'bench', ['cost:read']);
    return {
      kind: 'http',
      url: `${target.base}${path}`,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' },
      body: JSON.stringify(body),
    };
  };
  const direct = async (target: Target, statements: Statement[]): Promise<Task> => ({
    kind: 'clickhouse',
    statements,
    settings: (await target.clickhouse.readSettings()) as Record<string, string | number>,
    url: target.url,
  });
  const capture = async (target: Target, task: Task) => {
    target.capturing = [];
    await client.once(task);
    const statements = target.capturing;
    target.capturing = undefined;
    return statements;
  };

  const results: ClusterCaseResult[] = [];
  for (const c of CASES) {
    log(`case: ${c.name}`);
    const [clusterRequest, serverRequest] = [await request(onCluster, c.path, c.body), await request(onServer, c.path, c.body)];
    const tasks = [
      clusterRequest,
      await direct(onCluster, await capture(onCluster, clusterRequest)),
      serverRequest,
      await direct(onServer, await capture(onServer, serverRequest)),
    ];
    const [clusterApi, clusterClickhouse, serverApi, serverClickhouse] = (
      await client.alternated(options.warmup, options.runs, tasks)
    ).samples.map(stats);
    const entry = {
      case: c.name,
      clusterApi,
      clusterClickhouse,
      serverApi,
      serverClickhouse,
      apiOverClickhouseOnCluster: round(clusterApi.p50 / clusterClickhouse.p50),
      clusterOverServerApi: round(clusterApi.p50 / serverApi.p50),
      clusterOverServerClickhouse: round(clusterClickhouse.p50 / serverClickhouse.p50),
    };
    results.push(entry);
    log(
      `  cluster: API ${clusterApi.p50} ms, ClickHouse ${clusterClickhouse.p50} ms (×${entry.apiOverClickhouseOnCluster}); ` +
        `server: API ${serverApi.p50} ms, ClickHouse ${serverClickhouse.p50} ms; cluster ÷ server ×${entry.clusterOverServerApi} (API), ` +
        `×${entry.clusterOverServerClickhouse} (ClickHouse)`,
    );
  }
  client.stop();

  const report = {
    kind: 'cluster',
    startedAt: new Date().toISOString(),
    machine: {
      cpu: cpus()[0]?.model,
      cores: cpus().length,
      memoryGiB: round(totalmem() / 1024 ** 3),
      os: `${platform()} ${release()}`,
      node: process.version,
      clickhouse: `${facts.version} (libchdb: one HTTP server, and a cluster of 4 nodes, all on this machine)`,
    },
    estate: { rows: Number(facts.total_rows), measuredOrganizationRows: Number(facts.measured_rows), loadSeconds: load },
    runs: options.runs,
    warmup: options.warmup,
    target: { clusterOverServerP50: CLUSTER_OVER_SERVER_TARGET },
    results,
  };
  const outDir = resolve('bench/results');
  mkdirSync(outDir, { recursive: true });
  const stamp = `${report.startedAt.replace(/[:.]/g, '-')}-cluster`;
  writeFileSync(join(outDir, `${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(outDir, `${stamp}.md`), markdown(report));
  log(`\n${markdown(report)}\nwritten to bench/results/${stamp}.{json,md}`);
  await onCluster.app.close();
  await onServer.app.close();
  await cluster.stop();
  await server.stop();
}

/** One case measured on the cluster and on the single server. */
interface ClusterCaseResult {
  case: string;
  clusterApi: Stats;
  clusterClickhouse: Stats;
  serverApi: Stats;
  serverClickhouse: Stats;
  apiOverClickhouseOnCluster: number;
  clusterOverServerApi: number;
  clusterOverServerClickhouse: number;
}

function markdown(report: {
  startedAt: string;
  machine: Record<string, unknown>;
  estate: { rows: number; measuredOrganizationRows: number; loadSeconds: { cluster: number; server: number } };
  runs: number;
  results: ClusterCaseResult[];
}): string {
  const m = report.machine;
  const worst = Math.max(...report.results.map((r) => r.clusterOverServerApi));
  return [
    `# Cluster bench ${report.startedAt}`,
    '',
    `${String(m.cpu)}, ${String(m.cores)} cores, ${String(m.memoryGiB)} GiB; ${String(m.os)}; Node ${String(m.node)}; ClickHouse ${String(m.clickhouse)}.`,
    `${report.estate.rows.toLocaleString('en-US')} line items (${report.estate.measuredOrganizationRows.toLocaleString('en-US')} in the measured organisation) ` +
      `on one server and on a 2 × 2 cluster; loaded in ${report.estate.loadSeconds.server} s / ${report.estate.loadSeconds.cluster} s. ` +
      `p50 of ${report.runs} alternated runs, ms.`,
    '',
    '| case | cluster API | cluster ClickHouse | API ÷ ClickHouse (cluster) | server API | server ClickHouse | cluster ÷ server (API) | cluster ÷ server (ClickHouse) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...report.results.map(
      (r) =>
        `| ${r.case} | ${r.clusterApi.p50} | ${r.clusterClickhouse.p50} | ${r.apiOverClickhouseOnCluster} | ${r.serverApi.p50} | ${r.serverClickhouse.p50} | ` +
        `${r.clusterOverServerApi} | ${r.clusterOverServerClickhouse} |`,
    ),
    '',
    `Fan-out overhead target cluster ÷ server ≤ ${CLUSTER_OVER_SERVER_TARGET} (API, p50): ${worst <= CLUSTER_OVER_SERVER_TARGET ? 'met' : 'missed'} (worst ×${worst}).`,
    '',
  ].join('\n');
}
