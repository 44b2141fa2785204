import { allSettled } from '../../common/async/all-settled';
import { IMPORT_UNIT_SHARDING_KEY } from '../schema/cluster-ddl';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { GeneratedTableName, generatedTableName } from '../schema/store-tables';
import { DEPENDENTS_FIRST, readImportStates } from './import-journal';
import { distributedStagingTableName, IMPORT_TABLE_PREFIX, importTableName, parseImportTableName } from './import-tables';
import { PartitionHost, reachableHosts } from './partition-hosts';

/**
 * The import's staging table on every host, shaped like cost_line_items but without its projections (REPLACE
 * PARTITION takes such parts; the projections are built once the rows are published: projection-completion.ts),
 * and the table rows are inserted into: the staging table itself on one server; on a cluster a Distributed table
 * over the staging tables with the cost table's sharding key, which puts each row where the cost table keeps its
 * partition (every replica of its shard in `distributed` mode).
 */
export async function createStagingTables(clickhouse: ClickhouseService, hosts: PartitionHost[], importId: string): Promise<string> {
  const staging = importTableName(importId);
  // The hosts' tables are independent: made side by side (one after the other, a cluster's four took 3 s an import).
  await allSettled(hosts.map(({ clickhouse: local }) => createStagingTable(local, staging)));
  const { cluster } = clickhouse;
  if (!cluster) return clickhouse.table(staging);
  const distributed = clickhouse.table(distributedStagingTableName(importId));
  await clickhouse.command(
    `CREATE TABLE ${distributed} AS ${clickhouse.table(staging)}
     ENGINE = Distributed(${cluster.name}, ${clickhouse.database}, ${importId}, ${IMPORT_UNIT_SHARDING_KEY})`,
  );
  return distributed;
}

/** One host's staging table: the cost table's columns without its projections, merges stopped. */
async function createStagingTable(local: ClickhouseService, staging: GeneratedTableName): Promise<void> {
  await local.command(`CREATE TABLE ${local.table(staging)} AS ${local.table('cost_line_items')}`);
  // Writing the eight projections took 17.5 of a 3M-row import's 29.5 s (bench/results, 2026-12-01): the rows are
  // answerable without them, so they follow the publish instead of delaying it. One ALTER drops them all: one
  // mutation instead of eight (700 ms a host, one by one).
  const projections = await tableProjections(local, staging);
  if (projections.length > 0)
    await local.command(`ALTER TABLE ${local.table(staging)} ${projections.map((name) => `DROP PROJECTION ${name}`).join(', ')}`);
  // Parts are merged once published, in cost_line_items: merging them here too (with the projections) took the
  // CPU the load needs (measured on 3M Parquet rows: 182 of 252 parts merged away, 35.9 s against 18.4 s).
  await local.command(`SYSTEM STOP MERGES ${local.table(staging)}`);
}

/** The projections a table of the host has (names ClickHouse gives, checked before they are spliced in). */
async function tableProjections(host: ClickhouseService, table: string): Promise<string[]> {
  const rows = await host.query<{ name: string }>(
    `SELECT name FROM system.projections WHERE database = {database:String} AND table = {table:String} ORDER BY name`,
    { database: host.database, table },
  );
  const names = rows.map((row) => row.name);
  const unexpected = names.find((name) => !/^\w+$/.test(name));
  if (unexpected !== undefined) throw new Error(`unexpected projection name ${unexpected}`);
  return names;
}

/** The rows of each partition the import staged on one host. */
export function stagedOnHost(host: PartitionHost, importId: string): Promise<Array<{ partition_id: string; row_count: string }>> {
  return host.clickhouse.query<{ partition_id: string; row_count: string }>(
    `SELECT _partition_id AS partition_id, toString(count()) AS row_count FROM ${host.clickhouse.table(importTableName(importId))} GROUP BY partition_id`,
  );
}

/** An import's tables older than this belong to a process that died before its own cleanup ran. */
export const ABANDONED_IMPORT_AFTER_MS = 24 * 3600 * 1000;

/**
 * Drops the tables of imports that were killed (a finished or failed import drops its own): those of
 * an import the journal shows committed, and those older than ABANDONED_IMPORT_AFTER_MS of an import
 * it shows rolled back or does not know (killed before publishing), so a concurrent import keeps its
 * tables — also one that stepped back for a backup or an activation (journalled 'rolled_back' while it
 * waits, then 'swapping' again: partition-publish.ts), whose staging and backup tables it still needs.
 * Never those of an import still 'swapping': recovery needs its backup. Returns the names dropped.
 */
export async function dropAbandonedImportTables(clickhouse: ClickhouseService, now = Date.now()): Promise<string[]> {
  const hosts = await reachableHosts(clickhouse);
  const found: { host: PartitionHost; name: string; importId: string; startedAt: number }[] = [];
  for (const host of hosts) {
    const tables = await host.clickhouse.query<{ name: string }>(
      `SELECT name FROM system.tables WHERE database = {database:String} AND startsWith(name, {prefix:String})
       ORDER BY ${DEPENDENTS_FIRST}, name`,
      { database: host.clickhouse.database, prefix: IMPORT_TABLE_PREFIX },
    );
    for (const { name } of tables) {
      const parsed = parseImportTableName(name);
      if (parsed) found.push({ host, name, ...parsed });
    }
  }
  const states = await readImportStates(clickhouse, [...new Set(found.map((table) => table.importId))]);
  const abandoned = found.filter(({ importId, startedAt }) => {
    const state = states.get(importId);
    return state === 'committed' || (state !== 'swapping' && now - startedAt > ABANDONED_IMPORT_AFTER_MS);
  });
  for (const { host, name } of abandoned)
    await host.clickhouse.command(`DROP TABLE IF EXISTS ${host.clickhouse.table(generatedTableName(name))}`);
  return abandoned.map(({ host, name }) => (host.id ? `${name} on ${host.id}` : name));
}
