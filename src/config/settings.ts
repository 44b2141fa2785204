/**
 * Every setting the service reads from its environment, each defined once: the variable, its default, how
 * its text is parsed and bounded, its unit and its documentation. loadConfig (app-config.ts) builds AppConfig
 * from these values; docs/configuration.md's table is generated from this table (`npm run docs:config`),
 * and Swagger texts quote SETTING_DEFAULTS, so no default is written down twice.
 */

/** A bad value: the message names the variable, and the process stops at boot instead of failing in a request. */
export class ConfigError extends Error {}

/** Environment variables as the process (or a test, or the CLI) gives them. */
export type Environment = Record<string, string | undefined>;

/** What a number counts, for the reader: the README shows large defaults in a larger unit (2 GiB, 30 days). */
export type SettingUnit = 'bytes' | 'MiB' | 'seconds' | 'ms' | 'minutes' | 'days' | 'percent' | 'count';

export interface Setting<T> {
  /** The value when the variable is unset or empty. */
  readonly default: T;
  readonly unit?: SettingUnit;
  /** The README's "Meaning" column, Markdown. */
  readonly doc: string;
  /** The value of a non-empty text; an unusable one is a ConfigError naming the variable. */
  parse(raw: string, variable: string): T;
}

interface Described<T> {
  default: T;
  doc: string;
}

interface Bounded extends Described<number> {
  min: number;
  max: number;
  unit?: SettingUnit;
}

function withinBounds(variable: string, value: number, { min, max }: Bounded): number {
  if (value < min || value > max) throw new ConfigError(`${variable} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function integer(spec: Bounded): Setting<number> {
  return {
    ...spec,
    parse(raw, variable) {
      if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${variable} must be an integer, got "${raw}"`);
      return withinBounds(variable, Number(raw), spec);
    },
  };
}

/** A duration in seconds; fractions allowed (ClickHouse's max_execution_time takes them). */
function seconds(spec: Bounded): Setting<number> {
  return {
    ...spec,
    unit: 'seconds',
    parse(raw, variable) {
      if (!/^\d+(\.\d+)?$/.test(raw.trim())) throw new ConfigError(`${variable} must be a number of seconds, got "${raw}"`);
      return withinBounds(variable, Number(raw), spec);
    },
  };
}

function boolean(spec: Described<boolean>): Setting<boolean> {
  return {
    ...spec,
    parse(raw, variable) {
      if (/^(1|true|yes)$/i.test(raw)) return true;
      if (/^(0|false|no)$/i.test(raw)) return false;
      throw new ConfigError(`${variable} must be true or false, got "${raw}"`);
    },
  };
}

function text(spec: Described<string>): Setting<string> {
  return { ...spec, parse: (raw) => raw };
}

/** Unset by default: the feature it points at is off. */
function url(spec: { protocols: string[]; doc: string }): Setting<string | undefined> {
  return {
    default: undefined,
    doc: spec.doc,
    parse(raw, variable) {
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        throw new ConfigError(`${variable} must be a URL`);
      }
      if (!spec.protocols.includes(parsed.protocol)) throw new ConfigError(`${variable} must use ${spec.protocols.join(' or ')}`);
      return raw;
    },
  };
}

/** One URL, or several comma-separated (kept as the normalised list's text); unset by default. */
function urls(spec: { protocols: string[]; doc: string }): Setting<string | undefined> {
  const single = url(spec);
  return {
    default: undefined,
    doc: spec.doc,
    parse(raw, variable) {
      const list = raw
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '')
        .map((item) => single.parse(item, variable)!);
      if (list.length === 0) throw new ConfigError(`${variable} must be a URL`);
      return list.join(',');
    },
  };
}

/** A 32-byte key as 64 hex digits or base64; empty by default. The message never repeats the value. */
function encryptionKey(spec: { doc: string }): Setting<string> {
  return {
    default: '',
    doc: spec.doc,
    parse(raw, variable) {
      const text = raw.trim();
      const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? 32 : /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Buffer.from(text, 'base64').length : 0;
      if (bytes !== 32) throw new ConfigError(`${variable} must be 32 bytes: 64 hex digits or base64 (e.g. \`openssl rand -hex 32\`)`);
      return text;
    },
  };
}

