import { Placement, STORE_TABLES, StoreTable } from './store-tables';

/**
 * Cluster mode (CLICKHOUSE_CLUSTER): which tables are spread over the shards and how, and the DDL of the two
 * ways of keeping a shard's replicas (CLICKHOUSE_CLUSTER_REPLICATION):
 *
 * - `distributed` (run for real in the tests, on libchdb nodes): plain MergeTree tables on every node, the
 *   migrator applying each migration to every host itself (migrator.ts), and one Distributed table per
 *   cluster-wide table that writes every replica of a shard (`internal_replication=false` in remote_servers);
 * - `replicated` (production with Keeper; generated and unit-tested here, not run): the same migration files
 *   rewritten statement by statement by toClusterStatements: DDL `ON CLUSTER`, `Replicated*MergeTree` engines
 *   keyed by `{shard}`/`{replica}`, and the same Distributed tables (`internal_replication=true`).
 *
 * Placement, the same in both:
 * - cost rows are sharded by their import unit, the partition (organisation, integration, billing period):
 *   an integration's months are dealt round-robin over the shards from a starting shard that a hash of the
 *   (organisation, integration) picks, so one organisation's data spreads over every shard as soon as it has
 *   as many months (or integrations) as there are shards, while each partition lives wholly on one shard,
 *   where a re-import swaps it atomically (REPLACE PARTITION);
 * - the small tables (API keys and their last use, shared filters, the import journal, exchange rates,
 *   organisation settings, data sources, the register of converted-sum builds, the audit trail, the backup runs, the
 *   activated tag keys, the installation's secrets) keep all their rows on
 *   the first shard (a constant sharding key): every node reads them through their Distributed tables, and
 *   the versions of one row are always on one shard, so FINAL is exact;
 * - converted sums (derived, rebuilt at will) keep each organisation's rows on one shard;
 * - the migrator's own record (schema_migrations) is node-local: it says what each node has applied.
 */
export type ClusterReplication = 'replicated' | 'distributed';

export interface ClusterTarget {
  cluster: string;
  database: string;
}

/**
 * The shard of a cost row, from its partition key only: the month number (year × 12 + month) plus a starting
 * offset per (organisation, integration). Kept below 2^32 so the sum never wraps.
 */
export const IMPORT_UNIT_SHARDING_KEY =
  'cityHash64(organization_id, integration_id) % 65536 + ' +
  'toUInt32OrZero(substring(billing_period, 1, 4)) * 12 + toUInt32OrZero(substring(billing_period, 6, 2))';

/** Every row of these tables on the first shard. */
const FIRST_SHARD = '0';
/** Each organisation's rows on one shard, the organisations spread over the shards. */
const BY_ORGANIZATION = 'cityHash64(organization_id)';

/** The sharding key of each placement that spreads a table over the cluster (the others are never distributed). */
const SHARDING_KEYS: Readonly<Partial<Record<Placement, string>>> = {
  'by-import-unit': IMPORT_UNIT_SHARDING_KEY,
  'by-organization': BY_ORGANIZATION,
  'first-shard': FIRST_SHARD,
};
const PLACEMENTS = Object.entries(STORE_TABLES) as Array<[StoreTable, Placement]>;

/** Tables every node reads and writes through a Distributed table, with their sharding keys (from STORE_TABLES). */
export const CLUSTER_WIDE_TABLES: Readonly<Record<string, string>> = Object.fromEntries(
  PLACEMENTS.flatMap(([table, placement]) => (SHARDING_KEYS[placement] === undefined ? [] : [[table, SHARDING_KEYS[placement]]])),
);

/** Node-local on every node, never sharded (replicated to every node in `replicated` mode). */
const NODE_LOCAL_TABLES = new Set<string>(PLACEMENTS.filter(([, placement]) => placement === 'node-local').map(([table]) => table));

export const DISTRIBUTED_SUFFIX = '_distributed';

/**
 * The sharding key of a cluster-wide table, or of a table derived from the cost table by a migration (a
 * `cost_line_items_<…>` build table, sharded alike); undefined for any other.
 */
export function shardingKeyOf(table: string): string | undefined {
  if (table.endsWith(DISTRIBUTED_SUFFIX)) return undefined;
  if (CLUSTER_WIDE_TABLES[table] !== undefined) return CLUSTER_WIDE_TABLES[table];
  return table.startsWith('cost_line_items_') ? CLUSTER_WIDE_TABLES.cost_line_items : undefined;
}

/** The table the API reads and writes: the Distributed table of a cluster-wide table in cluster mode. */
export function servingTableName(table: string, clusterMode: boolean): string {
  return clusterMode && CLUSTER_WIDE_TABLES[table] !== undefined ? `${table}${DISTRIBUTED_SUFFIX}` : table;
}

/**
 * The Distributed table of a cluster-wide table on one node, made from the node's local table (so it follows
 * every column a migration added): replaced atomically when the columns differ.
 */
export function distributedTableSql(target: ClusterTarget, table: string): string {
  const key = CLUSTER_WIDE_TABLES[table];
  if (key === undefined) throw new Error(`${table} is not a cluster-wide table`);
  const { cluster, database } = target;
  return `CREATE OR REPLACE TABLE ${database}.${table}${DISTRIBUTED_SUFFIX} AS ${database}.${table}
ENGINE = Distributed(${cluster}, ${database}, ${table}, ${key})`;
}

const IDENT = '[A-Za-z_][A-Za-z0-9_]*';
const QUALIFIED = `(${IDENT})\\.(${IDENT})`;

/**
 * `replicated` mode: one migration statement → the statements to run once, on any node, in order. A statement
 * it cannot translate stops the migration instead of running on one node only.
 */
