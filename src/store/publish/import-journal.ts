import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { crashIfInjected } from './fault-injection';
import { backupTableName, isImportTableName, isPartitionId, parseImportTableName } from './import-tables';
import { hostsById, reachableHosts, SINGLE_SERVER_HOST } from './partition-hosts';
import { generatedTableName } from '../schema/store-tables';

/**
 * The import journal (migrations 0007, 0014, table import_journal) makes a publish that spans several
 * partitions all-or-nothing across crashes. Each REPLACE PARTITION is atomic, but a process that dies
 * between two of them would leave some periods new and some old. So before its first swap an import
 * copies the partitions it is about to replace into a backup table and writes a 'swapping' row with a
 * lease and its steps; after the last swap it writes 'committed'. recoverInterruptedImports() finds
 * 'swapping' rows of dead processes and rolls them back from their backups, step by step on the host of
 * each (on a cluster, every replica of a partition's shard swapped it), which restores exactly what was
 * visible before the import started. On a cluster the journal itself is a cluster-wide table: any
 * process, connected to any node, reads and recovers it.
 */
export const JOURNAL_TABLE = 'import_journal';

export type ImportState = 'swapping' | 'committed' | 'rolled_back';

/**
 * How long a publishing import is presumed alive without renewing its lease. Generous for swaps that
 * are metadata operations of milliseconds (a live import renews after a third, leaseAction), and short
 * enough that API instances roll a dead import back soon (startup.ts checks every
 * IMPORT_RECOVERY_INTERVAL_SECONDS), bounding how long its half-published state can be seen.
 */
export const SWAP_LEASE_SECONDS = 120;

/** One partition swap of an import, on the host that holds the partition (partition-hosts.ts). */
export interface PublishStep {
  /** '' for the one server, the node (`s2r1`) on a cluster. */
  host: string;
  partitionId: string;
  /** The partition existed on the host before the import: its rows are in the host's backup table. */
  backedUp: boolean;
}

export interface JournalEntry {
  importId: string;
  organizationId: string;
  integrationIds: string[];
  /** Every swap the import does, in order: what rolling it back undoes. */
  steps: PublishStep[];
  backupTable: string;
  stagingTable: string;
}

/** A journaled import that was still swapping when read. */
export interface SwappingImport extends JournalEntry {
  leaseExpiresAt: string;
  /** By the ClickHouse server's clock, the one clock every process shares. */
  leaseExpired: boolean;
}

/** Imports of this process that are publishing now: never "interrupted", whatever their lease says. */
export const importsPublishingInThisProcess = new Set<string>();

const STATE_TYPE = "Enum8('swapping' = 1, 'committed' = 2, 'rolled_back' = 3)";

export async function journalSwapping(clickhouse: ClickhouseService, entry: JournalEntry): Promise<void> {
  const partitionIds = [...new Set(entry.steps.map((step) => step.partitionId))];
  await clickhouse.command(
    `INSERT INTO ${clickhouse.table(JOURNAL_TABLE)}
       (import_id, organization_id, integration_ids, partition_ids, backed_up_partition_ids, backup_table, staging_table,
        state, lease_expires_at, updated_at, steps)
     SELECT {import_id:String}, {organization_id:UUID}, {integration_ids:Array(String)}, {partition_ids:Array(String)},
            {backed_up_partition_ids:Array(String)}, {backup_table:String}, {staging_table:String}, 'swapping',
            now64(3) + toIntervalSecond({lease_seconds:UInt32}), now64(6),
            arrayZip({step_hosts:Array(String)}, {step_partitions:Array(String)}, {step_backed_up:Array(UInt8)})`,
    {
      import_id: entry.importId,
      organization_id: entry.organizationId,
      integration_ids: entry.integrationIds,
      // The partitions and those backed up anywhere, for people reading the journal; recovery reads the steps.
      partition_ids: partitionIds,
      backed_up_partition_ids: partitionIds.filter((id) => entry.steps.some((step) => step.partitionId === id && step.backedUp)),
      backup_table: entry.backupTable,
      staging_table: entry.stagingTable,
      lease_seconds: SWAP_LEASE_SECONDS,
      step_hosts: entry.steps.map((step) => step.host),
      step_partitions: entry.steps.map((step) => step.partitionId),
      step_backed_up: entry.steps.map((step) => (step.backedUp ? 1 : 0)),
    },
  );
}

