import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { freePort, libchdbPath, stopProcess } from './local-servers';

/**
 * A real ClickHouse cluster on loopback: shards × replicas processes of libchdb, each serving the HTTP and the
 * native TCP interface (scripts/clickhouse-server.py), with `remote_servers` naming every node and
 * `internal_replication=false` (libchdb has no ReplicatedMergeTree: the Distributed tables write every
 * replica). docs/testing.md (Cluster mode) says what such a cluster can and cannot do, and the two libchdb
 * defects worked around here (hedged requests, resets).
 */
export interface ClusterNodeProcess {
  shard: number;
  replica: number;
  httpPort: number;
  tcpPort: number;
  /** What the other nodes connect to: a relay to tcpPort that never resets the node (scripts/clickhouse-server.py). */
  relayPort: number;
  /** HTTP URL, what the API and the migrator connect to. */
  url: string;
  /** `s<shard>r<replica>`, as the service names it (cluster-nodes.ts). */
  id: string;
  pid: number | undefined;
  /** SIGKILL: the node is gone at once (its data stays on disk). */
  kill(): Promise<void>;
  /** Starts it again on the same ports and data. */
  start(): Promise<void>;
}

export interface LocalCluster {
  name: string;
  nodes: ClusterNodeProcess[];
  /** The settings that point the service at this cluster (entry node: the first). */
  settings: { CLICKHOUSE_URL: string; CLICKHOUSE_CLUSTER: string; CLICKHOUSE_CLUSTER_NODE_URLS: string };
  node(shard: number, replica: number): ClusterNodeProcess;
  /**
   * Scales out: one more shard (of as many replicas as the others) in every node's remote_servers, the nodes
   * restarted to read it (a server reloads remote_servers by itself; clickhouse-local does not) and the new
   * ones started empty. The settings' node URLs include the new nodes.
   */
  addShard(): Promise<ClusterNodeProcess[]>;
  pids(): number[];
  stop(): Promise<void>;
}

export interface ClusterOptions {
  name?: string;
  shards?: number;
  replicas?: number;
  /**
   * Nodes talk to each other through the relays that keep libchdb alive when a query is cancelled (the
   * default). The bench, which cancels nothing, measures ClickHouse's own fan-out without them.
   */
  relays?: boolean;
  /** The folder BACKUP … TO File() may write into (`backups.allowed_path`): the backup commands' BACKUP_DIR. */
  backupsDir?: string;
}

const ROOT = resolve(__dirname, '../..');
export const TEST_CLUSTER_NAME = 'cost_cluster';

interface NodeLayout {
  shard: number;
  replica: number;
  httpPort: number;
  tcpPort: number;
  relayPort: number;
  /** A macro only this node's configuration holds: start-up checks that its HTTP port answers as this node. */
  token: string;
}

/** A node's ports, free when chosen (another process may still take one before the node binds it). */
async function nodeLayout(shard: number, replica: number): Promise<NodeLayout> {
  return { shard, replica, httpPort: await freePort(), tcpPort: await freePort(), relayPort: await freePort(), token: randomUUID() };
}

/** Attempts at starting a cluster whose node lost a port it was given to another process (each with new ports). */
const START_ATTEMPTS = 3;

/**
 * One node's configuration: its ports, the cluster (every node: itself at its own TCP port, so system.clusters
 * knows it as local, the others at their relays), its macros, query_log, and a distribution pool.
 */
export function clusterNodeConfig(name: string, shards: NodeLayout[][], self: NodeLayout, relays = true, backupsDir?: string): string {
  const port = (node: NodeLayout) => (node === self || !relays ? node.tcpPort : node.relayPort);
  const shardXml = shards
    .map(
      (replicas) =>
        '   <shard><internal_replication>false</internal_replication>' +
        replicas.map((node) => `<replica><host>127.0.0.1</host><port>${port(node)}</port></replica>`).join('') +
        '</shard>',
    )
    .join('\n');
  return `<clickhouse>
 <http_port>${self.httpPort}</http_port>
 <tcp_port>${self.tcpPort}</tcp_port>
 <listen_host>127.0.0.1</listen_host>
 <logger><level>warning</level><console>1</console></logger>
 <!-- clickhouse-local's default is 0: queued Distributed inserts would never be sent -->
 <background_distributed_schedule_pool_size>4</background_distributed_schedule_pool_size>
 <query_log><database>system</database><table>query_log</table><flush_interval_milliseconds>1000</flush_interval_milliseconds></query_log>
 ${backupsDir ? `<backups><allowed_path>${backupsDir}</allowed_path></backups>` : ''}
 <macros><shard>${self.shard}</shard><replica>r${self.replica}</replica><node_token>${self.token}</node_token></macros>
 <remote_servers>
  <${name}>
${shardXml}
  </${name}>
 </remote_servers>
</clickhouse>
`;
}

