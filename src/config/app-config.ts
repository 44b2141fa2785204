import {
  CLIENT_TIMEOUT_MARGIN_SECONDS,
  ClusterReplicationSetting,
  ConfigError,
  Environment,
  HEADERS_TIMEOUT_MARGIN_MS,
  LogFormatSetting,
  MIB,
  ORGANIZATION_RATE_LIMIT_KEYS,
  readSettings,
  SettingName,
  SettingValues,
} from './settings';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The service's configuration, validated once at boot from the settings of settings.ts (each variable,
 * default and bound is defined there); an invalid value stops the process with a message naming the
 * variable instead of failing later in a request.
 */
export interface AppConfig {
  port: number;
  /** Embedded chDB data directory; used only when `clickhouse.url` is unset. */
  dataDir: string;
  clickhouse: {
    /** The preferred server (the first of CLICKHOUSE_URL); unset: embedded. */
    url?: string;
    /** Every server reads may enter through, preferred first: CLICKHOUSE_URL's, then the cluster's node URLs. */
    entryUrls: string[];
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
    /** The cluster the cost rows are sharded over (remote_servers); unset: one server. */
    cluster?: ClusterConfig;
  };
  redisUrl?: string;
  sharedFilterTtlSeconds: number;
  /** Largest stored (normalised, serialised) shared filter configuration, in bytes. */
  sharedFilterMaxBytes: number;
  /** Most live (unexpired) shared filters per organisation. */
  sharedFilterQuotaCount: number;
  /** Most bytes of live shared filter configurations per organisation. */
  sharedFilterQuotaBytes: number;
  /** Percent of both organisation quotas one key (one data scope, for scoped keys) may hold (sharedFilterKeyQuota). */
  sharedFilterKeyQuotaPercent: number;
  rateLimitPerMinute: number;
  /** Requests per organisation per minute, all its keys together. */
  organizationRateLimitPerMinute: number;
  unauthenticatedRateLimitPerMinute: number;
  /** Messages in one JSON-RPC batch to /v1/mcp. */
  mcpMaxBatchCalls: number;
  /** Caps of the admin API: unrevoked keys per organisation, a data scope's values and bytes, a list page. */
  apiKeys: { maxActivePerOrganization: number; dataScopeMaxValues: number; dataScopeMaxBytes: number; listPageSize: number };
  apiKeyCacheTtlSeconds: number;
  /** Days the audit trail keeps an event (the TTL of audit_events, set at start when it differs). */
  auditRetentionDays: number;
  /** Server mode: how often an instance rolls back imports that died mid-publish (0: only at start). */
  importRecoveryIntervalSeconds: number;
  /** Backups: the folder (absolute), and the worker's schedule (0: none) and retention. */
  backup: { dir: string; s3?: S3BackupSettings; intervalMinutes: number; keep: number };
  /** Budgets' evaluation and webhooks: the allowed hosts as given (budgets/webhook-destination.ts parses them). */
  budgets: { evaluationMinutes: number; webhookAllowedHosts: string; webhookRetryBaseSeconds: number; secretsEncryptionKey: string };
  resultCache: {
    /** Memory budget of the per-instance answer cache, in bytes (0: no caching). */
    maxBytes: number;
    /** The longest an answer is kept, whatever happens. */
    ttlSeconds: number;
    /** How often the store's data version is re-read: the bound on serving an answer older than an import by another process. */
    versionCheckMs: number;
  };
  /** Per organisation and instance: statements running at once, and waiting beyond those (then 429). */
  organizationLimits: {
    concurrentStatements: number;
    queuedStatements: number;
    /** Of those waiting, at most this many of one API key. */
    queuedStatementsPerKey: number;
  };
  /** How answers leave: a response with no progress for sendTimeoutMs is dropped; per organisation, bytes still being sent. */
  answerDelivery: {
    sendTimeoutMs: number;
    unsentBytesPerOrganization: number;
  };
  defaultWindowDays: number;
  maxDateRangeDays: number;
  maxResultRows: number;
  bodyLimitBytes: number;
  /** Largest rates file POST /v1/admin/exchange-rates accepts. */
  ratesImportMaxBytes: number;
  /** Converted /data answers read builds of converted sums (src/currency/converted-sums.service.ts). */
  convertedSums: boolean;
  /** /data answers by rule-defined categories read builds of category sums (src/cost-categories/category-sums.service.ts). */
  categorySums: boolean;
  /** The data-source worker (src/sources): whether this process runs it, how often, and its completeness rules. */
  ingestSources: {
    worker: boolean;
    pollSeconds: number;
    settleSeconds: number;
    incompleteAfterSeconds: number;
    fileRoot: string;
    maxObjectBytes: number;
    maxListedObjects: number;
  };
  migrateOnStart: boolean;
  /** Activate the suggested tag keys of an organisation that never chose any, once an import brought its data. */
  activateSuggestedTagKeys: boolean;
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
  /** Sign-in to the Settings pages through an OpenID Connect provider; absent: admin API key sign-in. */
  sso?: SsoConfig;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /** JSON lines, human-readable lines, or `auto`: readable when stdout is a terminal (observability/log-format.ts). */
  logFormat: LogFormatSetting;
}