/** A name put into SQL as an identifier (a database, a cluster; a backup's database: backup-location.ts): never quoted. */
export const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
export const PLAIN_IDENTIFIER_TEXT = 'a plain identifier ([A-Za-z_][A-Za-z0-9_]*, at most 63 characters)';

function identifier<T extends string | undefined>(spec: Described<T>): Setting<string | T> {
  return {
    ...spec,
    parse(raw, variable) {
      if (!PLAIN_IDENTIFIER.test(raw)) throw new ConfigError(`${variable} must be ${PLAIN_IDENTIFIER_TEXT}`);
      return raw;
    },
  };
}

/** Comma-separated URLs; empty by default. */
function urlList(spec: { protocols: string[]; doc: string }): Setting<string[]> {
  const single = url(spec);
  return {
    default: [],
    doc: spec.doc,
    parse(raw, variable) {
      return raw
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '')
        .map((item) => single.parse(item, variable)!);
    },
  };
}

function oneOf<T extends string>(spec: Described<T> & { allowed: readonly T[] }): Setting<T> {
  return {
    default: spec.default,
    doc: spec.doc,
    parse(raw, variable) {
      if (!(spec.allowed as readonly string[]).includes(raw)) {
        throw new ConfigError(`${variable} must be one of ${spec.allowed.join(', ')}, got "${raw}"`);
      }
      return raw as T;
    },
  };
}

export const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const DAY_SECONDS = 86_400;

/** The client gives up this long after ClickHouse would have, so the server's clear error wins. */
export const CLIENT_TIMEOUT_MARGIN_SECONDS = 5;
/** Node's headers timeout is the keep-alive timeout plus this (Node requires it to be larger). */
export const HEADERS_TIMEOUT_MARGIN_MS = 1000;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export const CLUSTER_REPLICATIONS = ['auto', 'replicated', 'distributed'] as const;
export type ClusterReplicationSetting = (typeof CLUSTER_REPLICATIONS)[number];
export type LogFormatSetting = (typeof LOG_FORMATS)[number];

const code = (value: string) => `\`${value}\``;

/** ORGANIZATION_RATE_LIMIT_PER_MINUTE's default, in keys' worth of RATE_LIMIT_PER_MINUTE. */
export const ORGANIZATION_RATE_LIMIT_KEYS = 4;

