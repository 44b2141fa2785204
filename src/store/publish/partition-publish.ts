import { messageOf } from '../../common/errors/message-of';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { crashIfInjected, pauseIfInjected } from './fault-injection';
import {
  importsPublishingInThisProcess,
  journalState,
  journalSwapping,
  JournalEntry,
  leaseAction,
  PublishStep,
  readImportState,
  renewLease,
  rollBackImport,
  tableExists,
} from './import-journal';
import { activationsChangedSince, KeysInForce, rewriteActivatedMaps } from '../activated-maps';
import { backupTableName, importTableName, isPartitionId, parseImportTableName } from './import-tables';
import { generatedTableName } from '../schema/store-tables';
import { existingPartitions, PartitionHost } from './partition-hosts';
import { runningBackups, waitWhileBackupsRun } from './publish-fence';

export interface PublishPlan {
  /** Also the name of the staging table holding the new partitions, on each host. */
  importId: string;
  organizationId: string;
  integrationIds: string[];
  /**
   * The partitions of the import, in publishing order, each with the hosts whose staging table holds it: the
   * one server, or on a cluster the replicas of its shard that must swap it themselves; and, on a cluster whose
   * shards changed since the partition was last published, the hosts of another shard that hold it still and
   * give it up in the same publish (`elsewhere`: a partition lives on one shard only).
   */
  partitions: { partitionId: string; hosts: PartitionHost[]; elsewhere?: PartitionHost[] }[];
  /** Keys activated and loaded on every node before the import wrote a row: their activation needs no rewrite. */
  keysInForce?: KeysInForce;
}

/**
 * Replaces the plan's partitions of cost_line_items with the staging tables', all or nothing:
 *   1. on each host, back up the partitions about to be replaced (REPLACE PARTITION into a backup table: hard links);
 *   2. journal 'swapping' with a lease and every step (host, partition), never while a backup runs (publish-fence.ts);
 *   3. swap each partition on each of its hosts (REPLACE PARTITION … FROM staging, atomic per partition and host),
 *      a partition's hosts one right after the other, renewing the lease;
 *   4. journal 'committed', drop the backups.
 * An error in 3 or 4 rolls back here and now; a crash is rolled back by recoverInterruptedImports().
 * If the rollback itself fails, the backups stay for recovery and the error says so.
 */
