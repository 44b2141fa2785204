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
      clickhouse_settings: budgetSettings(config),
      // Idle sockets die before the server's keep_alive_timeout closes them, so a request never lands on a
      // socket the server already closed (a spurious ECONNRESET).
      keep_alive: { enabled: true, idle_socket_ttl: clickhouse.idleSocketTtlMs },
      // At most this many statements in flight per instance (the rest queue for a socket): with
      // MAX_RESULT_ROWS this bounds the result rows an instance holds at once, hence its memory under load.
      max_open_connections: clickhouse.maxOpenConnections,
      // Failures surface as exceptions handled (and logged once) by the caller.
      log: { level: ClickHouseLogLevel.OFF },
    });
  }
  // chDB is an optional dependency: server deployments do not need the embedded engine.
  const { createChdbConnection, Session } = loadChdb();
  // The engine takes its server configuration from the first connection to a directory: this one allows
  // BACKUP … TO File(BACKUP_DIR) (a later connection to the same directory shares that engine, so it can close).
  const configuring = new Session(config.dataDir, { connectionArgs: [`--backups.allowed_path=${config.backup.dir}`] });
  const connection = createChdbConnection({ path: config.dataDir });
  configuring.close();
  return createClient({
    connection,
    clickhouse_settings: budgetSettings(config),
    log: { level: ClickHouseLogLevel.OFF },
  });
}

/**
 * Per-query budgets: a query over them fails with a ClickHouse error the API answers as a 400
 * (clickhouse-errors.ts). And the JSON number format the API's answers rely on (ClickHouse writes
 * /data items itself): decimals as plain numbers without trailing zeros, whatever a server profile says.
 */
/** The longest statement ClickHouse parses (its default: 256 KiB), and its most syntax-tree elements (default 50,000). */
export const STATEMENT_BYTES = 1 << 20;
const STATEMENT_AST_ELEMENTS = 200_000;

function budgetSettings({ clickhouse }: AppConfig) {
  return {
    max_execution_time: clickhouse.maxExecutionSeconds,
    max_memory_usage: String(clickhouse.maxMemoryBytes),
    output_format_json_quote_decimals: 0 as const,
    output_format_decimal_trailing_zeros: 0 as const,
    // Rule-defined cost categories make long statements (cost-categories.service.ts bounds them): room to parse them.
    max_query_size: String(STATEMENT_BYTES),
    max_ast_elements: String(STATEMENT_AST_ELEMENTS),
    ...(clickhouse.cluster ? CLUSTER_SETTINGS : {}),
  };
}

/**
 * On a cluster: a write through a Distributed table is done (on every replica it goes to) when the statement
 * returns, or fails as a whole, never queued for later, so what was written is read back at once on any node; an
 * INSERT … SELECT between two Distributed tables places its rows by the target's sharding key on every replica, as
 * any write (ClickHouse's default, parallel_distributed_insert_select = 2, would have each shard write what it read
 * into its own node's table: another shard's rows, on one replica);
 * and a subquery over a Distributed table inside IN/JOIN (the /filters tag values' top keys) runs once, over
 * every shard, its result sent to each shard (GLOBAL), never per shard over that shard's rows alone.
 */
const CLUSTER_SETTINGS = {
  distributed_foreground_insert: 1 as const,
  parallel_distributed_insert_select: '0',
  distributed_product_mode: 'global' as const,
};

function loadChdb(): ChdbConnectionModule {
  try {
    // A require, not an import: the optional dependency may be absent, and only the embedded mode loads it.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { createChdbConnection } = require('chdb/connection') as Pick<ChdbConnectionModule, 'createChdbConnection'>;
    const { Session } = require('chdb') as Pick<ChdbConnectionModule, 'Session'>;
    /* eslint-enable @typescript-eslint/no-require-imports */
    return { createChdbConnection, Session };
  } catch (error) {
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
    // A production image installs without optional dependencies (Dockerfile: npm ci --omit=optional).
    throw new Error(
      'CLICKHOUSE_URL is not set and the embedded engine (the optional dependency chdb) is not installed: ' +
        'set CLICKHOUSE_URL to a ClickHouse server, or install chdb for the embedded mode.',
      { cause: error },
    );
  }
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
  Session: new (path: string, options: { connectionArgs: string[] }) => { close(): void };
}