/** A new version of the import's row with another state (the lease is kept as it was). */
export async function journalState(
  clickhouse: ClickhouseService,
  importId: string,
  state: Exclude<ImportState, 'swapping'>,
): Promise<void> {
  await rewriteJournalRow(clickhouse, importId, `CAST({state:String} AS ${STATE_TYPE}) AS state, now64(6) AS updated_at`, { state });
}

export async function renewLease(clickhouse: ClickhouseService, importId: string): Promise<void> {
  await rewriteJournalRow(
    clickhouse,
    importId,
    'now64(3) + toIntervalSecond({lease_seconds:UInt32}) AS lease_expires_at, now64(6) AS updated_at',
    { lease_seconds: SWAP_LEASE_SECONDS },
  );
}

async function rewriteJournalRow(clickhouse: ClickhouseService, importId: string, replace: string, params: Record<string, unknown>) {
  const journal = clickhouse.table(JOURNAL_TABLE);
  await clickhouse.command(
    `INSERT INTO ${journal} SELECT * REPLACE (${replace}) FROM ${journal} FINAL WHERE import_id = {import_id:String}`,
    { ...params, import_id: importId },
  );
}

export async function readImportState(clickhouse: ClickhouseService, importId: string): Promise<ImportState | undefined> {
  const rows = await clickhouse.query<{ state: ImportState }>(
    `SELECT state FROM ${clickhouse.table(JOURNAL_TABLE)} FINAL WHERE import_id = {import_id:String}`,
    { import_id: importId },
  );
  return rows[0]?.state;
}

/** State of each of these imports that the journal knows. */
export async function readImportStates(clickhouse: ClickhouseService, importIds: string[]): Promise<Map<string, ImportState>> {
  if (importIds.length === 0) return new Map();
  const rows = await clickhouse.query<{ import_id: string; state: ImportState }>(
    `SELECT import_id, state FROM ${clickhouse.table(JOURNAL_TABLE)} FINAL WHERE import_id IN {import_ids:Array(String)}`,
    { import_ids: importIds },
  );
  return new Map(rows.map((row) => [row.import_id, row.state]));
}

interface SwappingRow {
  import_id: string;
  organization: string;
  integration_ids: string[];
  partition_ids: string[];
  backed_up_partition_ids: string[];
  step_hosts: string[];
  step_partitions: string[];
  step_backed_up: (number | string)[];
  backup_table: string;
  staging_table: string;
  lease_until: string;
  lease_expired: number | boolean;
}

async function swappingImports(clickhouse: ClickhouseService): Promise<SwappingImport[]> {
  const rows = await clickhouse.query<SwappingRow>(
    // Aliases never reuse a column name: a ClickHouse alias would shadow the column in the other expressions.
    `SELECT import_id, toString(organization_id) AS organization, integration_ids, partition_ids, backed_up_partition_ids,
            arrayMap(step -> tupleElement(step, 1), steps) AS step_hosts, arrayMap(step -> tupleElement(step, 2), steps) AS step_partitions,
            arrayMap(step -> tupleElement(step, 3), steps) AS step_backed_up,
            backup_table, staging_table, toString(lease_expires_at) AS lease_until, lease_expires_at < now64(3) AS lease_expired
     FROM ${clickhouse.table(JOURNAL_TABLE)} FINAL WHERE state = 'swapping' ORDER BY import_id`,
  );
  return rows.map((row) => ({
    importId: row.import_id,
    organizationId: row.organization,
    integrationIds: row.integration_ids,
    steps: journalSteps(row),
    backupTable: row.backup_table,
    stagingTable: row.staging_table,
    leaseExpiresAt: row.lease_until,
    leaseExpired: row.lease_expired === true || Number(row.lease_expired) === 1,
  }));
}

