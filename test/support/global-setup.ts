import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startClickhouseServer, startRedisServer } from './local-servers';

/**
 * E2E_MODE=server: a ClickHouse HTTP server (libchdb) and a redis-server on free ports, shared by
 * all workers through the environment. E2E_MODE=embedded (default): each worker opens its own chDB
 * directory (see worker-env.ts) and runs without Redis, exercising the single-process fallbacks.
 */
export default async function globalSetup(): Promise<void> {
  const mode = process.env.E2E_MODE ?? 'embedded';
  const tmp = resolve(__dirname, '../../.test-tmp', `${mode}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  process.env.E2E_TMP_DIR = tmp;
  process.env.E2E_MODE = mode;
  if (mode === 'server') {
    const [clickhouse, redis] = await Promise.all([
      startClickhouseServer(join(tmp, 'clickhouse')),
      startRedisServer(join(tmp, 'redis')),
    ]);
    process.env.CLICKHOUSE_URL = clickhouse.url;
    process.env.REDIS_URL = redis.url;
    process.env.E2E_SERVER_PIDS = `${clickhouse.pid},${redis.pid}`;
    await migrateSharedServerOnce(clickhouse.url);
  } else if (mode !== 'embedded') {
    throw new Error(`E2E_MODE must be embedded or server, got ${mode}`);
  }
}

/**
 * Workers share the server's database: migrate it once here, before any worker starts, so that no two
 * workers run a table-rebuilding migration (0004) at the same time. Workers then find nothing pending.
 */
async function migrateSharedServerOnce(url: string): Promise<void> {
  const { loadConfig } = await import('../../src/config/app-config');
  const { ClickhouseService } = await import('../../src/infrastructure/clickhouse/clickhouse.service');
  const { migrate } = await import('../../src/infrastructure/clickhouse/migrator');
  const clickhouse = new ClickhouseService(loadConfig({ ...process.env, CLICKHOUSE_URL: url, CLICKHOUSE_DATABASE: 'cost_insights_test' }));
  try {
    await migrate(clickhouse);
  } finally {
    await clickhouse.onModuleDestroy();
  }
}
