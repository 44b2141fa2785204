import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { banner, checkSystemTools, missingToolsText } from '../../scripts/system-tools';
import { ensureBuilt } from './built-dist';
import { startClickhouseCluster } from './clickhouse-cluster';
import { E2E_MODES } from './e2e-mode';
import { startClickhouseServer, startRedisServer } from './local-servers';

/**
 * The suite's environment, set here once before any worker starts (workers and the processes tests spawn
 * inherit it); a test that needs other settings passes them to its own application (startAppWithEnv).
 * E2E_MODE=server: a ClickHouse HTTP server (libchdb) and a redis-server on free ports, shared by all
 * workers. E2E_MODE=cluster: the same with a 2-shard × 2-replica ClickHouse cluster instead of the server.
 * E2E_MODE=embedded (default): each worker opens its own chDB directory (TestApp) and runs without Redis,
 * exercising the single-process fallbacks. (test/support/e2e-mode.ts)
 */
export default async function globalSetup(): Promise<void> {
  const mode = process.env.E2E_MODE ?? 'embedded';
  if (!(E2E_MODES as string[]).includes(mode)) throw new Error(`E2E_MODE must be one of ${E2E_MODES.join(', ')}, got ${mode}`);
  if (mode !== 'embedded') {
    // Asked for explicitly, a mode without its tools is an error; `npm test` checks first and skips it loudly.
    const verdict = checkSystemTools(['python3', 'redis-server'], `the e2e suite in ${mode} mode (E2E_MODE=${mode})`);
    if (verdict.outcome !== 'run') {
      const text = `FAILED: E2E_MODE=${mode} cannot start its servers.\n${missingToolsText(verdict.missing)}\n(npm test skips this step, loudly, when a tool is missing; E2E_MODE=embedded needs none.)`;
      throw new Error(banner(text));
    }
  }
  // The built server, CLI and MCP relay some suites start: compiled once (npm test builds first), not per suite.
  ensureBuilt();
  const tmp = resolve(__dirname, '../../.test-tmp', `${mode}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  process.env.E2E_TMP_DIR = tmp;
  process.env.E2E_MODE = mode;
  process.env.CLICKHOUSE_DATABASE = 'cost_insights_test';
  // Backups of every mode's stores go here (the servers are started allowing it: backups.allowed_path).
  process.env.BACKUP_DIR = join(tmp, 'backups');
  process.env.DEMO_ON_EMPTY_STORE = 'false';
  // Each import into a suite's fresh organisation would start a back-fill of its suggested tag keys: the default is
  // on only in the cases that test it (activated-tag-keys, focus-ingest, cli, data-sources).
  process.env.TAG_KEYS_DEFAULT = 'false';
  // Request logs would drown the test output; tests that read logs start their own processes.
  process.env.LOG_LEVEL ??= 'silent';
  // JSON lines whether or not the run's stdout is a terminal (tests that read logs parse them).
  process.env.LOG_FORMAT ??= 'json';
  process.env.RATE_LIMIT_PER_MINUTE ??= '1000';
  // The data-source worker checks every organisation's sources: only the suites that test it turn it on.
  process.env.INGEST_WORKER ??= 'false';
  // In server mode every test file's unauthenticated requests share one per-IP counter in Redis
  // (127.0.0.1): a low default limit would make other files' 401 tests flaky.
  process.env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE ??= '1000';
  if (mode === 'server') {
    const [clickhouse, redis] = await Promise.all([
      startClickhouseServer(join(tmp, 'clickhouse'), [`--config-file=${backupsConfig(tmp)}`]),
      startRedisServer(join(tmp, 'redis')),
    ]);
    process.env.CLICKHOUSE_URL = clickhouse.url;
    process.env.REDIS_URL = redis.url;
    process.env.E2E_SERVER_PIDS = `${clickhouse.pid},${redis.pid}`;
    await migrateSharedServerOnce();
  } else if (mode === 'cluster') {
    const [cluster, redis] = await Promise.all([
      startClickhouseCluster(join(tmp, 'cluster'), { backupsDir: process.env.BACKUP_DIR }),
      startRedisServer(join(tmp, 'redis')),
    ]);
    Object.assign(process.env, cluster.settings);
    process.env.REDIS_URL = redis.url;
    process.env.E2E_SERVER_PIDS = [...cluster.pids(), redis.pid].join(',');
    await migrateSharedServerOnce();
  } else {
    delete process.env.CLICKHOUSE_URL;
    delete process.env.REDIS_URL;
  }
}

/**
 * Workers share the server's database: migrate it once here, before any worker starts, so that no two
 * workers run a table-rebuilding migration (0004) at the same time. Workers then find nothing pending.
 */
async function migrateSharedServerOnce(): Promise<void> {
  const { loadConfig } = await import('../../src/config/app-config');
  const { ClickhouseService } = await import('../../src/store/clickhouse/clickhouse.service');
  const { migrate } = await import('../../src/store/schema/migrator');
  const clickhouse = new ClickhouseService(loadConfig(process.env));
  try {
    await migrate(clickhouse);
  } finally {
    await clickhouse.onModuleDestroy();
  }
}

/** A server configuration that lets BACKUP … TO File() write into BACKUP_DIR (clickhouse-local takes it as a file). */
function backupsConfig(tmp: string): string {
  const path = join(tmp, 'clickhouse-backups.xml');
  // E2E_QUERY_LOG=1 (with E2E_KEEP_TMP=1) keeps system.query_log and part_log in the server's data: where the run's time went.
  const queryLog = process.env.E2E_QUERY_LOG
    ? '<query_log><database>system</database><table>query_log</table><flush_interval_milliseconds>5000</flush_interval_milliseconds></query_log>' +
      '<part_log><database>system</database><table>part_log</table><flush_interval_milliseconds>5000</flush_interval_milliseconds></part_log>'
    : '';
  writeFileSync(path, `<clickhouse><backups><allowed_path>${process.env.BACKUP_DIR}</allowed_path></backups>${queryLog}</clickhouse>\n`);
  return path;
}
