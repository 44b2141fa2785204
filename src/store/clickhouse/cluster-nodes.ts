import type { ClusterConfig } from '../../config/app-config';
import { ClusterReplication } from '../schema/cluster-ddl';
import { messageOf } from '../../common/errors/message-of';
import { StoreTable } from '../schema/store-tables';

/** A node of the cluster as system.clusters lists it. */
export interface ClusterNode {
  /**
   * `s<shard>r<replica>`, e.g. `s2r1`: how the import journal records a node. Its place in the cluster, which
   * every node's remote_servers agree on, where host names and ports could differ between nodes' views.
   */
  id: string;
  shard: number;
  replica: number;
  /** `host:port` (native TCP) as the entry node's system.clusters lists it, for messages. */
  address: string;
}

/**
 * What the cluster asks of a connection (the ClickHouse service, which holds the cluster: typed here by its use, so
 * this file does not import the service that imports it).
 */
export interface NodeConnection {
  readonly database: string;
  query<T>(query: string, params?: Record<string, unknown>): Promise<T[]>;
  onModuleDestroy(): Promise<void>;
}

/** A node this process can talk to: a single-server view of it (its tables are its local tables). */
export interface ReachableNode<Connection extends NodeConnection> extends ClusterNode {
  url: string;
  connection: Connection;
}

export interface UnreachableNode extends ClusterNode {
  /** Why it is unreachable, in words (no credentials, no internals). */
  reason: string;
}

export interface ClusterNodes<Connection extends NodeConnection> {
  reachable: Array<ReachableNode<Connection>>;
  unreachable: UnreachableNode[];
}

/** How long a node has to say who it is before it counts as unreachable. */
const IDENTIFY_TIMEOUT_MS = 3000;

interface ClustersRow {
  shard_num: number | string;
  replica_num: number | string;
  host_name: string;
  port: number | string;
}

export function nodeId(shard: number, replica: number): string {
  return `s${shard}r${replica}`;
}

const nodeOf = (row: ClustersRow): ClusterNode => ({
  id: nodeId(Number(row.shard_num), Number(row.replica_num)),
  shard: Number(row.shard_num),
  replica: Number(row.replica_num),
  address: `${row.host_name}:${Number(row.port)}`,
});

/** `shard 2 replica 1 (clickhouse-3:9000)`: a node as messages name it. */
export function describeNode(node: ClusterNode): string {
  return `shard ${node.shard} replica ${node.replica} (${node.address})`;
}

/**
 * The cluster's nodes and the way to each: system.clusters (asked of the entry node) lists them, and each
 * node URL (CLICKHOUSE_CLUSTER_NODE_URLS, or each host at the entry URL's scheme and port) is asked which node
 * it is (`is_local`), so a URL is never taken for another node. Reachability is asked afresh on every call;
 * work done node by node (migrations, partition swaps) is never on a request path.
 */
export class ClickhouseCluster<Connection extends NodeConnection> {
  private readonly connections = new Map<string, Connection>();
  private resolvedReplication?: Promise<ClusterReplication>;

