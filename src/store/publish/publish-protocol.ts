import { ClickhouseService } from '../clickhouse/clickhouse.service';
import type { KeysInForce } from '../activated-maps';
import { createImportInput, dropImportInput, ImportInput, InputMapping } from './import-input';
import { duplicateImportWarnings, ImportedInvoice, ImportUnit, publishedInvoices, stagedInvoices } from './import-invoices';
import { dropImportTables, recoverInterruptedImports, RecoveryReport } from './import-journal';
import { createStagingTables, dropAbandonedImportTables, stagedOnHost } from './import-staging';
import { newImportId } from './import-tables';
import { existingPartitions, PartitionHost, partitionHosts } from './partition-hosts';
import { publishPartitions, PublishPlan, PublishRefusal } from './partition-publish';

export { PublishRefusal };
import { endCaughtBackups, fenced, standDownCaughtImports } from './publish-fence';
import { completeProjections } from './projection-completion';
import { crashIfInjected } from './fault-injection';
import { addToGroup } from '../../common/collections/grouped-by';

/**
 * How rows reach the cost table, as the rest of the code sees it: an import is opened, its rows staged and published
 * all or nothing (`open`); a backup or a back-fill holds the fence while no import swaps (`fence`); what a crash left
 * half-published is put back (`recover`). The journal, the lease, the swaps and their rollback, the fence's records
 * and the sweep of abandoned tables stay behind it (import-journal.ts, partition-publish.ts, publish-fence.ts,
 * import-staging.ts).
 */
export class PublishProtocol {
  constructor(private readonly clickhouse: ClickhouseService) {}

  /**
   * Opens an import: every host must answer (else `refusal`), what a dead import left half-published is rolled back
   * first, and abandoned imports' tables are dropped.
   */
  async open(refusal: string): Promise<CostImport> {
    const hosts = await partitionHosts(this.clickhouse, refusal);
    const recovery = await recoverInterruptedImports(this.clickhouse);
    await dropAbandonedImportTables(this.clickhouse);
    return new CostImport(
      this.clickhouse,
      newImportId(),
      hosts,
      recovery.rolledBack.map((interrupted) => interrupted.importId),
    );
  }

  /**
   * Runs `work` with the imports' publishing fenced off, recorded under `name` ('created' once it finished, 'failed'
   * with the reason when it throws): what a backup and a tag-key back-fill hold while they copy or rewrite partitions.
   */
  fence<T>(name: string, log: (message: string) => void, work: () => Promise<T>): Promise<T> {
    return fenced(this.clickhouse, name, log, work);
  }

  /**
   * Builds the projections of published partitions that lack them (an import publishes without them), of one
   * organisation or of all, under the fence (projection-completion.ts). Answers how many partitions it rewrote.
   */
  completeProjections(log: (message: string) => void, organizationId?: string): Promise<number> {
    return completeProjections(this.clickhouse, log, organizationId);
  }

  /** Rolls back every import a crash left half-published (at start, before an import, or by the operator). */
  recover(log?: (message: string) => void): Promise<RecoveryReport> {
    return recoverInterruptedImports(this.clickhouse, log);
  }

  /**
   * Right after a restore (`restored`: the backup's name): the imports the backup caught publishing are marked rolled
   * back, the backups it caught running are ended. Answers their names.
   */
  async afterRestore(restored: string): Promise<{ importsStoodDown: string[]; backupsEnded: string[] }> {
    const importsStoodDown = await standDownCaughtImports(this.clickhouse);
    const backupsEnded = await endCaughtBackups(this.clickhouse, restored);
    return { importsStoodDown, backupsEnded };
  }
}

/** What an importer counted of one staged partition (the store checks each host holds exactly that). */
export interface StagedCount {
  partition_id: string;
  row_count: string;
}

/** What an import publishes: its organisation's staged partitions, and the keys written activated into its rows. */
export interface PublishBatch {
  organizationId: string;
  integrationIds: string[];
  partitions: StagedCount[];
  keysInForce: KeysInForce;
}

/**
 * One import, opened by PublishProtocol.open: its staging tables (`createStaging`, first), the input tables that map
 * files into them, the publish of its partitions, and its clean-up (`close`, always).
 */
export class CostImport {
  constructor(
    private readonly clickhouse: ClickhouseService,
    readonly importId: string,
    private readonly hosts: PartitionHost[],
    /** Imports a crash had left half-published, rolled back when this one opened. */
    readonly rolledBackImports: string[],
  ) {}

  /** Creates the staging tables (on every node of a cluster) and answers the one the import's rows are written to. */
  async createStaging(): Promise<string> {
    this.staging = await createStagingTables(this.clickhouse, this.hosts, this.importId);
    return this.staging;
  }
  private staging = '';

