import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';
import { crashIfInjected } from './fault-injection';
import { isImportTableName, isPartitionId } from './import-tables';

/**
 * The import journal (migration 0007, table import_journal) makes a publish that spans several
 * partitions all-or-nothing across crashes. Each REPLACE PARTITION is atomic, but a process that dies
 * between two of them would leave some periods new and some old. So before its first swap an import
 * copies the partitions it is about to replace into a backup table and writes a 'swapping' row with a
 * lease; after the last swap it writes 'committed'. recoverInterruptedImports() finds 'swapping' rows
 * of dead processes and rolls them back from their backups, which restores exactly what was visible
 * before the import started.
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

export interface JournalEntry {
  importId: string;
  organizationId: string;
  integrationIds: string[];
  /** Partitions of cost_line_items the import replaces. */
  partitionIds: string[];
  /** Those of partitionIds that existed before the import: their rows are in backupTable. */
  backedUpPartitionIds: string[];
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
  await clickhouse.command(
    `INSERT INTO ${clickhouse.table(JOURNAL_TABLE)}
     SELECT {import_id:String}, {organization_id:UUID}, {integration_ids:Array(String)}, {partition_ids:Array(String)},
            {backed_up_partition_ids:Array(String)}, {backup_table:String}, {staging_table:String}, 'swapping',
            now64(3) + toIntervalSecond({lease_seconds:UInt32}), now64(6)`,
    {
      import_id: entry.importId,
      organization_id: entry.organizationId,
      integration_ids: entry.integrationIds,
      partition_ids: entry.partitionIds,
      backed_up_partition_ids: entry.backedUpPartitionIds,
      backup_table: entry.backupTable,
      staging_table: entry.stagingTable,
      lease_seconds: SWAP_LEASE_SECONDS,
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

async function swappingImports(clickhouse: ClickhouseService): Promise<SwappingImport[]> {
  const rows = await clickhouse.query<{
    import_id: string;
    organization: string;
    integration_ids: string[];
    partition_ids: string[];
    backed_up_partition_ids: string[];
    backup_table: string;
    staging_table: string;
    lease_until: string;
    lease_expired: number | boolean;
  }>(
    // Aliases never reuse a column name: a ClickHouse alias would shadow the column in the other expressions.
    `SELECT import_id, toString(organization_id) AS organization, integration_ids, partition_ids, backed_up_partition_ids,
            backup_table, staging_table, toString(lease_expires_at) AS lease_until, lease_expires_at < now64(3) AS lease_expired
     FROM ${clickhouse.table(JOURNAL_TABLE)} FINAL WHERE state = 'swapping' ORDER BY import_id`,
  );
  return rows.map((row) => ({
    importId: row.import_id,
    organizationId: row.organization,
    integrationIds: row.integration_ids,
    partitionIds: row.partition_ids,
    backedUpPartitionIds: row.backed_up_partition_ids,
    backupTable: row.backup_table,
    stagingTable: row.staging_table,
    leaseExpiresAt: row.lease_until,
    leaseExpired: row.lease_expired === true || Number(row.lease_expired) === 1,
  }));
}

export type RollbackStep = { partitionId: string; action: 'restore' | 'drop' };

/**
 * What puts cost_line_items back as it was: each replaced partition that existed comes back from the
 * backup; one that did not exist is dropped (REPLACE PARTITION from a backup without it is refused, or
 * on older servers would silently do the same). Every step is idempotent.
 */
export function rollbackSteps(
  entry: Pick<JournalEntry, 'importId' | 'partitionIds' | 'backedUpPartitionIds' | 'backupTable' | 'stagingTable'>,
): RollbackStep[] {
  for (const table of [entry.backupTable, entry.stagingTable]) {
    if (!isImportTableName(table)) throw new Error(`import ${entry.importId}: unexpected table name in the journal: ${table}`);
  }
  const backedUp = new Set(entry.backedUpPartitionIds);
  return entry.partitionIds.map((partitionId) => {
    if (!isPartitionId(partitionId)) throw new Error(`import ${entry.importId}: unexpected partition id in the journal: ${partitionId}`);
    return { partitionId, action: backedUp.has(partitionId) ? 'restore' : 'drop' };
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
  const costTable = clickhouse.table('cost_line_items');
  const backupTable = clickhouse.table(entry.backupTable);
  const finishedElsewhere = async () => (await readImportState(clickhouse, entry.importId)) !== 'swapping';
  if (steps.some((step) => step.action === 'restore') && !(await tableExists(clickhouse, entry.backupTable))) {
    if (await finishedElsewhere()) return;
    throw new Error(
      `cannot roll back interrupted import ${entry.importId} of organisation ${entry.organizationId}: its backup table ` +
        `${entry.backupTable} is missing. Its partitions may mix old and new rows; import those billing periods again.`,
    );
  }
  try {
    for (const step of steps) {
      await clickhouse.command(
        step.action === 'restore'
          ? `ALTER TABLE ${costTable} REPLACE PARTITION ID '${step.partitionId}' FROM ${backupTable}`
          : `ALTER TABLE ${costTable} DROP PARTITION ID '${step.partitionId}'`,
      );
      crashIfInjected('restore');
    }
  } catch (error) {
    if (await finishedElsewhere()) return;
    throw error;
  }
  await journalState(clickhouse, entry.importId, 'rolled_back');
  for (const table of [entry.backupTable, entry.stagingTable]) {
    await clickhouse.command(`DROP TABLE IF EXISTS ${clickhouse.table(table)}`);
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
  // The importer refuses cluster mode, and a store not yet migrated has no journal: nothing to recover.
  if (clickhouse.cluster || !(await tableExists(clickhouse, JOURNAL_TABLE))) return report;
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
        `${swapping.partitionIds.length} partition(s) of ${swapping.integrationIds.join(', ')}: they are as before it started.`,
    );
  }
  return report;
}

async function tableExists(clickhouse: ClickhouseService, name: string): Promise<boolean> {
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
