import { ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { AppConfig } from '../../config/app-config';

/**
 * One client API for both deployments: a ClickHouse server over HTTP when CLICKHOUSE_URL is set,
 * otherwise the embedded chDB engine in DATA_DIR. SQL is written once for both.
 */
export function createClickhouseClient(config: AppConfig): ClickHouseClient {
  const { clickhouse } = config;
  if (clickhouse.url) {
    return createClient({
      url: clickhouse.url,
      username: clickhouse.user,
      password: clickhouse.password,
      request_timeout: clickhouse.requestTimeoutMs,
      clickhouse_settings: { max_execution_time: clickhouse.maxExecutionSeconds },
      // Failures surface as exceptions handled (and logged once) by the caller.
      log: { level: ClickHouseLogLevel.OFF },
    });
  }
  // chDB is an optional dependency: server deployments do not need the embedded engine.
  const { createChdbConnection } = require('chdb/connection') as ChdbConnectionModule;
  return createClient({
    connection: createChdbConnection({ path: config.dataDir }),
    clickhouse_settings: { max_execution_time: clickhouse.maxExecutionSeconds },
    log: { level: ClickHouseLogLevel.OFF },
  });
}

/** True when the error means the embedded data directory is held by another process. */
export function isEmbeddedLockError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? '')}` : '';
  return /Failed to create connection|Cannot lock file|already running/i.test(message);
}

type ClientConnection = NonNullable<Parameters<typeof createClient>[0]>['connection'];

/** The part of `chdb/connection` used here (its own typings need node16 module resolution). */
interface ChdbConnectionModule {
  createChdbConnection(options: { path: string }): ClientConnection;
}