  /** The input table and views that map each file read into the staging table, and fill its report. */
  createInput(mapping: InputMapping, parameters: Record<string, unknown>): Promise<ImportInput> {
    return createImportInput(this.clickhouse, this.importId, this.staging, mapping, parameters);
  }

  /** Drops the input once every file is read: what stays until publishing ends is the staging table alone. */
  dropInput(): Promise<void> {
    return dropImportInput(this.clickhouse, this.importId);
  }

  /** The invoices of the staged rows. */
  stagedInvoices(): Promise<ImportedInvoice[]> {
    return stagedInvoices(this.clickhouse, this.staging);
  }

  /** The invoices the import's units hold now, before it replaces them. */
  publishedInvoices(organizationId: string, units: ImportUnit[]): Promise<ImportedInvoice[]> {
    return publishedInvoices(this.clickhouse, organizationId, units);
  }

  /** Warnings for billing periods of this import's accounts another integration holds too (the same export imported twice). */
  duplicateImportWarnings(organizationId: string, invoices: ImportedInvoice[]): Promise<string[]> {
    return duplicateImportWarnings(this.clickhouse, organizationId, invoices);
  }

  /**
   * Swaps every staged partition in, all or nothing (partition-publish.ts), once each host is found to hold exactly
   * what the importer counted. A PublishRefusal means nothing was changed.
   */
  async publish(batch: PublishBatch): Promise<void> {
    await publishPartitions(this.clickhouse, {
      importId: this.importId,
      organizationId: batch.organizationId,
      integrationIds: batch.integrationIds,
      partitions: await this.placements(batch.partitions),
      keysInForce: batch.keysInForce,
    });
    this.published = true;
    crashIfInjected('publish');
  }
  private published = false;

  /** Drops the import's tables; a publish that failed and could not be rolled back keeps its backup for recovery. */
  async close(): Promise<void> {
    await dropImportTables(this.clickhouse, this.importId, { keepBackup: !this.published }).catch(() => undefined);
  }

  /**
   * Which hosts hold each staged partition, checked against the importer's count of it: on a cluster every holder
   * must be of one shard and hold every row, and in `distributed` mode every replica of that shard must hold it (each
   * swaps it itself); in `replicated` mode the one replica that holds it swaps it and replication carries it to the
   * others. A partition found anywhere else stops the import before anything is swapped. Published copies of a
   * partition on other shards (the cluster had other shards then) are given up in the same publish.
   */
  private async placements(partitions: readonly StagedCount[]): Promise<PublishPlan['partitions']> {
    const { cluster } = this.clickhouse;
    if (!cluster) return partitions.map((p) => ({ partitionId: p.partition_id, hosts: this.hosts }));
    const nodes = new Map((await cluster.nodes()).reachable.map((node) => [node.id, node]));
    const holders = await this.holders(partitions);
    // A partition published while the cluster had other shards may live on another shard still: it moves.
    const published = new Map<string, PartitionHost[]>();
    for (const host of this.hosts) {
      for (const partitionId of await existingPartitions(host, [...holders.keys()])) {
        if (!holders.get(partitionId)?.includes(host)) addToGroup(published, partitionId, host);
      }
    }
    const replication = await cluster.replication();
    return partitions.map(({ partition_id: partitionId }) => {
      const held = holders.get(partitionId) ?? [];
      const shards = new Set(held.map((host) => nodes.get(host.id)?.shard));
      const replicas = [...nodes.values()].filter((node) => shards.has(node.shard)).length;
      if (shards.size !== 1 || (replication === 'distributed' && held.length !== replicas)) {
        throw new PublishRefusal(
          `internal check failed: partition ${partitionId} is staged on ${held.map((host) => host.id).join(', ') || 'no node'}, ` +
            `not on ${replication === 'distributed' ? 'every replica' : 'a replica'} of one shard`,
        );
      }
      // Of another shard only: in `replicated` mode the holder's twins have the partition too, and follow its swap.
      const elsewhere = (published.get(partitionId) ?? []).filter((host) => !shards.has(nodes.get(host.id)?.shard));
      return { partitionId, hosts: held, elsewhere };
    });
  }

  /** The hosts holding each staged partition, each holding exactly the importer's count of its rows. */
  private async holders(partitions: readonly StagedCount[]): Promise<Map<string, PartitionHost[]>> {
    const holders = new Map<string, PartitionHost[]>();
    for (const host of this.hosts) {
      for (const { partition_id, row_count } of await stagedOnHost(host, this.importId)) {
        const expected = partitions.find((p) => p.partition_id === partition_id)?.row_count;
        if (row_count !== expected) {
          throw new PublishRefusal(
            `internal check failed: node ${host.id} holds ${row_count} rows of partition ${partition_id}, not ${expected}`,
          );
        }
        addToGroup(holders, partition_id, host);
      }
    }
    return holders;
  }
}