/** A row's steps; a row written before migration 0014 has none: its partitions were swapped on the one server. */
export function journalSteps(
  row: Pick<SwappingRow, 'partition_ids' | 'backed_up_partition_ids' | 'step_hosts' | 'step_partitions' | 'step_backed_up'>,
): PublishStep[] {
  if (row.step_hosts.length === 0) {
    const backedUp = new Set(row.backed_up_partition_ids);
    return row.partition_ids.map((partitionId) => ({ host: SINGLE_SERVER_HOST, partitionId, backedUp: backedUp.has(partitionId) }));
  }
  return row.step_hosts.map((host, i) => ({
    host,
    partitionId: row.step_partitions[i],
    backedUp: Number(row.step_backed_up[i]) === 1,
  }));
}

export type RollbackStep = { host: string; partitionId: string; action: 'restore' | 'drop' };

/**
 * What puts cost_line_items back as it was, host by host: each replaced partition that existed comes back
 * from the host's backup; one that did not exist is dropped (REPLACE PARTITION from a backup without it is
 * refused, or on older servers would silently do the same). Every step is idempotent.
 */
export function rollbackSteps(entry: Pick<JournalEntry, 'importId' | 'steps' | 'backupTable' | 'stagingTable'>): RollbackStep[] {
  for (const table of [entry.backupTable, entry.stagingTable]) {
    if (!isImportTableName(table)) throw new Error(`import ${entry.importId}: unexpected table name in the journal: ${table}`);
  }
  return entry.steps.map(({ host, partitionId, backedUp }) => {
    if (!isPartitionId(partitionId)) throw new Error(`import ${entry.importId}: unexpected partition id in the journal: ${partitionId}`);
    if (host !== SINGLE_SERVER_HOST && !/^s\d+r\d+$/.test(host)) {
      throw new Error(`import ${entry.importId}: unexpected host in the journal: ${host}`);
    }
    return { host, partitionId, action: backedUp ? 'restore' : 'drop' };
  });
}

/**
 * Restores every partition the import replaced, marks it rolled back and drops its tables. Safe to
 * repeat after a crash at any point (the row stays 'swapping' until every partition is restored), and
 * safe against a concurrent rollback of the same import (another instance's recovery): if a step
 * fails because that one finished first, the import is no longer 'swapping' and this one stops.
 */
export async function rollBackImport(clickhouse: ClickhouseService, entry: JournalEntry): Promise<void> {
  const steps = rollbackSteps(entry);
  const finishedElsewhere = async () => (await readImportState(clickhouse, entry.importId)) !== 'swapping';
  const hosts = await hostsById(
    clickhouse,
    steps.map((step) => step.host),
    `cannot roll back interrupted import ${entry.importId} yet (retried by the next recovery)`,
  );
  for (const host of new Set(steps.filter((step) => step.action === 'restore').map((step) => step.host))) {
    if (await tableExists(hosts.get(host)!.clickhouse, entry.backupTable)) continue;
    if (await finishedElsewhere()) return;
    throw new Error(
      `cannot roll back interrupted import ${entry.importId} of organisation ${entry.organizationId}: its backup table ` +
        `${entry.backupTable} is missing${host ? ` on node ${host}` : ''}. Its partitions may mix old and new rows; import those billing periods again.`,
    );
  }
  try {
    for (const step of steps) {
      const { clickhouse: local } = hosts.get(step.host)!;
      const costTable = local.table('cost_line_items');
      await local.command(
        step.action === 'restore'
          ? `ALTER TABLE ${costTable} REPLACE PARTITION ID '${step.partitionId}' FROM ${local.table(generatedTableName(entry.backupTable))}` // checked: rollbackSteps
          : `ALTER TABLE ${costTable} DROP PARTITION ID '${step.partitionId}'`,
      );
      crashIfInjected('restore');
    }
  } catch (error) {
    if (await finishedElsewhere()) return;
    throw error;
  }
  await journalState(clickhouse, entry.importId, 'rolled_back');
  await dropImportTables(clickhouse, entry.importId);
}