/** In the README's order (which is this table's). */
export const SETTINGS = {
  PORT: integer({
    default: 3000,
    min: 0,
    max: 65535,
    doc: 'HTTP port; the API is under `/v1`, Swagger UI at `/docs`, OpenAPI JSON at `/docs-json`',
  }),
  DATA_DIR: text({
    default: './data',
    doc: 'Embedded chDB data directory (used when `CLICKHOUSE_URL` is unset). One process at a time.',
  }),
  CLICKHOUSE_URL: urls({
    protocols: ['http:', 'https:'],
    doc:
      'ClickHouse server over HTTP(S), e.g. `http://clickhouse:8123`. Same SQL as embedded. Several, comma-separated: the ' +
      'first is preferred, the others (a standby, other nodes of the cluster) take the reads when it does not answer',
  }),
  CLICKHOUSE_USER: text({ default: 'default', doc: 'Server credentials: the user' }),
  CLICKHOUSE_PASSWORD: text({ default: '', doc: 'Server credentials: the password' }),
  CLICKHOUSE_DATABASE: identifier({ default: 'cost_insights', doc: 'Database (created by the migrator)' }),
  CLICKHOUSE_MAX_EXECUTION_SECONDS: seconds({
    default: 20,
    min: 0.001,
    max: 3600,
    doc:
      'Server-side `max_execution_time` per query, in seconds (fractions allowed); the client times out ' +
      `${CLIENT_TIMEOUT_MARGIN_SECONDS} s later. A query over it is a 400 that says how to narrow it`,
  }),
  CLICKHOUSE_MAX_MEMORY_BYTES: integer({
    default: 2 * GIB,
    min: 0,
    max: 1024 ** 4,
    unit: 'bytes',
    doc: 'Server-side `max_memory_usage` per query (`0`: no per-query limit). A query over this or the time budget is a 400 that says how to narrow it',
  }),
  REDIS_URL: url({
    protocols: ['redis:', 'rediss:'],
    doc:
      '`redis://…`. Shared filters live in Redis with a native TTL; rate-limit counters are shared by all instances. ' +
      'Without it: shared filters persist in ClickHouse, counters in process memory.',
  }),
  SHARED_FILTER_TTL_SECONDS: integer({
    default: 30 * DAY_SECONDS,
    min: 1,
    max: 10 * 365 * DAY_SECONDS,
    unit: 'seconds',
    doc: 'Lifetime of a shared filter',
  }),
  // A real configuration is a few kilobytes; 64 KiB still holds a hundred values of 500 characters. The
  // floor holds an empty configuration (defaults filled: 759 bytes) with room for some values.
  SHARED_FILTER_MAX_BYTES: integer({
    default: 65_536,
    min: 4096,
    max: 64 * MIB,
    unit: 'bytes',
    doc: 'Largest shared filter configuration as stored (its JSON with defaults filled, UTF-8 bytes); larger is a 400',
  }),
  SHARED_FILTER_QUOTA_COUNT: integer({
    default: 1000,
    min: 1,
    max: 1_000_000,
    unit: 'count',
    doc: 'Live (unexpired) shared filters per organisation; one more is a 403',
  }),
  SHARED_FILTER_QUOTA_MB: integer({
    default: 16,
    min: 1,
    max: 64 * 1024,
    unit: 'MiB',
    doc: 'MiB of live shared filter configurations per organisation (at least `SHARED_FILTER_MAX_BYTES`); more is a 403',
  }),
  // A share, not an absolute number, so it follows the organisation's quota: 25 % takes four keys (or data scopes) to fill it.
  SHARED_FILTER_KEY_QUOTA_PERCENT: integer({
    default: 25,
    min: 1,
    max: 100,
    unit: 'percent',
    doc:
      "Share of the organisation's `SHARED_FILTER_QUOTA_COUNT` and `SHARED_FILTER_QUOTA_MB` that the live filters created by one API key may hold " +
      '(by all unrevoked keys of one data scope together, for data-scoped keys; at least one filter of `SHARED_FILTER_MAX_BYTES`); ' +
      "more is a 403, so one key cannot lock its organisation's other keys out. `100`: only the organisation's quota",
  }),
  RATE_LIMIT_PER_MINUTE: integer({
    default: 300,
    min: 1,
    max: 1_000_000,
    unit: 'count',
    doc: 'Requests per API key per minute (one counter across all endpoints)',
  }),
  ORGANIZATION_RATE_LIMIT_PER_MINUTE: integer({
    default: 0,
    min: 0,
    max: 10_000_000,
    unit: 'count',
    doc:
      "Requests per organisation per minute, all its keys together (beside each key's own limit), so more keys do not multiply the limit; " +
      `\`0\`: ${ORGANIZATION_RATE_LIMIT_KEYS} × \`RATE_LIMIT_PER_MINUTE\` (${ORGANIZATION_RATE_LIMIT_KEYS * 300} with the defaults)`,
  }),
  UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: integer({
    default: 60,
    min: 1,
    max: 1_000_000,
    unit: 'count',
    doc: 'Requests per client IP per minute without a valid key',
  }),
  MAX_ACTIVE_API_KEYS_PER_ORGANIZATION: integer({
    default: 1000,
    min: 1,
    max: 1_000_000,
    unit: 'count',
    doc: 'Unrevoked API keys per organisation; creating one more through the admin API is a 403 (the operator CLI is not limited)',
  }),
  DATA_SCOPE_MAX_VALUES: integer({
    default: 1000,
    min: 1,
    max: 100_000,
    unit: 'count',
    doc: "Values (and tag or cost-category keys) in one key's data scope, all lists together; more is a 400",
  }),
  DATA_SCOPE_MAX_BYTES: integer({
    default: 65_536,
    min: 256,
    max: 64 * MIB,
    unit: 'bytes',
    doc: 'Largest data scope of a key as stored (its canonical JSON, UTF-8 bytes); larger is a 400',
  }),
  API_KEY_LIST_PAGE_SIZE: integer({
    default: 200,
    min: 1,
    max: 10_000,
    unit: 'count',
    doc: 'Keys per page of `GET /v1/admin/api-keys`: the default and the largest `limit` (more is a 400; `nextCursor` pages on)',
  }),
  // 400 days: a year of changes plus a month, so last year's annual review still finds the same month.
  AUDIT_RETENTION_DAYS: integer({
    default: 400,
    min: 1,
    max: 100 * 366,
    unit: 'days',
    doc:
      'How long the audit trail keeps an event (`GET /v1/admin/audit-events`): a ClickHouse TTL, which each start of the API ' +
      'sets to this value when it differs; shortening it deletes older events at the next merges',
  }),
  MCP_MAX_BATCH_CALLS: integer({
    default: 20,
    min: 1,
    max: 1000,
    unit: 'count',
    doc: 'Messages in one JSON-RPC batch POSTed to `/v1/mcp` (each `tools/call` costs one request of the rate limits); more is a 400',
  }),
  API_KEY_CACHE_TTL_SECONDS: integer({
    default: 10,
    min: 0,
    max: 3600,
    unit: 'seconds',
    doc: 'How long an instance caches a verified key; bounds how long a revoked key keeps working',
  }),
  MAX_CONCURRENT_STATEMENTS_PER_ORGANIZATION: integer({
    default: 4,
    min: 1,
    max: 1000,
    unit: 'count',
    doc: 'Statements of one organisation an instance runs at once; the others take turns (see *Fairness between organisations*)',
  }),
  MAX_QUEUED_STATEMENTS_PER_ORGANIZATION: integer({
    default: 64,
    min: 0,
    max: 100_000,
    unit: 'count',
    doc: 'Statements of one organisation waiting for their turn on an instance; one more is a 429 with `Retry-After: 1`',
  }),
  MAX_QUEUED_STATEMENTS_PER_KEY: integer({
    default: 16,
    min: 0,
    max: 100_000,
    unit: 'count',
    doc:
      "Statements of one API key waiting for their turn on an instance, within its organisation's queue (one more is a 429): " +
      "one key's flood leaves the rest of the queue to the organisation's other keys, whose statements also take turns with it",
  }),
  RESPONSE_SEND_TIMEOUT_SECONDS: integer({
    default: 30,
    min: 1,
    max: 3600,
    unit: 'seconds',
    doc: 'An answer whose client reads nothing for this long is dropped with its connection',
  }),
  MAX_UNSENT_ANSWER_MB_PER_ORGANIZATION: integer({
    default: 64,
    min: 1,
    max: 64 * 1024,
    unit: 'MiB',
    doc:
      "MiB of one organisation's answers an instance may hold while they are being sent; past it (clients not reading) " +
      'its requests get 429 with `Retry-After: 5`',
  }),
  CLICKHOUSE_MAX_OPEN_CONNECTIONS: integer({
    default: 10,
    min: 1,
    max: 1000,
    unit: 'count',
    doc: 'Statements an instance runs on the ClickHouse server at once (more queue); with `MAX_RESULT_ROWS` it bounds the result rows in memory at once',
  }),
  // One thread: over the few hundred parts of an organisation's periods, fanning the analysis out costs
  // more in hand-offs than it saves.
  CLICKHOUSE_INDEX_ANALYSIS_THREADS: integer({
    default: 1,
    min: 0,
    max: 1024,
    unit: 'count',
    doc:
      "`max_threads_for_indexes` of the API's reads (`0`: the server's default), sent only when the server knows the setting: " +
      "the planner's primary-key and projection analysis over a few hundred parts is faster on one thread (bench: 25 → 12.5 ms of planning)",
  }),
  IMPORT_RECOVERY_INTERVAL_SECONDS: integer({
    default: 5,
    min: 0,
    max: 86_400,
    unit: 'seconds',
    doc: 'Server mode: how often an instance rolls back an import that died between partition swaps once its 2-minute lease expired (`0`: only at start)',
  }),
  BACKUP_DIR: text({
    default: './backups',
    doc:
      'Where `backup create` writes and `backup restore` reads (ClickHouse `BACKUP … TO File`): one folder per backup. ' +
      "With a server it is the server's path and must be in its `backups.allowed_path` and visible at the same path to " +
      'the process that runs the backup commands (the same host, or a shared mount); embedded, it is allowed automatically',
  }),
  BACKUP_S3_URL: text({
    default: '',
    doc:
      'Back up to S3-compatible storage instead of BACKUP_DIR: `s3://bucket/prefix` (ClickHouse `BACKUP … TO S3`; the ' +
      'backup commands read the manifests with the AWS SDK)',
  }),
  BACKUP_S3_ENDPOINT: text({
    default: '',
    doc: 'The S3 endpoint for BACKUP_S3_URL (S3-compatible servers: MinIO, Ceph, OCI, …); empty: AWS, `https://s3.<region>.amazonaws.com`',
  }),
  BACKUP_S3_REGION: text({ default: 'us-east-1', doc: 'The S3 region for BACKUP_S3_URL' }),
  BACKUP_S3_ACCESS_KEY_ID: text({
    default: '',
    doc: "Credentials for BACKUP_S3_URL: the access key id (empty: the server's own, e.g. an instance role)",
  }),
  BACKUP_S3_SECRET_ACCESS_KEY: text({ default: '', doc: 'Credentials for BACKUP_S3_URL: the secret access key; never logged' }),
  BACKUP_INTERVAL_MINUTES: integer({
    default: 0,
    min: 0,
    max: 7 * 24 * 60,
    unit: 'minutes',
    doc:
      'The worker (INGEST_WORKER; one instance at a time with Redis) takes a backup when the newest complete one is older ' +
      'than this: incremental on it, a full one every 7th (`0`: never; e.g. `1440`: daily)',
  }),
  BACKUP_KEEP: integer({
    default: 7,
    min: 1,
    max: 1000,
    unit: 'count',
    doc: 'Scheduled backups keep this many newest complete backups and the bases they need; older ones (and incomplete ones older than the newest complete) are deleted',
  }),
  BUDGET_EVALUATION_MINUTES: integer({
    default: 60,
    min: 1,
    max: 24 * 60,
    unit: 'minutes',
    doc:
      "The worker (INGEST_WORKER; one instance at a time with Redis) evaluates every organisation's budgets this often, and " +
      'within a minute of any import or budget change',
  }),
  WEBHOOK_ALLOWED_HOSTS: text({
    default: '',
    doc:
      'The hosts budget webhooks may be delivered to, comma-separated: `host`, `host:port`, `*.suffix` (a pattern without a ' +
      'port allows the scheme’s default port only); empty: none. `https://` only, but `http://` to an allowed loopback host; ' +
      'link-local and cloud metadata addresses are refused whatever the name resolves to',
  }),
  WEBHOOK_RETRY_BASE_SECONDS: integer({
    default: 10,
    min: 1,
    max: 3600,
    unit: 'seconds',
    doc: 'The first retry of a failed webhook delivery: then ×3 each time (10 s, 30 s, 90 s, …), at most an hour apart, for 24 hours',
  }),
  SECRETS_ENCRYPTION_KEY: encryptionKey({
    doc:
      'A 32-byte key (64 hex digits or base64) that encrypts webhook signing secrets at rest (AES-256-GCM); empty: they are ' +
      'stored as given. Never logged; keep it beside the backups, not in them',
  }),
  RESULT_CACHE_MAX_MB: integer({
    default: 64,
    min: 0,
    max: 64 * 1024,
    unit: 'MiB',
    doc: "Memory budget of an instance's answer cache (see *Answer cache*); `0` turns it off",
  }),
  RESULT_CACHE_TTL_SECONDS: integer({
    default: 300,
    min: 1,
    max: 86_400,
    unit: 'seconds',
    doc: 'The longest an answer stays cached',
  }),
  RESULT_CACHE_VERSION_CHECK_MS: integer({
    default: 1000,
    min: 0,
    max: 600_000,
    unit: 'ms',
    doc:
      'How often an instance re-reads the data version (in the background; a request waits for it only once it is twice this old): ' +
      'an answer older than an import by another process is served for at most twice this',
  }),
  DEFAULT_WINDOW_DAYS: integer({
    default: 30,
    min: 1,
    max: 3660,
    unit: 'days',
    doc: 'Date window when a request gives neither `dateRange` nor `billingPeriods`',
  }),
  MAX_DATE_RANGE_DAYS: integer({
    default: 3 * 366,
    min: 1,
    max: 36600,
    unit: 'days',
    doc: 'Longest `dateRange` / compare period accepted',
  }),
  MAX_RESULT_ROWS: integer({
    default: 50_000,
    min: 1,
    max: 10_000_000,
    unit: 'count',
    doc: 'Most `items` / options a response may carry; larger results are a 400 that says how to narrow',
  }),
  BODY_LIMIT_BYTES: integer({
    default: MIB,
    min: 1024,
    max: 100 * MIB,
    unit: 'bytes',
    doc: 'Request body limit (413 above it)',
  }),
  RATES_IMPORT_MAX_BYTES: integer({
    default: 16 * MIB,
    min: 1024,
    max: 256 * MIB,
    unit: 'bytes',
    doc: "Largest exchange-rate file POST /v1/admin/exchange-rates accepts (`text/csv`; 413 above it): the ECB's whole history is about 1.5 MB",
  }),
  CONVERTED_SUMS: boolean({
    default: true,
    doc: "Answer converted /data questions (no tag or cost-category filter or grouping) from converted sums: each organisation's costs converted once per state of its costs, rates and settings and answer currency, built in the background after the first such question (one thread), used for 12 hours; `false` converts every answer from the cost rows",
  }),
  CATEGORY_SUMS: boolean({
    default: true,
    doc: "Answer /data questions grouped or filtered by rule-defined cost categories (and no tag or imported category) from category sums: each organisation's costs with its categories' values computed once per state of its costs and saved versions, built in the background after the first such question (one thread), used for 12 hours; `false` evaluates the rules on every answer",
  }),
  INGEST_WORKER: boolean({
    default: true,
    doc: 'Run the data-source worker in this API process (one instance polls at a time: a Redis lease); `false` leaves it to `npm run worker` or another instance',
  }),
  INGEST_FILE_ROOT: text({
    default: '',
    doc: "The directory of tenants' file exports: a `file:///…` data source of organisation X must lie in `INGEST_FILE_ROOT/<X's id>/` (created on first use; its real path, and every file's, checked at every read); unset: the admin API refuses file sources (the operator's CLI may also add a folder outside the root)",
  }),
  INGEST_MAX_OBJECT_BYTES: integer({
    default: 20 * GIB,
    min: 1,
    max: 1024 * GIB,
    unit: 'bytes',
    doc: 'Largest export part a data source reads: a larger one (or one larger than the free temporary space, for a download) is refused before it is read, naming it',
  }),
  INGEST_MAX_LISTED_OBJECTS: integer({
    default: 100_000,
    min: 1,
    max: 10_000_000,
    unit: 'count',
    doc: "Most objects one check of a data source lists (files of a folder, objects under a bucket's prefix): over it the check is refused, naming this cap (narrow the source's folder or prefix)",
  }),
  INGEST_POLL_SECONDS: seconds({
    default: 300,
    min: 1,
    max: DAY_SECONDS,
    doc: 'How often the worker checks every data source for new deliveries (a check of a source with nothing new is one listing, no reads)',
  }),
  INGEST_SETTLE_SECONDS: seconds({
    default: 120,
    min: 0,
    max: DAY_SECONDS,
    doc: 'A layout without a manifest (`focus-files`, `oci-focus`, `metrics-files`): a delivery is complete once none of its files changed for this long',
  }),
  INGEST_INCOMPLETE_AFTER_SECONDS: seconds({
    default: 6 * 3600,
    min: 0,
    max: 7 * DAY_SECONDS,
    doc: 'A delivery whose manifest names parts that are still missing after this long is reported as an incomplete delivery (it is imported if they arrive later)',
  }),
  MIGRATE_ON_START: boolean({
    default: true,
    doc: 'Apply pending migrations at start (set `false` when a separate migrate step runs)',
  }),
  TAG_KEYS_DEFAULT: boolean({
    default: true,
    doc: 'An organisation that never chose its activated tag keys gets the suggested ones (on at least half of its cost, at most 10,000 values, not one per resource) activated: a first import (`ingest focus`, a data source) chooses them from its own files before writing a row, so no back-fill follows it; an import into an organisation that has rows already, and the demo estate, activate them after it, back-filled (`false`: every key is read from the full maps until an admin chooses)',
  }),
  DEMO_ON_EMPTY_STORE: boolean({
    default: true,
    doc: 'Load the demo organisation, data and key when the store is empty',
  }),
  TRUST_PROXY_HOPS: integer({
    default: 0,
    min: 0,
    max: 10,
    unit: 'count',
    doc: 'Proxy hops whose `X-Forwarded-For` is trusted for the client IP',
  }),
  // Above nginx's default 60 s upstream keepalive_timeout: the proxy, not Node, closes idle connections.
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer({
    default: 65_000,
    min: 1000,
    max: 3_600_000,
    unit: 'ms',
    doc:
      "Node keep-alive idle timeout; keep it above the load balancer's upstream idle timeout (nginx: 60 s). " +
      `Headers timeout = this + ${HEADERS_TIMEOUT_MARGIN_MS / 1000} s`,
  }),
  SHUTDOWN_READINESS_DELAY_MS: integer({
    default: 5000,
    min: 0,
    max: 120_000,
    unit: 'ms',
    doc: 'On SIGTERM: how long readiness answers 503 while requests are still served, before the listener closes',
  }),
  SHUTDOWN_TIMEOUT_MS: integer({
    default: 30_000,
    min: 0,
    max: 600_000,
    unit: 'ms',
    doc: 'On SIGTERM: the longest wait for in-flight requests once the listener is closed',
  }),
  CLICKHOUSE_CLUSTER: identifier({
    default: undefined,
    doc:
      "A cluster of the servers' `remote_servers`: cost rows are sharded by import unit over its shards and every question " +
      'fans out to all of them (see *Running on a ClickHouse cluster*). Needs `CLICKHOUSE_URL` (any node)',
  }),
  CLICKHOUSE_CLUSTER_REPLICATION: oneOf<ClusterReplicationSetting>({
    default: 'auto',
    allowed: CLUSTER_REPLICATIONS,
    doc:
      'How replicas of a shard are kept: `replicated` (ReplicatedMergeTree with Keeper, DDL `ON CLUSTER`, ' +
      '`internal_replication=true`), `distributed` (plain MergeTree on every node, the migrator applies DDL to every host, ' +
      'the Distributed tables write every replica: `internal_replication=false`), or `auto`: what an existing schema uses, ' +
      'else `replicated` when the servers have Keeper',
  }),
  CLICKHOUSE_CLUSTER_NODE_URLS: urlList({
    protocols: ['http:', 'https:'],
    doc:
      "HTTP(S) URLs of the cluster's nodes, comma-separated, for the work done on each node (migrations, partition swaps of " +
      "imports) and as entry nodes for reads when `CLICKHOUSE_URL`'s do not answer; default: each host of `system.clusters` " +
      "at `CLICKHOUSE_URL`'s scheme and port",
  }),
  // ClickHouse closes idle keep-alive connections after keep_alive_timeout (3 s by default up to 24.x,
  // 10 s later): drop ours earlier so a socket the server has closed is never picked for a request.
  CLICKHOUSE_IDLE_SOCKET_TTL_MS: integer({
    default: 2500,
    min: 100,
    max: 600_000,
    unit: 'ms',
    doc: "Idle keep-alive sockets to ClickHouse are dropped after this; keep it below the server's `keep_alive_timeout`",
  }),
  HEAP_GROWING_PERCENT: integer({
    default: 200,
    min: 0,
    max: 1000,
    unit: 'percent',
    doc:
      "V8's old-generation growing factor for the API's process, as a percentage over 1 (`200`: the heap may grow to ~3× " +
      "its live size between full collections; `0`: V8's own heuristic, which on this API's small heap ran a full " +
      'mark-compact every 2–3 large answers; see *Performance*)',
  }),
  SSO_ISSUER_URL: url({
    protocols: ['https:', 'http:'],
    doc:
      "Sign-in to the Settings pages through an OpenID Connect provider: the provider's issuer, whose " +
      '`/.well-known/openid-configuration` is read (Entra ID: `https://login.microsoftonline.com/<tenant>/v2.0`). Unset: ' +
      'the pages sign in with an admin API key (for evaluation). `http:` only for a provider on loopback',
  }),
  SSO_CLIENT_ID: text({ default: '', doc: "The service's client id at the provider (needed with `SSO_ISSUER_URL`)" }),
  SSO_CLIENT_SECRET: text({
    default: '',
    doc: 'The client secret (`client_secret_basic`); never logged. Empty with `SSO_CLIENT_PRIVATE_KEY_FILE`',
  }),
  SSO_CLIENT_PRIVATE_KEY_FILE: text({
    default: '',
    doc: 'A PEM private key (RSA or EC) the service signs its client assertions with (`private_key_jwt`) instead of a secret; register its public key at the provider',
  }),
  SSO_REDIRECT_URL: url({
    protocols: ['https:', 'http:'],
    doc:
      'The callback registered at the provider, on the address users open the service at: `https://<host>/auth/callback`. ' +
      "Its origin is the only one the pages' changes are accepted from (cross-site protection)",
  }),
  SSO_SCOPES: text({ default: 'openid email profile', doc: 'Scopes asked for (Okta: add `groups`)' }),
  SSO_GROUPS_CLAIM: text({
    default: 'groups',
    doc: "The ID token claim that lists the user's groups (Entra ID: `groups`, object ids; Keycloak: a groups mapper)",
  }),
  SSO_GROUP_MAPPINGS: text({
    default: '',
    doc:
      'JSON array of `{"group", "organizationId", "scopes"}`: members of `group` sign in to that organisation with those ' +
      'permissions (e.g. `["api-keys:admin"]`); a user in no mapped group is refused',
  }),
  SSO_SESSION_IDLE_MINUTES: integer({
    default: 30,
    min: 1,
    max: 24 * 60,
    unit: 'count',
    doc: 'A signed-in session ends after this many minutes without a request',
  }),
  SSO_SESSION_MAX_HOURS: integer({
    default: 12,
    min: 1,
    max: 24 * 30,
    unit: 'count',
    doc: 'A signed-in session ends this many hours after sign-in, however active',
  }),
  LOG_LEVEL: oneOf({
    default: 'info',
    allowed: LOG_LEVELS,
    doc: `${LOG_LEVELS.slice(0, -1).map(code).join(', ')} or ${code(LOG_LEVELS[LOG_LEVELS.length - 1])} (logs on stdout)`,
  }),
  LOG_FORMAT: oneOf<LogFormatSetting>({
    default: 'auto',
    allowed: LOG_FORMATS,
    doc:
      '`auto`: human-readable lines (pino-pretty) when stdout is a terminal, JSON lines otherwise (piped, to a file); ' +
      '`json` (the Docker image sets it) or `pretty` to choose. Key material is redacted in both',
  }),
} satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;

/** Each setting's value, keyed by its variable, in the variable's unit. */
export type SettingValues = { readonly [Name in SettingName]: (typeof SETTINGS)[Name]['default'] };

/** Settings given in place of the process environment's (tests, the CLI, the benchmark); undefined unsets one. */
export type SettingOverrides = { readonly [Name in SettingName]?: string | undefined };

/** Every setting read from `env`: unset or empty means the default. Throws a ConfigError at the first bad value, in table order. */
export function readSettings(env: Environment): SettingValues {
  const values = Object.entries(SETTINGS).map(([variable, setting]: [string, Setting<unknown>]) => {
    const raw = env[variable];
    return [variable, raw === undefined || raw === '' ? setting.default : setting.parse(raw, variable)];
  });
  return Object.fromEntries(values) as SettingValues;
}

/** The defaults, keyed by variable, for texts that quote them (Swagger, CLI help). */
export const SETTING_DEFAULTS: SettingValues = Object.freeze(readSettings({}));