export async function publishPartitions(clickhouse: ClickhouseService, plan: PublishPlan): Promise<void> {
  for (const { partitionId } of plan.partitions) {
    if (!isPartitionId(partitionId)) throw new PublishRefusal(`unexpected partition id ${partitionId}`);
  }
  const entry: JournalEntry = {
    importId: plan.importId,
    organizationId: plan.organizationId,
    integrationIds: [...plan.integrationIds].sort(),
    steps: [],
    backupTable: backupTableName(plan.importId),
    stagingTable: importTableName(plan.importId),
  };
  const holders = (p: PublishPlan['partitions'][number]) => [...p.hosts, ...(p.elsewhere ?? [])];
  const hosts = [...new Map(plan.partitions.flatMap((p) => holders(p).map((host) => [host.id, host] as const))).values()];
  const backedUp = new Set<string>(); // `<host>/<partition>`
  const backedUpHosts: PartitionHost[] = [];
  try {
    for (const host of hosts) {
      const held = plan.partitions.filter((p) => holders(p).includes(host)).map((p) => p.partitionId);
      const existing = await existingPartitions(host, held);
      const { clickhouse: local } = host;
      await local.command(`CREATE TABLE ${local.table(generatedTableName(entry.backupTable))} AS ${local.table('cost_line_items')}`);
      backedUpHosts.push(host);
      for (const partitionId of existing) {
        await local.command(
          `ALTER TABLE ${local.table(generatedTableName(entry.backupTable))} REPLACE PARTITION ID '${partitionId}' FROM ${local.table('cost_line_items')}`,
        );
        backedUp.add(`${host.id}/${partitionId}`);
      }
    }
  } catch (error) {
    // Nothing visible has changed yet: the backups are just dropped.
    await dropBackups(backedUpHosts, entry.backupTable);
    throw error;
  }
  const step = (host: PartitionHost, partitionId: string): PublishStep => ({
    host: host.id,
    partitionId,
    backedUp: backedUp.has(`${host.id}/${partitionId}`),
  });
  entry.steps = plan.partitions.flatMap((p) => holders(p).map((host) => step(host, p.partitionId)));
  /** Steps that give a partition up (no staged rows on that host): a drop, undone from the backup like any step. */
  const dropping = new Set(plan.partitions.flatMap((p) => (p.elsewhere ?? []).map((host) => `${host.id}/${p.partitionId}`)));
  const hostOf = new Map(hosts.map((host) => [host.id, host]));

  let leaseWrittenAt = await journalSwappingOutsideBackups(clickhouse, entry);
  importsPublishingInThisProcess.add(entry.importId);
  try {
    if (await refreshActivatedMapsIfChanged(clickhouse, entry, hosts, plan.keysInForce)) {
      const renewing = Date.now();
      await renewLease(clickhouse, entry.importId);
      leaseWrittenAt = renewing;
    }
    for (const swap of entry.steps) {
      const lease = leaseAction(Date.now() - leaseWrittenAt);
      if (lease === 'expired') {
        throw new PublishRefusal('publishing stalled longer than its lease (another process may be rolling it back)');
      }
      if (lease === 'renew') {
        if ((await readImportState(clickhouse, entry.importId)) !== 'swapping') {
          throw new PublishRefusal('publishing stalled and was rolled back by recovery in another process');
        }
        const renewing = Date.now();
        await renewLease(clickhouse, entry.importId);
        leaseWrittenAt = renewing;
      }
      const { clickhouse: local } = hostOf.get(swap.host)!;
      await local.command(
        dropping.has(`${swap.host}/${swap.partitionId}`)
          ? `ALTER TABLE ${local.table('cost_line_items')} DROP PARTITION ID '${swap.partitionId}'`
          : `ALTER TABLE ${local.table('cost_line_items')} REPLACE PARTITION ID '${swap.partitionId}' FROM ${local.table(generatedTableName(entry.stagingTable))}`,
      );
      crashIfInjected('swap');
      await pauseIfInjected();
    }
    await journalState(clickhouse, entry.importId, 'committed');
  } catch (error) {
    try {
      await rollBackImport(clickhouse, entry);
    } catch (rollbackError) {
      throw new Error(
        `import failed while publishing (${messageOf(error)}) and could not be rolled back (${messageOf(rollbackError)}); ` +
          'run `ingest recover` to restore the previous data',
        { cause: rollbackError },
      );
    }
    throw error;
  } finally {
    importsPublishingInThisProcess.delete(entry.importId);
  }
  await dropBackups(hosts, entry.backupTable);
}

/**
 * Journals 'swapping' when no backup runs (publish-fence.ts): waits while one does, and steps back (nothing swapped
 * yet) when one began between the wait and the journal row. Returns when the lease was written (just before).
 */
async function journalSwappingOutsideBackups(clickhouse: ClickhouseService, entry: JournalEntry): Promise<number> {
  for (;;) {
    await waitWhileBackupsRun(clickhouse);
    const leaseWrittenAt = Date.now(); // before the write: the server's lease cannot end earlier than this + the lease
    await journalSwapping(clickhouse, entry);
    if ((await runningBackups(clickhouse)).length === 0) return leaseWrittenAt;
    await journalState(clickhouse, entry.importId, 'rolled_back');
  }
}

/**
 * The staged rows (and the backups a rollback would restore) were written with the activated keys in force when the
 * import began: if an activation changed since, they are rewritten with today's before anything is swapped. Past the
 * fence no activation back-fill runs, and one that starts waits for this publish (activated-maps.ts). True if rewritten.
 */
async function refreshActivatedMapsIfChanged(
  clickhouse: ClickhouseService,
  entry: JournalEntry,
  hosts: PartitionHost[],
  keysInForce?: KeysInForce,
): Promise<boolean> {
  const startedAt = parseImportTableName(entry.stagingTable)?.startedAt ?? 0;
  if (!(await activationsChangedSince(clickhouse, entry.organizationId, startedAt, keysInForce))) return false;
  for (const { clickhouse: local } of hosts) {
    for (const table of [entry.stagingTable, entry.backupTable]) {
      if (!(await tableExists(local, table))) continue;
      await local.command(`SYSTEM START MERGES ${local.table(generatedTableName(table))}`); // staging stops them (ingest-focus.ts); mutations need them
      await rewriteActivatedMaps(local, generatedTableName(table));
    }
  }
  return true;
}

async function dropBackups(hosts: PartitionHost[], backupTable: string): Promise<void> {
  for (const { clickhouse: local } of hosts)
    await local.command(`DROP TABLE IF EXISTS ${local.table(generatedTableName(backupTable))}`).catch(() => undefined);
} /** A publish that stopped before changing anything, or was rolled back: the data before it stays (the importer says so). */
export class PublishRefusal extends Error {}
