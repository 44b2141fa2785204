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
  } else if (mode !== 'embedded') {
    throw new Error(`E2E_MODE must be embedded or server, got ${mode}`);
  }
}
