/**
 * Environment configuration, validated once at boot. Every setting the service
 * reads lives here, with its default; an invalid value stops the process with a
 * message naming the variable instead of failing later in a request.
 */
export interface AppConfig {
  port: number;
  /** Embedded chDB data directory; used only when `clickhouse.url` is unset. */
  dataDir: string;
  clickhouse: {
    url?: string;
    user: string;
    password: string;
    database: string;
    /** Server-side `max_execution_time` for API queries, in seconds. */
    maxExecutionSeconds: number;
    /** Server-side `max_memory_usage` per API query, in bytes (0: no per-query limit). */
    maxMemoryBytes: number;
    requestTimeoutMs: number;
    /** Idle keep-alive sockets are dropped after this long, below the server's keep_alive_timeout (never reuse a closed one). */
    idleSocketTtlMs: number;
    /** Concurrent statements per instance (server mode); more wait for a connection. Bounds the results held in memory at once. */
    maxOpenConnections: number;
    /**
     * `max_threads_for_indexes` of the API's reads (0: the server's default): threads of the planner's
     * primary-key and projection analysis per statement. Applied only where the server knows the setting.
     */
    indexAnalysisThreads: number;
    /** Cluster name for `ON CLUSTER` migrations with Replicated engines and a Distributed table; unset: one server. */
    cluster?: string;
  };
  redisUrl?: string;
  sharedFilterTtlSeconds: number;
  rateLimitPerMinute: number;
  unauthenticatedRateLimitPerMinute: number;
  apiKeyCacheTtlSeconds: number;
  /** Server mode: how often an instance rolls back imports that died mid-publish (0: only at start). */
  importRecoveryIntervalSeconds: number;
  resultCache: {
    /** Memory budget of the per-instance answer cache, in bytes (0: no caching). */
    maxBytes: number;
    /** The longest an answer is kept, whatever happens. */
    ttlSeconds: number;
    /** How often the store's data version is re-read: the bound on serving an answer older than an import by another process. */
    versionCheckMs: number;
  };
  defaultWindowDays: number;
  maxDateRangeDays: number;
  maxResultRows: number;
  maxFilterValues: number;
  bodyLimitBytes: number;
  migrateOnStart: boolean;
  /** Load the demo organisation, data and key when the store is empty at start. */
  demoOnEmptyStore: boolean;
  /** Number of proxy hops whose X-Forwarded-For is trusted (0: use the socket address). */
  trustProxyHops: number;
  /** Node's keep-alive idle timeout; above the load balancer's upstream idle timeout so the LB always closes first. */
  keepAliveTimeoutMs: number;
  /** Node's headers timeout; above keepAliveTimeoutMs (Node's own requirement). */
  headersTimeoutMs: number;
  /** V8's old-generation growing factor, as a percentage over 1 (0: V8's own heuristic); see heap-tuning.ts. */
  heapGrowingPercent: number;
  /** On SIGTERM: how long readiness reports 503 (while still serving) before the listener closes. */
  shutdownReadinessDelayMs: number;
  /** On SIGTERM: the longest wait for in-flight requests once the listener is closed. */
  shutdownTimeoutMs: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

type Env = Record<string, string | undefined>;

class ConfigError extends Error {}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** A duration in seconds; fractions allowed (ClickHouse's max_execution_time takes them). */
function seconds(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+(\.\d+)?$/.test(raw.trim())) throw new ConfigError(`${name} must be a number of seconds, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}`);
  }
  return raw;
}

function oneOf(env: Env, name: string, fallback: string, allowed: string[]): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!allowed.includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw;
}

