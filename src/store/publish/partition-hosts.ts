import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { StoreTable } from '../schema/store-tables';

/**
 * Where cost partitions live and are swapped: the one server, or each node of a cluster (every replica of the
 * partition's shard). A host's connection is a single-server view of it: its tables are its local tables.
 */
export interface PartitionHost {
  /** '' for the one server; `s<shard>r<replica>` for a node of the cluster (cluster-nodes.ts). */
  id: string;
  clickhouse: ClickhouseService;
}

export const SINGLE_SERVER_HOST = '';

/** Every host; on a cluster every node must answer, else the work (named by `refusal`) is refused before it starts. */
export async function partitionHosts(clickhouse: ClickhouseService, refusal: string): Promise<PartitionHost[]> {
  if (!clickhouse.cluster) return [{ id: SINGLE_SERVER_HOST, clickhouse }];
  return (await clickhouse.cluster.allNodes(refusal)).map((node) => ({ id: node.id, clickhouse: node.connection }));
}

/** The hosts that answer now (cleaning up never waits for a node that is down). */
export async function reachableHosts(clickhouse: ClickhouseService): Promise<PartitionHost[]> {
  if (!clickhouse.cluster) return [{ id: SINGLE_SERVER_HOST, clickhouse }];
  return (await clickhouse.cluster.nodes()).reachable.map((node) => ({ id: node.id, clickhouse: node.connection }));
}

/** The hosts with these ids, each of which must answer (a journal's steps are undone on the very hosts that did them). */
export async function hostsById(clickhouse: ClickhouseService, ids: string[], refusal: string): Promise<Map<string, PartitionHost>> {
  const hosts = new Map<string, PartitionHost>();
  const wanted = new Set(ids);
  if (wanted.size === 0) return hosts;
  if (!clickhouse.cluster) {
    for (const id of wanted) {
      if (id !== SINGLE_SERVER_HOST) throw new Error(`${refusal}: the journal names cluster node ${id}, but CLICKHOUSE_CLUSTER is not set`);
    }
    hosts.set(SINGLE_SERVER_HOST, { id: SINGLE_SERVER_HOST, clickhouse });
    return hosts;
  }
  const { reachable, unreachable } = await clickhouse.cluster.nodes();
  for (const node of reachable) if (wanted.has(node.id)) hosts.set(node.id, { id: node.id, clickhouse: node.connection });
  const missing = [...wanted].filter((id) => !hosts.has(id));
  if (missing.length > 0) {
    const down = unreachable.filter((node) => wanted.has(node.id)).map((node) => `${node.id} (${node.reason})`);
    throw new Error(`${refusal}: ${down.length ? `node(s) ${down.join(', ')} unreachable` : `unknown node(s) ${missing.join(', ')}`}`);
  }
  return hosts;
}

/** The partitions among `partitionIds` that the host's cost_line_items has now (from part metadata, not rows). */
export async function existingPartitions(host: PartitionHost, partitionIds: string[]): Promise<string[]> {
  if (partitionIds.length === 0) return [];
  const rows = await host.clickhouse.query<{ partition_id: string }>(
    `SELECT DISTINCT partition_id FROM system.parts
     WHERE database = {database:String} AND table = {table:String} AND active AND partition_id IN {partition_ids:Array(String)}`,
    { database: host.clickhouse.database, table: 'cost_line_items' satisfies StoreTable, partition_ids: partitionIds },
  );
  const existing = new Set(rows.map((row) => row.partition_id));
  return partitionIds.filter((id) => existing.has(id));
}
