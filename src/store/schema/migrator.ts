import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { allSettled } from '../../common/async/all-settled';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { CLUSTER_WIDE_TABLES, ClusterReplication, DISTRIBUTED_SUFFIX, distributedTableSql, toClusterStatements } from './cluster-ddl';
import { NodesUnreachableError } from '../clickhouse/cluster-nodes';
import { crashIfMigrationFault } from './migration-fault';
import { fillPlaceholders } from './migration-text';
import { baselineStatements, coverHash, readBaseline } from './schema-baseline';
import { StoreTable } from './store-tables';

/** Read from the repository's src/ by the compiled migrator too (tsc copies no SQL into dist/). */
export const MIGRATIONS_DIR = resolve(__dirname, '../../../src/store/schema/migrations');

export interface Migration {
  version: number;
  name: string;
  statements: string[];
  checksum: string;
  /**
   * MergeTree settings the server must know (`-- requires merge tree setting: <name>` lines): on an
   * older server the migration is left pending (skipped, retried at every run) instead of failing.
   */
  requiredMergeTreeSettings: string[];
}

/**
 * Reads `NNNN_name.sql` files in version order; `{{database}}` stands for the configured database, and
 * `{{serving:<table>}}` for the table the service reads (servingTableName: its Distributed table on a cluster).
 */
export function loadMigrations(database: string, dir = MIGRATIONS_DIR, clusterMode = false): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const sql = fillPlaceholders(text, database, clusterMode);
      return {
        version: Number(file.slice(0, 4)),
        name: file.replace(/\.sql$/, ''),
        statements: splitStatements(sql),
        checksum: createHash('sha256').update(text).digest('hex'),
        requiredMergeTreeSettings: [...text.matchAll(/^--\s*requires merge tree setting:\s*(\w+)\s*$/gm)].map((m) => m[1]),
      };
    });
}

/** Splits on `;` at the end of a line; comment lines are dropped. */
export function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/**
 * Applies pending migrations and records each in `schema_migrations`. Statements are idempotent
 * (IF NOT EXISTS), so a run interrupted between a statement and its record is safe to repeat.
 *
 * On a cluster (CLICKHOUSE_CLUSTER) in `distributed` mode every node is migrated as the single server it
 * is, side by side, each with its own record, and then given the Distributed tables of the cluster-wide tables: a node
 * that was down, or added later, is brought up to date by the next run. Nodes that do not answer are left
 * for that next run, and the run ends with a NodesUnreachableError naming them, after migrating the others.
 * In `replicated` mode the statements are rewritten to run once, ON CLUSTER (cluster-ddl.ts).
 * Returns the migrations applied (on any node).
 */
export async function migrate(clickhouse: ClickhouseService, options: MigrateOptions = {}): Promise<Migration[]> {
  const { cluster } = clickhouse;
  if (!cluster) return migrateServer(clickhouse, (statement) => [statement], options, false);
  const replication = await cluster.replication();
  await assertSchemaIsOf(clickhouse, replication);
  if (replication === 'replicated') {
    const target = { cluster: cluster.name, database: clickhouse.database };
    const applied = await migrateServer(clickhouse, (statement) => toClusterStatements(statement, target), options, true);
    await reloadDictionaries(clickhouse);
    return applied;
  }
  const { reachable, unreachable } = await cluster.nodes();
  // Each node is a server of its own with its own record: migrated side by side, a cluster takes its slowest node's
  // time, not the sum of all (a 2 × 2 test cluster: 4 nodes one after the other made a fresh store take 3 s).
  const appliedByNode = await allSettled(
    reachable.map(async (node, index) => {
      const applied = await migrateServer(node.connection, (statement) => [statement], options, true, index === 0);
      await ensureDistributedTables(node.connection, cluster.name);
      return applied;
    }),
  );
  const applied = new Map(appliedByNode.flat().map((migration) => [migration.version, migration]));
  // A dictionary first loaded while a node was still unmigrated (its source table missing) would keep that failure.
  for (const node of reachable) await reloadDictionaries(node.connection);
  if (unreachable.length > 0) {
    throw new NodesUnreachableError(
      `migrated ${reachable.length} of ${reachable.length + unreachable.length} nodes of cluster ${cluster.name}; run migrate again when every node answers`,
      unreachable,
    );
  }
  return [...applied.values()].sort((a, b) => a.version - b.version);
}

