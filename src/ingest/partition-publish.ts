import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';
import { crashIfInjected } from './fault-injection';
import { FocusIngestError } from './focus-files';
import {
  importsPublishingInThisProcess,
  journalState,
  journalSwapping,
  JournalEntry,
  leaseAction,
  readImportState,
  renewLease,
  rollBackImport,
} from './import-journal';
import { backupTableName, isPartitionId } from './import-tables';

export interface PublishPlan {
  /** Also the name of the staging table holding the new partitions. */
  importId: string;
  organizationId: string;
  partitions: { partitionId: string; integrationId: string }[];
}

/**
 * Replaces the plan's partitions of cost_line_items with the staging table's, all or nothing:
 *   1. back up the partitions about to be replaced (REPLACE PARTITION into a backup table: hard links);
 *   2. journal 'swapping' with a lease;
 *   3. swap each partition (REPLACE PARTITION … FROM staging, atomic per partition), renewing the lease;
 *   4. journal 'committed', drop the backup.
 * An error in 3 or 4 rolls back here and now; a crash is rolled back by recoverInterruptedImports().
 * If the rollback itself fails, the backup stays for recovery and the error says so.
 */
export async function publishPartitions(clickhouse: ClickhouseService, plan: PublishPlan): Promise<void> {
  for (const { partitionId } of plan.partitions) {
    if (!isPartitionId(partitionId)) throw new FocusIngestError(`unexpected partition id ${partitionId}`);
  }
  const costTable = clickhouse.table('cost_line_items');
  const stagingTable = clickhouse.table(plan.importId);
  const entry: JournalEntry = {
    importId: plan.importId,
    organizationId: plan.organizationId,
    integrationIds: [...new Set(plan.partitions.map((p) => p.integrationId))].sort(),
    partitionIds: plan.partitions.map((p) => p.partitionId),
    backedUpPartitionIds: [],
    backupTable: backupTableName(plan.importId),
    stagingTable: plan.importId,
  };
  const backupTable = clickhouse.table(entry.backupTable);

  try {
    entry.backedUpPartitionIds = await existingPartitions(clickhouse, entry.partitionIds);
    await clickhouse.command(`CREATE TABLE ${backupTable} AS ${costTable}`);
    for (const partitionId of entry.backedUpPartitionIds) {
      await clickhouse.command(`ALTER TABLE ${backupTable} REPLACE PARTITION ID '${partitionId}' FROM ${costTable}`);
    }
  } catch (error) {
    // Nothing visible has changed yet: the backup is just dropped.
    await clickhouse.command(`DROP TABLE IF EXISTS ${backupTable}`).catch(() => undefined);
    throw error;
  }

  let leaseWrittenAt = Date.now(); // before the write: the server's lease cannot end earlier than this + the lease
  await journalSwapping(clickhouse, entry);
  importsPublishingInThisProcess.add(entry.importId);
  try {
    for (const { partitionId } of plan.partitions) {
      const lease = leaseAction(Date.now() - leaseWrittenAt);
      if (lease === 'expired') {
        throw new FocusIngestError('publishing stalled longer than its lease (another process may be rolling it back)');
      }
      if (lease === 'renew') {
        if ((await readImportState(clickhouse, entry.importId)) !== 'swapping') {
          throw new FocusIngestError('publishing stalled and was rolled back by recovery in another process');
        }
        const renewing = Date.now();
        await renewLease(clickhouse, entry.importId);
        leaseWrittenAt = renewing;
      }
      await clickhouse.command(`ALTER TABLE ${costTable} REPLACE PARTITION ID '${partitionId}' FROM ${stagingTable}`);
      crashIfInjected('swap');
    }
    await journalState(clickhouse, entry.importId, 'committed');
  } catch (error) {
    try {
      await rollBackImport(clickhouse, entry);
    } catch (rollbackError) {
      throw new Error(
        `import failed while publishing (${describe(error)}) and could not be rolled back (${describe(rollbackError)}); ` +
          'run `ingest recover` to restore the previous data',
        { cause: rollbackError },
      );
    }
    throw error;
  } finally {
    importsPublishingInThisProcess.delete(entry.importId);
  }
  await clickhouse.command(`DROP TABLE IF EXISTS ${backupTable}`);
}

/** Which of these partitions cost_line_items has now (from part metadata, not rows). */
async function existingPartitions(clickhouse: ClickhouseService, partitionIds: string[]): Promise<string[]> {
  const rows = await clickhouse.query<{ partition_id: string }>(
    `SELECT DISTINCT partition_id FROM system.parts
     WHERE database = {database:String} AND table = 'cost_line_items' AND active AND partition_id IN {partition_ids:Array(String)}`,
    { database: clickhouse.database, partition_ids: partitionIds },
  );
  const existing = new Set(rows.map((row) => row.partition_id));
  return partitionIds.filter((id) => existing.has(id));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] : String(error);
}
