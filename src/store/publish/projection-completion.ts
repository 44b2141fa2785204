import { allSettled } from '../../common/async/all-settled';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { StoreTable } from '../schema/store-tables';
import { PartitionHost, reachableHosts } from './partition-hosts';
import { rewritePartitions } from './partition-rewrite';
import { fenced } from './publish-fence';

const COST_TABLE: StoreTable = 'cost_line_items';

/**
 * The partitions of the cost table on a host with an active part lacking one of the table's projections (of one
 * organisation, or of all): an import publishes its partitions so (import-staging.ts). One read of system.parts; the
 * empty parts a REPLACE PARTITION leaves (they hold no rows, so no projection) do not count.
 */
export async function partitionsLackingProjections(host: ClickhouseService, organizationId?: string): Promise<string[]> {
  const rows = await host.query<{ partition_id: string }>(
    `SELECT DISTINCT partition_id FROM system.parts
     WHERE database = {database:String} AND table = {table:String} AND active AND rows > 0
       AND ({organization_id:String} = '' OR startsWith(partition, concat('(\\'', {organization_id:String}, '\\'')))
       AND NOT hasAll(projections, (SELECT groupArray(name) FROM system.projections
                                    WHERE database = {database:String} AND table = {table:String}))
     ORDER BY partition_id`,
    { database: host.database, table: COST_TABLE, organization_id: (organizationId ?? '').toLowerCase() },
  );
  return rows.map((row) => row.partition_id);
}

/**
 * Builds the projections of published partitions that lack them, on every host that answers, under the publish
 * fence: each such partition is copied into a table with the projections and swapped back (partition-rewrite.ts),
 * so questions read its rows meanwhile and its summaries after, never a mix within a partition. What an import does
 * right after its publish, and the worker for any an interrupted import left. Answers the partitions rewritten.
 */
export async function completeProjections(
  clickhouse: ClickhouseService,
  log: (message: string) => void,
  organizationId?: string,
): Promise<number> {
  const lacking = await hostsLacking(await reachableHosts(clickhouse), organizationId);
  if (lacking.length === 0) return 0;
  return fenced(clickhouse, `projections ${organizationId ?? 'all'}`, log, async () => {
    // Each host rewrites its own copy of its partitions: side by side.
    const rewritten = await allSettled(
      lacking.map(async ({ host, partitions }) => {
        const stillLacking = async (partitions: string[]) => {
          const lackingNow = await partitionsLackingProjections(host.clickhouse, organizationId);
          return partitions.filter((partition) => lackingNow.includes(partition));
        };
        // Every column copied as it is: only the projections are new.
        await rewritePartitions(host.clickhouse, partitions, { stillWanted: stillLacking });
        return partitions.length;
      }),
    );
    return rewritten.reduce((total, count) => total + count, 0);
  });
}

async function hostsLacking(hosts: PartitionHost[], organizationId?: string): Promise<{ host: PartitionHost; partitions: string[] }[]> {
  const lacking: { host: PartitionHost; partitions: string[] }[] = [];
  for (const host of hosts) {
    const partitions = await partitionsLackingProjections(host.clickhouse, organizationId);
    if (partitions.length > 0) lacking.push({ host, partitions });
  }
  return lacking;
}