export interface MigrateOptions {
  /** Apply no migration above this version (tests build the store of an older release: test/support/old-store.ts). */
  upToVersion?: number;
  /** Apply every migration one by one even to an empty store (the baseline's generator). */
  stepByStep?: boolean;
}

/** The migrations of `all` still to apply: not in `applied`, and none above `upToVersion`. */
export function pendingMigrations(all: Migration[], applied: ReadonlySet<number>, options: MigrateOptions = {}): Migration[] {
  const { upToVersion = Infinity } = options;
  return all.filter((m) => !applied.has(m.version) && m.version <= upToVersion);
}

/** Applies the pending migrations of one server (or, translated, of a `replicated` cluster) through `translate`. */
async function migrateServer(
  clickhouse: ClickhouseService,
  translate: (statement: string) => string[],
  options: MigrateOptions,
  clusterMode: boolean,
  /** Whether MIGRATE_FAULT_AFTER_STATEMENT applies here: a single server, or a cluster's first node. */
  faultPoint = true,
): Promise<Migration[]> {
  const run = async (statement: string) => {
    for (const sql of translate(statement)) await clickhouse.command(sql);
  };
  await run(`CREATE DATABASE IF NOT EXISTS ${clickhouse.database}`);
  await run(
    `CREATE TABLE IF NOT EXISTS ${clickhouse.table('schema_migrations')}
     (version UInt32, name String, checksum String, applied_at DateTime64(3, 'UTC'))
     ENGINE = MergeTree ORDER BY version`,
  );
  const applied = await clickhouse.query<{ version: number }>(`SELECT version FROM ${clickhouse.table('schema_migrations')}`);
  const appliedVersions = new Set(applied.map((row) => Number(row.version)));
  const all = loadMigrations(clickhouse.database, MIGRATIONS_DIR, clusterMode);
  const appliedNow: Migration[] = [];
  if (appliedVersions.size === 0 && options.upToVersion === undefined && !options.stepByStep) {
    for (const migration of await applyBaseline(clickhouse, all, run, clusterMode)) {
      appliedVersions.add(migration.version);
      appliedNow.push(migration);
    }
  }
  for (const migration of pendingMigrations(all, appliedVersions, options)) {
    if (!(await serverKnowsSettings(clickhouse, migration.requiredMergeTreeSettings))) continue;
    for (const [index, statement] of migration.statements.entries()) {
      await run(statement);
      if (faultPoint) crashIfMigrationFault(migration.version, index + 1);
    }
    await clickhouse.insert('schema_migrations', [migrationRecord(migration)]);
    appliedNow.push(migration);
  }
  return appliedNow;
}

const migrationRecord = (migration: Migration) => ({
  version: migration.version,
  name: migration.name,
  checksum: migration.checksum,
  applied_at: Date.now(),
});

/**
 * An empty store made from the schema baseline (schema-baseline.ts) in one CREATE per table, its migrations recorded
 * as applied; none when the baseline does not stand for today's migrations 1..N or the server lacks a setting they need.
 * Every statement is IF NOT EXISTS and the records come last, so a run cut short starts over from the baseline.
 */
async function applyBaseline(
  clickhouse: ClickhouseService,
  all: Migration[],
  run: (statement: string) => Promise<void>,
  clusterMode: boolean,
): Promise<Migration[]> {
  const baseline = readBaseline();
  if (!baseline) return [];
  const covered = all.filter((migration) => migration.version <= baseline.version);
  if (covered.length !== baseline.version || coverHash(covered.map((m) => m.checksum)) !== baseline.hash) return [];
  const settings = [...covered.flatMap((m) => m.requiredMergeTreeSettings), ...baseline.mergeTreeSettings];
  if (!(await serverKnowsSettings(clickhouse, settings))) return [];
  for (const statement of baselineStatements(baseline, clickhouse.database, clusterMode)) await run(statement);
  await clickhouse.insert('schema_migrations', covered.map(migrationRecord));
  return covered;
}

