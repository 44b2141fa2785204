/**
 * Cluster mode (CLICKHOUSE_CLUSTER set): the same migration files, rewritten statement by statement
 * for a ClickHouse cluster defined in the servers' `remote_servers` (with Keeper and the `{shard}` /
 * `{replica}` macros configured on every node):
 *
 * - DDL runs `ON CLUSTER <name>` (CREATE DATABASE/TABLE, DROP, EXCHANGE, ALTER);
 * - `*MergeTree` engines become `Replicated*MergeTree` with the path `/clickhouse/tables/{uuid}/{shard}`;
 *   the small lookup tables (api_keys, shared_filters, schema_migrations) use `/clickhouse/tables/{uuid}/all`
 *   instead, i.e. one replica set spanning every node, so every node can verify every key;
 * - each sharded table (cost_line_items and tables derived from it, e.g. a migration's build table) gets a
 *   `<name>_distributed` table sharded by `cityHash64(organization_id)` (one organisation's rows on one
 *   shard), and the API reads and inserts through it (`ClickhouseService.table`);
 * - a migration's `INSERT INTO <sharded> … SELECT … FROM <sharded>` copies through the Distributed tables,
 *   synchronously, so rows of every shard are copied (to the same shard: same sharding key), not only
 *   those of the node the migrator is connected to.
 *
 * {uuid} is assigned by the initiator of an ON CLUSTER CREATE and is the same on every replica; it keeps
 * the Keeper paths distinct across EXCHANGE TABLES. Single-server deployments never see any of this.
 */
export interface ClusterTarget {
  cluster: string;
  database: string;
}

/** Tables replicated on every node rather than sharded. */
const EVERYWHERE_TABLES = new Set(['api_keys', 'api_key_usage', 'shared_filters', 'schema_migrations', 'import_journal']);
/** Sharded tables and their sharding key; tables whose name starts with one of these are sharded alike. */
const SHARDED_TABLES: Record<string, string> = { cost_line_items: 'cityHash64(organization_id)' };

export const DISTRIBUTED_SUFFIX = '_distributed';

export function shardingKeyOf(table: string): string | undefined {
  const base = Object.keys(SHARDED_TABLES).find((name) => table === name || table.startsWith(`${name}_`));
  return base && !table.endsWith(DISTRIBUTED_SUFFIX) ? SHARDED_TABLES[base] : undefined;
}

/** The table the API reads and writes: the Distributed table for sharded tables in cluster mode. */
export function servingTableName(table: string, clusterMode: boolean): string {
  return clusterMode && shardingKeyOf(table) ? `${table}${DISTRIBUTED_SUFFIX}` : table;
}

const IDENT = '[A-Za-z_][A-Za-z0-9_]*';
const QUALIFIED = `(${IDENT})\\.(${IDENT})`;

/** One migration statement → the statements to run on the cluster, in order. */
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
    // Copy through the Distributed tables (every shard's rows), synchronously before the next statement.
    let copied = sql.replace(match[0], `INSERT INTO ${database}.${table}${DISTRIBUTED_SUFFIX}`);
    copied = copied.replace(new RegExp(`\\bFROM\\s+${QUALIFIED}`, 'gi'), (from, db: string, source: string) =>
      shardingKeyOf(source) ? `FROM ${db}.${source}${DISTRIBUTED_SUFFIX}` : from,
    );
    copied = /\bSETTINGS\b/i.test(copied.slice(0, copied.search(/\bSELECT\b/i)))
      ? copied.replace(/\bSETTINGS\s+/i, 'SETTINGS insert_distributed_sync = 1, ')
      : copied.replace(/(\s)SELECT\b/i, '$1SETTINGS insert_distributed_sync = 1\nSELECT');
    return [copied];
  }

  throw new Error(`Cluster mode cannot translate this migration statement; extend cluster-ddl.ts: ${sql.slice(0, 80)}…`);
}

function insertAfter(sql: string, prefix: string, addition: string): string {
  return `${prefix}${addition}${sql.slice(prefix.length)}`;
}

/** `ENGINE = XMergeTree[(args)]` → `ENGINE = ReplicatedXMergeTree('<path>', '{replica}'[, args])`. */
function replicatedEngine(sql: string, table: string): string {
  const path = EVERYWHERE_TABLES.has(table) ? '/clickhouse/tables/{uuid}/all' : '/clickhouse/tables/{uuid}/{shard}';
  const engine = /\bENGINE\s*=\s*(\w*MergeTree)\b(\s*\(([^)]*)\))?/i.exec(sql);
  if (!engine) throw new Error(`Cluster mode: no MergeTree engine in CREATE TABLE ${table}`);
  const [whole, family, , args] = engine;
  if (/^Replicated/i.test(family)) return sql;
  const replicatedArgs = [`'${path}'`, `'{replica}'`, ...(args?.trim() ? [args.trim()] : [])].join(', ');
  return sql.replace(whole, `ENGINE = Replicated${family}(${replicatedArgs})`);
}
