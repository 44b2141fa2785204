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
    requestTimeoutMs: number;
  };
  redisUrl?: string;
  sharedFilterTtlSeconds: number;
  rateLimitPerMinute: number;
  unauthenticatedRateLimitPerMinute: number;
  apiKeyCacheTtlSeconds: number;
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

export function loadConfig(env: Env = process.env): AppConfig {
  const database = env.CLICKHOUSE_DATABASE || 'cost_insights';
  // The database name is interpolated into SQL as an identifier, so it must be one.
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(database)) {
    throw new ConfigError('CLICKHOUSE_DATABASE must be a plain identifier ([A-Za-z_][A-Za-z0-9_]*)');
  }
  const clickhouseUrl = url(env, 'CLICKHOUSE_URL', ['http:', 'https:']);
  const maxExecutionSeconds = integer(env, 'CLICKHOUSE_MAX_EXECUTION_SECONDS', 20, 1, 3600);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    dataDir: env.DATA_DIR || './data',
    clickhouse: {
      url: clickhouseUrl,
      user: env.CLICKHOUSE_USER || 'default',
      password: env.CLICKHOUSE_PASSWORD || '',
      database,
      maxExecutionSeconds,
      // The client gives up a little after the server would have, so the server's clear error wins.
      requestTimeoutMs: (maxExecutionSeconds + 5) * 1000,
    },
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    sharedFilterTtlSeconds: integer(env, 'SHARED_FILTER_TTL_SECONDS', 30 * 24 * 3600, 1, 10 * 365 * 24 * 3600),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 300, 1, 1_000_000),
    unauthenticatedRateLimitPerMinute: integer(env, 'UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    apiKeyCacheTtlSeconds: integer(env, 'API_KEY_CACHE_TTL_SECONDS', 10, 0, 3600),
    defaultWindowDays: integer(env, 'DEFAULT_WINDOW_DAYS', 30, 1, 3660),
    maxDateRangeDays: integer(env, 'MAX_DATE_RANGE_DAYS', 3 * 366, 1, 36600),
    maxResultRows: integer(env, 'MAX_RESULT_ROWS', 50_000, 1, 10_000_000),
    maxFilterValues: integer(env, 'MAX_FILTER_VALUES', 1000, 1, 100_000),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    migrateOnStart: boolean(env, 'MIGRATE_ON_START', true),
    demoOnEmptyStore: boolean(env, 'DEMO_ON_EMPTY_STORE', true),
    trustProxyHops: integer(env, 'TRUST_PROXY_HOPS', 0, 0, 10),
  };
}

export { ConfigError };