/** Every migration applied one by one to an empty server, serving tables named as on a cluster: what the baseline reads. */
export function migrateStepByStepForBaseline(clickhouse: ClickhouseService): Promise<Migration[]> {
  return migrateServer(clickhouse, (statement) => [statement], { stepByStep: true }, true);
}

/** Creates the store's dictionaries as the migrations define them, where missing (a restore needs them before its tables). */
export async function ensureDictionaries(server: ClickhouseService, clusterMode: boolean): Promise<void> {
  const statements = loadMigrations(server.database, MIGRATIONS_DIR, clusterMode).flatMap((migration) => migration.statements);
  await server.command(`CREATE DATABASE IF NOT EXISTS ${server.database}`);
  for (const statement of statements.filter((sql) => /^CREATE\s+DICTIONARY\s+IF\s+NOT\s+EXISTS\b/i.test(sql))) {
    await server.command(statement);
  }
}

/** Loads the store's dictionaries afresh (their sources may have appeared or changed with the migrations). */
export async function reloadDictionaries(server: ClickhouseService): Promise<void> {
  const dictionaries = await server.query<{ name: string }>(`SELECT name FROM system.dictionaries WHERE database = {database:String}`, {
    database: server.database,
  });
  for (const { name } of dictionaries) await server.command(`SYSTEM RELOAD DICTIONARY ${server.database}.${name}`);
}

/**
 * Gives one node the Distributed tables of the cluster-wide tables it has, each made from (and so with the
 * columns of) its local table: created when missing, replaced when a migration changed the local columns.
 */
async function ensureDistributedTables(node: ClickhouseService, cluster: string): Promise<void> {
  const tables = Object.keys(CLUSTER_WIDE_TABLES);
  const columns = await node.query<{ table: string; columns: string[] }>(
    `SELECT table, groupArray(concat(name, ' ', type)) AS columns
     FROM (SELECT table, name, type FROM system.columns WHERE database = {database:String} AND table IN {tables:Array(String)} ORDER BY table, position)
     GROUP BY table`,
    { database: node.database, tables: [...tables, ...tables.map((table) => `${table}${DISTRIBUTED_SUFFIX}`)] },
  );
  const of = new Map(columns.map((row) => [row.table, row.columns.join(', ')]));
  for (const table of tables) {
    const local = of.get(table);
    if (local !== undefined && local !== of.get(`${table}${DISTRIBUTED_SUFFIX}`)) {
      await node.command(distributedTableSql({ cluster, database: node.database }, table));
    }
  }
}

/** Refuses to migrate a cluster whose existing cost table is kept the other way (e.g. replicated, told `distributed`). */
async function assertSchemaIsOf(clickhouse: ClickhouseService, replication: ClusterReplication): Promise<void> {
  const [existing] = await clickhouse.query<{ engine: string }>(
    `SELECT engine FROM system.tables WHERE database = {database:String} AND name = {table:String}`,
    { database: clickhouse.database, table: 'cost_line_items' satisfies StoreTable },
  );
  if (existing && existing.engine.startsWith('Replicated') !== (replication === 'replicated')) {
    throw new Error(
      `CLICKHOUSE_CLUSTER_REPLICATION is ${replication} but the existing cost table is ${existing.engine}: ` +
        'set it to match the schema (or auto)',
    );
  }
}

async function serverKnowsSettings(clickhouse: ClickhouseService, names: string[]): Promise<boolean> {
  if (names.length === 0) return true;
  const known = await clickhouse.query<{ name: string }>(
    'SELECT name FROM system.merge_tree_settings WHERE name IN {names:Array(String)}',
    { names },
  );
  return known.length === new Set(names).size;
}