function clusterName(env: Env): string | undefined {
  const raw = env.CLICKHOUSE_CLUSTER;
  if (raw === undefined || raw === '') return undefined;
  // Interpolated into DDL as an identifier.
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(raw)) throw new ConfigError('CLICKHOUSE_CLUSTER must be a plain identifier');
  return raw;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const database = env.CLICKHOUSE_DATABASE || 'cost_insights';
  // The database name is interpolated into SQL as an identifier, so it must be one.
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(database)) {
    throw new ConfigError('CLICKHOUSE_DATABASE must be a plain identifier ([A-Za-z_][A-Za-z0-9_]*)');
  }
  const clickhouseUrl = url(env, 'CLICKHOUSE_URL', ['http:', 'https:']);
  if (clusterName(env) && !clickhouseUrl) throw new ConfigError('CLICKHOUSE_CLUSTER needs CLICKHOUSE_URL (a cluster is a server deployment)');
  const maxExecutionSeconds = seconds(env, 'CLICKHOUSE_MAX_EXECUTION_SECONDS', 20, 0.001, 3600);
  // Above nginx's default 60 s upstream keepalive_timeout: the proxy, not Node, closes idle connections.
  const keepAliveTimeoutMs = integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1000, 3_600_000);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    dataDir: env.DATA_DIR || './data',
    clickhouse: {
      url: clickhouseUrl,
      user: env.CLICKHOUSE_USER || 'default',
      password: env.CLICKHOUSE_PASSWORD || '',
      database,
      maxExecutionSeconds,
      maxMemoryBytes: integer(env, 'CLICKHOUSE_MAX_MEMORY_BYTES', 2 * 1024 ** 3, 0, 1024 ** 4),
      // The client gives up a little after the server would have, so the server's clear error wins.
      requestTimeoutMs: Math.ceil((maxExecutionSeconds + 5) * 1000),
      // ClickHouse closes idle keep-alive connections after keep_alive_timeout (3 s by default up to 24.x,
      // 10 s later): drop ours earlier so a socket the server has closed is never picked for a request.
      idleSocketTtlMs: integer(env, 'CLICKHOUSE_IDLE_SOCKET_TTL_MS', 2500, 100, 600_000),
      maxOpenConnections: integer(env, 'CLICKHOUSE_MAX_OPEN_CONNECTIONS', 10, 1, 1000),
      // One thread: over the few hundred parts of an organisation's periods, fanning the analysis out costs
      // more in hand-offs than it saves (bench: 25 → 12.5 ms of planning for 12 months over 168 parts).
      indexAnalysisThreads: integer(env, 'CLICKHOUSE_INDEX_ANALYSIS_THREADS', 1, 0, 1024),
      cluster: clusterName(env),
    },
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    sharedFilterTtlSeconds: integer(env, 'SHARED_FILTER_TTL_SECONDS', 30 * 24 * 3600, 1, 10 * 365 * 24 * 3600),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 300, 1, 1_000_000),
    unauthenticatedRateLimitPerMinute: integer(env, 'UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    apiKeyCacheTtlSeconds: integer(env, 'API_KEY_CACHE_TTL_SECONDS', 10, 0, 3600),
    importRecoveryIntervalSeconds: integer(env, 'IMPORT_RECOVERY_INTERVAL_SECONDS', 5, 0, 86_400),
    resultCache: {
      maxBytes: integer(env, 'RESULT_CACHE_MAX_MB', 64, 0, 64 * 1024) * 1024 * 1024,
      ttlSeconds: integer(env, 'RESULT_CACHE_TTL_SECONDS', 300, 1, 86_400),
      versionCheckMs: integer(env, 'RESULT_CACHE_VERSION_CHECK_MS', 1000, 0, 600_000),
    },
    defaultWindowDays: integer(env, 'DEFAULT_WINDOW_DAYS', 30, 1, 3660),
    maxDateRangeDays: integer(env, 'MAX_DATE_RANGE_DAYS', 3 * 366, 1, 36600),
    maxResultRows: integer(env, 'MAX_RESULT_ROWS', 50_000, 1, 10_000_000),
    maxFilterValues: integer(env, 'MAX_FILTER_VALUES', 1000, 1, 100_000),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    migrateOnStart: boolean(env, 'MIGRATE_ON_START', true),
    demoOnEmptyStore: boolean(env, 'DEMO_ON_EMPTY_STORE', true),
    trustProxyHops: integer(env, 'TRUST_PROXY_HOPS', 0, 0, 10),
    keepAliveTimeoutMs,
    headersTimeoutMs: keepAliveTimeoutMs + 1000,
    heapGrowingPercent: integer(env, 'HEAP_GROWING_PERCENT', 200, 0, 1000),
    shutdownReadinessDelayMs: integer(env, 'SHUTDOWN_READINESS_DELAY_MS', 5000, 0, 120_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, 0, 600_000),
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  };
}

export { ConfigError };