  constructor(
    private readonly config: ClusterConfig,
    private readonly entry: Connection,
    private readonly entryUrl: string,
    /** A single-server view of the node at this URL. */
    private readonly connect: (url: string) => Connection,
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** Every node of the cluster, by shard then replica, and which of them answer now. */
  async nodes(): Promise<ClusterNodes<Connection>> {
    const listed = (
      await this.entry.query<ClustersRow>(
        `SELECT shard_num, replica_num, host_name, port FROM system.clusters WHERE cluster = {cluster:String} ORDER BY shard_num, replica_num`,
        { cluster: this.name },
      )
    ).map(nodeOf);
    if (listed.length === 0) {
      throw new Error(`cluster ${this.name} is not in the remote_servers of ClickHouse at ${new URL(this.entryUrl).host}`);
    }
    const identified = await Promise.all(this.candidateUrls(listed).map((url) => this.identify(url)));
    const byId = new Map<string, { url: string; connection: Connection }>();
    const failures: string[] = [];
    for (const answer of identified) {
      if ('node' in answer) byId.set(answer.node.id, answer);
      else failures.push(answer.failure);
    }
    const nodes: ClusterNodes<Connection> = { reachable: [], unreachable: [] };
    for (const node of listed) {
      const found = byId.get(node.id);
      if (found) nodes.reachable.push({ ...node, url: found.url, connection: found.connection });
      else nodes.unreachable.push({ ...node, reason: failures.length ? failures.join('; ') : 'no node URL answers as this node' });
    }
    return nodes;
  }

  /** The nodes, refusing with `what` when one is unreachable. */
  async allNodes(what: string): Promise<Array<ReachableNode<Connection>>> {
    const { reachable, unreachable } = await this.nodes();
    if (unreachable.length > 0) throw new NodesUnreachableError(what, unreachable);
    return reachable;
  }

  /**
   * How the cluster keeps replicas: as configured, or (`auto`) as the existing cost table is built, else
   * `replicated` when the servers have Keeper (ReplicatedMergeTree and ON CLUSTER need it) and `distributed`
   * when they have none. Any other failure to tell is an error, never a guess.
   */
  replication(): Promise<ClusterReplication> {
    if (this.config.replication !== 'auto') return Promise.resolve(this.config.replication);
    this.resolvedReplication ??= this.detectReplication().catch((error: unknown) => {
      this.resolvedReplication = undefined;
      throw error;
    });
    return this.resolvedReplication;
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.onModuleDestroy()));
    this.connections.clear();
  }

  private candidateUrls(listed: ClusterNode[]): string[] {
    if (this.config.nodeUrls.length > 0) return this.config.nodeUrls;
    const entry = new URL(this.entryUrl);
    const hosts = [...new Set(listed.map((node) => node.address.slice(0, node.address.lastIndexOf(':'))))];
    return hosts.map((host) => {
      const url = new URL(this.entryUrl);
      url.hostname = host;
      url.port = entry.port;
      return url.toString().replace(/\/$/, '');
    });
  }

  private async identify(url: string): Promise<{ node: ClusterNode; url: string; connection: Connection } | { failure: string }> {
    let connection = this.connections.get(url);
    if (!connection) {
      connection = this.connect(url);
      this.connections.set(url, connection);
    }
    const where = new URL(url).host;
    let timer: NodeJS.Timeout | undefined;
    try {
      const rows = await Promise.race([
        connection.query<ClustersRow>(
          `SELECT shard_num, replica_num, host_name, port FROM system.clusters WHERE cluster = {cluster:String} AND is_local`,
          { cluster: this.name },
        ),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${IDENTIFY_TIMEOUT_MS} ms`)), IDENTIFY_TIMEOUT_MS);
        }),
      ]);
      if (rows.length !== 1)
        return { failure: `${where} is ${rows.length === 0 ? 'not a node' : 'several nodes'} of cluster ${this.name}` };
      return { node: nodeOf(rows[0]), url, connection };
    } catch (error) {
      return { failure: `${where}: ${firstLine(error)}` };
    } finally {
      clearTimeout(timer);
    }
  }

  private async detectReplication(): Promise<ClusterReplication> {
    const [existing] = await this.entry.query<{ engine: string }>(
      `SELECT engine FROM system.tables WHERE database = {database:String} AND name = {table:String}`,
      { database: this.entry.database, table: 'cost_line_items' satisfies StoreTable },
    );
    if (existing) return existing.engine.startsWith('Replicated') ? 'replicated' : 'distributed';
    try {
      await this.entry.query(`SELECT count() FROM system.zookeeper WHERE path = '/'`);
      return 'replicated';
    } catch (error) {
      // UNKNOWN_TABLE (no system.zookeeper at all, e.g. clickhouse-local) or NO_ZOOKEEPER (not configured).
      const code = (error as { code?: unknown }).code;
      if (code === '60' || code === '225') return 'distributed';
      throw new Error(`cannot tell whether cluster ${this.name} has Keeper (set CLICKHOUSE_CLUSTER_REPLICATION): ${firstLine(error)}`, {
        cause: error,
      });
    }
  }
}

/** Work that needs every node (an import, a migration) while some do not answer. */
export class NodesUnreachableError extends Error {
  constructor(
    what: string,
    readonly unreachable: UnreachableNode[],
  ) {
    super(`${what}: ${unreachable.map((node) => `${describeNode(node)} is unreachable (${node.reason})`).join('; ')}`);
  }
}

function firstLine(error: unknown): string {
  return messageOf(error).slice(0, 200);
}