export interface ClusterConfig {
  name: string;
  /** How a shard's replicas are kept (`auto`: resolved from the servers, cluster-nodes.ts). */
  replication: ClusterReplicationSetting;
  /** HTTP URLs of the nodes; empty: derived from system.clusters. */
  nodeUrls: string[];
}

export interface SsoConfig {
  issuerUrl: string;
  clientId: string;
  /** `client_secret_basic` with this secret, or `private_key_jwt` with privateKeyPem. */
  clientSecret: string;
  privateKeyPem?: string;
  redirectUrl: string;
  /** The origin of redirectUrl: where the pages are served, the only origin their changes are accepted from. */
  publicOrigin: string;
  scopes: string;
  groupsClaim: string;
  /** Scope names are checked against the permission list at start-up (src/auth/sso-group-mappings.ts). */
  groupMappings: Array<{ group: string; organizationId: string; scopes: string[] }>;
  sessionIdleSeconds: number;
  sessionMaxSeconds: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** The configuration of `env` (the process's environment at the entry points, with any overrides on top). */
export function loadConfig(env: Environment): AppConfig {
  const settings = readSettings(env);
  if (settings.CLICKHOUSE_CLUSTER && !settings.CLICKHOUSE_URL) {
    throw new ConfigError('CLICKHOUSE_CLUSTER needs CLICKHOUSE_URL (a cluster is a server deployment)');
  }
  if (!settings.CLICKHOUSE_CLUSTER && settings.CLICKHOUSE_CLUSTER_NODE_URLS.length > 0) {
    throw new ConfigError('CLICKHOUSE_CLUSTER_NODE_URLS needs CLICKHOUSE_CLUSTER');
  }
  const sharedFilterQuotaBytes = settings.SHARED_FILTER_QUOTA_MB * MIB;
  if (sharedFilterQuotaBytes < settings.SHARED_FILTER_MAX_BYTES) {
    throw new ConfigError('SHARED_FILTER_QUOTA_MB must hold at least one filter of SHARED_FILTER_MAX_BYTES');
  }
  const maxExecutionSeconds = settings.CLICKHOUSE_MAX_EXECUTION_SECONDS;
  const entryUrls = settings.CLICKHOUSE_URL?.split(',') ?? [];
  return {
    port: settings.PORT,
    dataDir: settings.DATA_DIR,
    clickhouse: {
      url: entryUrls[0],
      entryUrls: [...new Set([...entryUrls, ...(settings.CLICKHOUSE_CLUSTER ? settings.CLICKHOUSE_CLUSTER_NODE_URLS : [])])],
      user: settings.CLICKHOUSE_USER,
      password: settings.CLICKHOUSE_PASSWORD,
      database: settings.CLICKHOUSE_DATABASE,
      maxExecutionSeconds,
      maxMemoryBytes: settings.CLICKHOUSE_MAX_MEMORY_BYTES,
      requestTimeoutMs: Math.ceil((maxExecutionSeconds + CLIENT_TIMEOUT_MARGIN_SECONDS) * 1000),
      idleSocketTtlMs: settings.CLICKHOUSE_IDLE_SOCKET_TTL_MS,
      maxOpenConnections: settings.CLICKHOUSE_MAX_OPEN_CONNECTIONS,
      indexAnalysisThreads: settings.CLICKHOUSE_INDEX_ANALYSIS_THREADS,
      cluster: settings.CLICKHOUSE_CLUSTER
        ? {
            name: settings.CLICKHOUSE_CLUSTER,
            replication: settings.CLICKHOUSE_CLUSTER_REPLICATION,
            nodeUrls: settings.CLICKHOUSE_CLUSTER_NODE_URLS,
          }
        : undefined,
    },
    redisUrl: settings.REDIS_URL,
    sharedFilterTtlSeconds: settings.SHARED_FILTER_TTL_SECONDS,
    sharedFilterMaxBytes: settings.SHARED_FILTER_MAX_BYTES,
    sharedFilterQuotaCount: settings.SHARED_FILTER_QUOTA_COUNT,
    sharedFilterQuotaBytes,
    sharedFilterKeyQuotaPercent: settings.SHARED_FILTER_KEY_QUOTA_PERCENT,
    rateLimitPerMinute: settings.RATE_LIMIT_PER_MINUTE,
    mcpMaxBatchCalls: settings.MCP_MAX_BATCH_CALLS,
    organizationRateLimitPerMinute:
      settings.ORGANIZATION_RATE_LIMIT_PER_MINUTE || ORGANIZATION_RATE_LIMIT_KEYS * settings.RATE_LIMIT_PER_MINUTE,
    apiKeys: {
      maxActivePerOrganization: settings.MAX_ACTIVE_API_KEYS_PER_ORGANIZATION,
      dataScopeMaxValues: settings.DATA_SCOPE_MAX_VALUES,
      dataScopeMaxBytes: settings.DATA_SCOPE_MAX_BYTES,
      listPageSize: settings.API_KEY_LIST_PAGE_SIZE,
    },
    unauthenticatedRateLimitPerMinute: settings.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE,
    apiKeyCacheTtlSeconds: settings.API_KEY_CACHE_TTL_SECONDS,
    auditRetentionDays: settings.AUDIT_RETENTION_DAYS,
    importRecoveryIntervalSeconds: settings.IMPORT_RECOVERY_INTERVAL_SECONDS,
    backup: {
      dir: resolve(settings.BACKUP_DIR),
      s3: backupS3(settings),
      intervalMinutes: settings.BACKUP_INTERVAL_MINUTES,
      keep: settings.BACKUP_KEEP,
    },
    budgets: {
      evaluationMinutes: settings.BUDGET_EVALUATION_MINUTES,
      webhookAllowedHosts: settings.WEBHOOK_ALLOWED_HOSTS,
      webhookRetryBaseSeconds: settings.WEBHOOK_RETRY_BASE_SECONDS,
      secretsEncryptionKey: settings.SECRETS_ENCRYPTION_KEY,
    },
    resultCache: {
      maxBytes: settings.RESULT_CACHE_MAX_MB * MIB,
      ttlSeconds: settings.RESULT_CACHE_TTL_SECONDS,
      versionCheckMs: settings.RESULT_CACHE_VERSION_CHECK_MS,
    },
    organizationLimits: {
      concurrentStatements: settings.MAX_CONCURRENT_STATEMENTS_PER_ORGANIZATION,
      queuedStatements: settings.MAX_QUEUED_STATEMENTS_PER_ORGANIZATION,
      queuedStatementsPerKey: settings.MAX_QUEUED_STATEMENTS_PER_KEY,
    },
    answerDelivery: {
      sendTimeoutMs: settings.RESPONSE_SEND_TIMEOUT_SECONDS * 1000,
      unsentBytesPerOrganization: settings.MAX_UNSENT_ANSWER_MB_PER_ORGANIZATION * MIB,
    },
    defaultWindowDays: settings.DEFAULT_WINDOW_DAYS,
    maxDateRangeDays: settings.MAX_DATE_RANGE_DAYS,
    maxResultRows: settings.MAX_RESULT_ROWS,
    bodyLimitBytes: settings.BODY_LIMIT_BYTES,
    ratesImportMaxBytes: settings.RATES_IMPORT_MAX_BYTES,
    convertedSums: settings.CONVERTED_SUMS,
    categorySums: settings.CATEGORY_SUMS,
    ingestSources: {
      worker: settings.INGEST_WORKER,
      pollSeconds: settings.INGEST_POLL_SECONDS,
      settleSeconds: settings.INGEST_SETTLE_SECONDS,
      incompleteAfterSeconds: settings.INGEST_INCOMPLETE_AFTER_SECONDS,
      fileRoot: settings.INGEST_FILE_ROOT,
      maxObjectBytes: settings.INGEST_MAX_OBJECT_BYTES,
      maxListedObjects: settings.INGEST_MAX_LISTED_OBJECTS,
    },
    migrateOnStart: settings.MIGRATE_ON_START,
    activateSuggestedTagKeys: settings.TAG_KEYS_DEFAULT,
    demoOnEmptyStore: settings.DEMO_ON_EMPTY_STORE,
    trustProxyHops: settings.TRUST_PROXY_HOPS,
    keepAliveTimeoutMs: settings.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    headersTimeoutMs: settings.HTTP_KEEP_ALIVE_TIMEOUT_MS + HEADERS_TIMEOUT_MARGIN_MS,
    heapGrowingPercent: settings.HEAP_GROWING_PERCENT,
    shutdownReadinessDelayMs: settings.SHUTDOWN_READINESS_DELAY_MS,
    shutdownTimeoutMs: settings.SHUTDOWN_TIMEOUT_MS,
    sso: ssoConfig(settings),
    logLevel: settings.LOG_LEVEL,
    logFormat: settings.LOG_FORMAT,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The SSO settings as one configuration, or undefined when SSO_ISSUER_URL is unset; incomplete ones stop the boot. */
function ssoConfig(settings: SettingValues): SsoConfig | undefined {
  if (!settings.SSO_ISSUER_URL) return undefined;
  const missing = ['SSO_CLIENT_ID', 'SSO_REDIRECT_URL', 'SSO_GROUP_MAPPINGS'].filter((name) => !settings[name as SettingName]);
  if (!settings.SSO_CLIENT_SECRET && !settings.SSO_CLIENT_PRIVATE_KEY_FILE)
    missing.push('SSO_CLIENT_SECRET or SSO_CLIENT_PRIVATE_KEY_FILE');
  if (missing.length > 0) throw new ConfigError(`SSO_ISSUER_URL needs ${missing.join(', ')}`);
  let privateKeyPem: string | undefined;
  if (settings.SSO_CLIENT_PRIVATE_KEY_FILE) {
    try {
      privateKeyPem = readFileSync(settings.SSO_CLIENT_PRIVATE_KEY_FILE, 'utf8');
    } catch {
      throw new ConfigError('SSO_CLIENT_PRIVATE_KEY_FILE cannot be read');
    }
  }
  return {
    issuerUrl: settings.SSO_ISSUER_URL,
    clientId: settings.SSO_CLIENT_ID,
    clientSecret: settings.SSO_CLIENT_SECRET,
    privateKeyPem,
    redirectUrl: settings.SSO_REDIRECT_URL!,
    publicOrigin: new URL(settings.SSO_REDIRECT_URL!).origin,
    scopes: settings.SSO_SCOPES,
    groupsClaim: settings.SSO_GROUPS_CLAIM,
    groupMappings: parseGroupMappings(settings.SSO_GROUP_MAPPINGS),
    sessionIdleSeconds: settings.SSO_SESSION_IDLE_MINUTES * 60,
    sessionMaxSeconds: settings.SSO_SESSION_MAX_HOURS * 3600,
  };
}

function parseGroupMappings(raw: string): SsoConfig['groupMappings'] {
  const refuse = (why: string): never => {
    throw new ConfigError(`SSO_GROUP_MAPPINGS must be a JSON array of {"group", "organizationId", "scopes"}: ${why}`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return refuse('not JSON');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return refuse('not a non-empty array');
  return parsed.map((entry: unknown, i) => {
    const { group, organizationId, scopes } = (entry ?? {}) as Record<string, unknown>;
    if (typeof group !== 'string' || group === '') return refuse(`entry ${i}: group must be a non-empty string`);
    if (typeof organizationId !== 'string' || !UUID.test(organizationId)) return refuse(`entry ${i}: organizationId must be a UUID`);
    if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((scope) => typeof scope === 'string')) {
      return refuse(`entry ${i}: scopes must be a non-empty array of permission names`);
    }
    return { group, organizationId: organizationId.toLowerCase(), scopes: scopes as string[] };
  });
}

/** The configuration of an empty environment: every default, for documentation examples in AppConfig terms. */
export const DEFAULT_CONFIG: AppConfig = loadConfig({});

export { ConfigError };

/** Where S3 backups go (BACKUP_S3_URL), or undefined for BACKUP_DIR. */
export interface S3BackupSettings {
  bucket: string;
  /** Key prefix without a trailing slash ('' for the bucket's root). */
  prefix: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

function backupS3(settings: SettingValues): S3BackupSettings | undefined {
  if (!settings.BACKUP_S3_URL) return undefined;
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(settings.BACKUP_S3_URL);
  if (!match) throw new ConfigError(`BACKUP_S3_URL must be s3://bucket[/prefix], got "${settings.BACKUP_S3_URL}"`);
  const prefix = (match[2] ?? '').replace(/\/+$/, '');
  if (!/^[\w./-]*$/.test(prefix)) throw new ConfigError('BACKUP_S3_URL: the prefix may hold letters, digits and . _ - / only');
  const region = settings.BACKUP_S3_REGION;
  return {
    bucket: match[1],
    prefix,
    endpoint: settings.BACKUP_S3_ENDPOINT || `https://s3.${region}.amazonaws.com`,
    region,
    accessKeyId: settings.BACKUP_S3_ACCESS_KEY_ID,
    secretAccessKey: settings.BACKUP_S3_SECRET_ACCESS_KEY,
  };
}