export function toClusterStatements(statement: string, target: ClusterTarget): string[] {
  const sql = statement.trim();
  const onCluster = `ON CLUSTER ${target.cluster}`;

  let match = new RegExp(`^CREATE\\s+DATABASE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?(${IDENT})`, 'i').exec(sql);
  if (match) return [insertAfter(sql, match[0], ` ${onCluster}`)];

  match = new RegExp(`^CREATE\\s+TABLE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?${QUALIFIED}`, 'i').exec(sql);
  if (match) {
    const [, , database, table] = match;
    if (/\bENGINE\s*=\s*Distributed\b/i.test(sql)) return [insertAfter(sql, match[0], ` ${onCluster}`)];
    const created = replicatedEngine(insertAfter(sql, match[0], ` ${onCluster}`), table);
    const key = shardingKeyOf(table);
    if (!key) return [created];
    return [
      created,
      `CREATE TABLE IF NOT EXISTS ${database}.${table}${DISTRIBUTED_SUFFIX} ${onCluster} AS ${database}.${table}\n` +
        `ENGINE = Distributed(${target.cluster}, ${database}, ${table}, ${key})`,
    ];
  }

  match = new RegExp(`^CREATE\\s+DICTIONARY\\s+(IF\\s+NOT\\s+EXISTS\\s+)?${QUALIFIED}`, 'i').exec(sql);
  // Every node its own copy, loaded from the cluster-wide source the statement names.
  if (match) return [insertAfter(sql, match[0], ` ${onCluster}`)];

  match = new RegExp(`^DROP\\s+TABLE\\s+(IF\\s+EXISTS\\s+)?${QUALIFIED}\\s*$`, 'i').exec(sql);
  if (match) {
    const [, , database, table] = match;
    const drop = (name: string) => `DROP TABLE IF EXISTS ${database}.${name} ${onCluster} SYNC`;
    // The Distributed table first: it must never point at a dropped table.
    return shardingKeyOf(table) ? [drop(`${table}${DISTRIBUTED_SUFFIX}`), drop(table)] : [drop(table)];
  }

  match = new RegExp(`^EXCHANGE\\s+TABLES\\s+${QUALIFIED}\\s+AND\\s+${QUALIFIED}\\s*$`, 'i').exec(sql);
  if (match) {
    // Distributed tables refer to local tables by name, so they follow the exchange by themselves.
    return [`${sql} ${onCluster}`];
  }

  match = new RegExp(`^ALTER\\s+TABLE\\s+${QUALIFIED}`, 'i').exec(sql);
  if (match) {
    const [, database, table] = match;
    const altered = insertAfter(sql, match[0], ` ${onCluster}`);
    // The Distributed table copied the columns when it was created: a column added, dropped or changed follows there too.
    if (!shardingKeyOf(table) || !/^ALTER\s+TABLE\s+\S+\s+(ADD|DROP|MODIFY)\s+COLUMN\b/i.test(sql)) return [altered];
    const prefix = `ALTER TABLE ${database}.${table}${DISTRIBUTED_SUFFIX} ${onCluster}`;
    return [altered, `${prefix}${sql.slice(match[0].length)}`];
  }

  match = new RegExp(`^INSERT\\s+INTO\\s+${QUALIFIED}`, 'i').exec(sql);
  if (match) {
    const [, database, table] = match;
    if (!shardingKeyOf(table)) return [sql];
    // Through the Distributed tables (every shard's rows, placed by the sharding key), synchronously before the next statement.
    let copied = sql.replace(match[0], `INSERT INTO ${database}.${table}${DISTRIBUTED_SUFFIX}`);
    copied = copied.replace(new RegExp(`\\bFROM\\s+${QUALIFIED}`, 'gi'), (from, db: string, source: string) =>
      shardingKeyOf(source) ? `FROM ${db}.${source}${DISTRIBUTED_SUFFIX}` : from,
    );
    copied = /\bSETTINGS\b/i.test(copied.slice(0, copied.search(/\bSELECT\b/i)))
      ? copied.replace(/\bSETTINGS\s+/i, 'SETTINGS distributed_foreground_insert = 1, ')
      : copied.replace(/(\s)SELECT\b/i, '$1SETTINGS distributed_foreground_insert = 1\nSELECT');
    return [copied];
  }

  throw new Error(`Cluster mode cannot translate this migration statement; extend cluster-ddl.ts: ${sql.slice(0, 80)}…`);
}

function insertAfter(sql: string, prefix: string, addition: string): string {
  return `${prefix}${addition}${sql.slice(prefix.length)}`;
}

/**
 * `ENGINE = XMergeTree[(args)]` → `ENGINE = ReplicatedXMergeTree('<path>', '{replica}'[, args])`: replicas of
 * a shard share `/clickhouse/tables/{uuid}/{shard}`; the migrator's record is one replica set over every node.
 * {uuid} is assigned by the initiator of an ON CLUSTER CREATE and is the same on every replica; it keeps the
 * Keeper paths distinct across EXCHANGE TABLES.
 */
function replicatedEngine(sql: string, table: string): string {
  const path = NODE_LOCAL_TABLES.has(table) ? '/clickhouse/tables/{uuid}/all' : '/clickhouse/tables/{uuid}/{shard}';
  const engine = /\bENGINE\s*=\s*(\w*MergeTree)\b(\s*\(([^)]*)\))?/i.exec(sql);
  if (!engine) throw new Error(`Cluster mode: no MergeTree engine in CREATE TABLE ${table}`);
  const [whole, family, , args] = engine;
  if (/^Replicated/i.test(family)) return sql;
  const replicatedArgs = [`'${path}'`, `'{replica}'`, ...(args?.trim() ? [args.trim()] : [])].join(', ');
  return sql.replace(whole, `ENGINE = Replicated${family}(${replicatedArgs})`);
}