/**
 * Drops the tables of an import (staging, raw files, Distributed staging, and the backup unless `keepBackup`:
 * recovery needs it while the import is 'swapping') on every host that answers; one left on a host that is
 * down is dropped later (dropAbandonedImportTables).
 */
/** ORDER BY of an import's tables that drops the views and Distributed tables before the tables they read or write. */
export const DEPENDENTS_FIRST = "engine IN ('MaterializedView', 'Distributed') DESC";

export async function dropImportTables(clickhouse: ClickhouseService, importId: string, { keepBackup = false } = {}): Promise<void> {
  if (!isImportTableName(importId)) throw new Error(`unexpected import id ${importId}`);
  for (const host of await reachableHosts(clickhouse)) {
    const tables = await host.clickhouse.query<{ name: string }>(
      // Views and the Distributed staging table first: they must never point at a dropped table.
      `SELECT name FROM system.tables WHERE database = {database:String} AND startsWith(name, {import_id:String})
       ORDER BY ${DEPENDENTS_FIRST}, name`,
      { database: host.clickhouse.database, import_id: importId },
    );
    for (const { name } of tables) {
      if (parseImportTableName(name)?.importId !== importId || (keepBackup && name === backupTableName(importId))) continue;
      await host.clickhouse.command(`DROP TABLE IF EXISTS ${host.clickhouse.table(generatedTableName(name))}`);
    }
  }
}

export interface RecoveryReport {
  /** Interrupted imports now rolled back: their partitions are as before they started. */
  rolledBack: SwappingImport[];
  /** Imports swapping under a valid lease: possibly alive in another process, so left alone. */
  leftRunning: SwappingImport[];
}

/**
 * Rolls back every import that died while publishing: a 'swapping' journal row whose lease expired
 * or, with the embedded engine, any 'swapping' row (its data directory is locked by one process, so
 * no other process can be publishing) other than this process's own imports. Idempotent; a crash
 * during recovery is repaired by the next one. Runs at the start of every import, as `ingest recover`,
 * and at API start-up. `log` is told about each import rolled back.
 */
export async function recoverInterruptedImports(clickhouse: ClickhouseService, log?: (message: string) => void): Promise<RecoveryReport> {
  const report: RecoveryReport = { rolledBack: [], leftRunning: [] };
  // A store not yet migrated has no journal: nothing to recover.
  if (!(await tableExists(clickhouse, JOURNAL_TABLE))) return report;
  for (const swapping of await swappingImports(clickhouse)) {
    if (importsPublishingInThisProcess.has(swapping.importId)) continue;
    if (!clickhouse.embedded && !swapping.leaseExpired) {
      report.leftRunning.push(swapping);
      continue;
    }
    await rollBackImport(clickhouse, swapping);
    report.rolledBack.push(swapping);
    log?.(
      `Rolled back import ${swapping.importId} of organisation ${swapping.organizationId}, interrupted while publishing ` +
        `${new Set(swapping.steps.map((step) => step.partitionId)).size} partition(s) of ${swapping.integrationIds.join(', ')}: ` +
        'they are as before it started.',
    );
  }
  return report;
}

/** Whether the server (a host's local view on a cluster) has the table `name` in its database. */
export async function tableExists(clickhouse: ClickhouseService, name: string): Promise<boolean> {
  const [row] = await clickhouse.query<{ found: number | string }>(
    `SELECT count() AS found FROM system.tables WHERE database = {database:String} AND name = {name:String}`,
    { database: clickhouse.database, name },
  );
  return Number(row.found) > 0;
}

/**
 * Whether a publishing import may go on: its lease is `valid`, should be renewed (a third of it
 * used), or is (nearly) `expired`, in which case another process may already be rolling it back.
 * Measured from just before the lease was written, so never later than the server's own expiry.
 */
export function leaseAction(elapsedMs: number, leaseMs = SWAP_LEASE_SECONDS * 1000): 'valid' | 'renew' | 'expired' {
  if (elapsedMs < leaseMs / 3) return 'valid';
  return elapsedMs < leaseMs * 0.8 ? 'renew' : 'expired';
}