export async function startClickhouseCluster(dir: string, options: ClusterOptions = {}): Promise<LocalCluster> {
  const name = options.name ?? TEST_CLUSTER_NAME;
  let layout: NodeLayout[][] = [];
  const configure = (self: NodeLayout) => {
    const nodeDir = join(dir, `s${self.shard}r${self.replica}`);
    mkdirSync(join(nodeDir, 'data'), { recursive: true });
    const configPath = join(nodeDir, 'node.xml');
    writeFileSync(configPath, clusterNodeConfig(name, layout, self, options.relays ?? true, options.backupsDir));
    return { nodeDir, configPath };
  };
  let nodes: NodeProcess[] = [];
  for (let attempt = 1; ; attempt++) {
    layout = [];
    for (let shard = 1; shard <= (options.shards ?? 2); shard++) {
      const replicas: NodeLayout[] = [];
      for (let replica = 1; replica <= (options.replicas ?? 2); replica++) replicas.push(await nodeLayout(shard, replica));
      layout.push(replicas);
    }
    nodes = layout.flat().map((self) => {
      const { nodeDir, configPath } = configure(self);
      return new NodeProcess(self, nodeDir, configPath);
    });
    try {
      await Promise.all(nodes.map((node) => node.start()));
      break;
    } catch (error) {
      await Promise.all(nodes.map((node) => node.kill()));
      // Ports are chosen free, then bound by the node: a process running beside may take one in between.
      if (!(error instanceof NodeStartFailure) || attempt === START_ATTEMPTS) throw error;
    }
  }
  const settings = {
    CLICKHOUSE_URL: nodes[0].url,
    CLICKHOUSE_CLUSTER: name,
    CLICKHOUSE_CLUSTER_NODE_URLS: nodes.map((node) => node.url).join(','),
  };
  return {
    name,
    nodes,
    settings,
    async addShard() {
      const shard = layout.length + 1;
      const replicas: NodeLayout[] = [];
      for (let replica = 1; replica <= layout[0].length; replica++) replicas.push(await nodeLayout(shard, replica));
      layout.push(replicas);
      const layoutOf = new Map(layout.flat().map((self) => [`s${self.shard}r${self.replica}`, self]));
      for (const node of nodes) {
        configure(layoutOf.get(node.id)!);
        await node.kill();
        await node.start();
      }
      const added = replicas.map((self) => {
        const { nodeDir, configPath } = configure(self);
        return new NodeProcess(self, nodeDir, configPath);
      });
      await Promise.all(added.map((node) => node.start()));
      nodes.push(...added);
      settings.CLICKHOUSE_CLUSTER_NODE_URLS = nodes.map((node) => node.url).join(',');
      return added;
    },
    node: (shard, replica) => {
      const node = nodes.find((n) => n.shard === shard && n.replica === replica);
      if (!node) throw new Error(`no node s${shard}r${replica}`);
      return node;
    },
    pids: () => nodes.flatMap((node) => (node.pid ? [node.pid] : [])),
    stop: async () => {
      await Promise.all(nodes.map((node) => node.stop()));
    },
  };
}

/** A node that died while starting or found another process on a port it was given: started again on new ports. */
class NodeStartFailure extends Error {}

class NodeProcess implements ClusterNodeProcess {
  readonly shard: number;
  readonly replica: number;
  readonly httpPort: number;
  readonly tcpPort: number;
  readonly relayPort: number;
  readonly url: string;
  readonly id: string;
  private readonly token: string;
  private child?: ChildProcess;
  /** Its output (a crash report, if any) goes to node.log beside its data. */
  private readonly log: number;

  constructor(
    self: NodeLayout,
    private readonly nodeDir: string,
    private readonly configPath: string,
  ) {
    this.shard = self.shard;
    this.replica = self.replica;
    this.httpPort = self.httpPort;
    this.tcpPort = self.tcpPort;
    this.relayPort = self.relayPort;
    this.url = `http://127.0.0.1:${self.httpPort}`;
    this.id = `s${self.shard}r${self.replica}`;
    this.token = self.token;
    this.log = openSync(join(nodeDir, 'node.log'), 'a');
  }

  get pid(): number | undefined {
    return this.child && this.child.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  async start(): Promise<void> {
    if (this.pid) return;
    const child = spawn(
      'python3',
      [
        join(ROOT, 'scripts/clickhouse-server.py'),
        libchdbPath(),
        String(this.httpPort),
        join(this.nodeDir, 'data'),
        `--config-file=${this.configPath}`,
        `--tcp_port=${this.tcpPort}`,
        `--relay-port=${this.relayPort}`,
        // Hedged requests (ClickHouse's default) open a second connection to a slow replica's twin and reset the
        // loser, which libchdb's TCP handler does not survive (see scripts/clickhouse-server.py); a real
        // clickhouse-server does. Only these test nodes turn hedging off (command-line settings are the sessions'
        // defaults in clickhouse-local, which ignores the profiles of a config file).
        '--use_hedged_requests=0',
        '--log-level=warning',
      ],
      { stdio: ['ignore', this.log, this.log], detached: true },
    );
    this.child = child;
    let exited = false;
    child.once('exit', () => (exited = true));
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (exited) throw new NodeStartFailure(`ClickHouse node ${this.id} exited during start-up (see ${join(this.nodeDir, 'node.log')})`);
      const ping = await fetch(`${this.url}/ping`).then(
        (response) => response.ok,
        () => false,
      );
      if (ping && (await tcpAccepts(this.tcpPort)) && (await tcpAccepts(this.relayPort))) {
        if (await this.answersAsItself()) return;
        throw new NodeStartFailure(`ClickHouse node ${this.id}: another process answers on its HTTP port ${this.httpPort}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    await this.kill();
    throw new Error(`ClickHouse node ${this.id} did not become ready within 60 s`);
  }

  /** Whether the server on its HTTP port is this node (its own macro), not another process that took the port. */
  private async answersAsItself(): Promise<boolean> {
    const query = encodeURIComponent("SELECT getMacro('node_token')");
    const answer = await fetch(`${this.url}/?query=${query}`).then(
      async (response) => (response.ok ? (await response.text()).trim() : ''),
      () => '',
    );
    return answer === this.token;
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    if (this.child) await stopProcess(this.child);
  }
}

function tcpAccepts(port: number): Promise<boolean> {
  return new Promise((resolveAccepts) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolveAccepts(true);
    });
    socket.once('error', () => resolveAccepts(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolveAccepts(false);
    });
    socket.connect(port, '127.0.0.1');
  });
}
