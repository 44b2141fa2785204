import type { ClickHouseSettings } from '@clickhouse/client';
import type { ClickhouseService, StatementParameters } from '../src/store/clickhouse/clickhouse.service';
import { servingTableName } from '../src/store/schema/cluster-ddl';
import { ClusterNodes, nodeId, ReachableNode } from '../src/store/clickhouse/cluster-nodes';
import type { GeneratedTableName, StoreTable } from '../src/store/schema/store-tables';

/** The organisation every golden statement is of. */
export const GOLDEN_ORGANIZATION_ID = '3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d';
/** The import id the golden statements name (import-tables.ts's shape for 2026-11-25 06:00 UTC, its random part fixed). */
export const GOLDEN_IMPORT_ID = 'focus_import_mwvps5c0_7f3e2a1b';
/** An import id the code makes itself (newImportId: the time and random bytes of the run), written as one fixed name. */
const NEW_IMPORT_ID = /focus_import_[0-9a-z]+_[0-9a-f]{8}/g;
const NEW_IMPORT_ID_SHOWN = 'focus_import_new_00000000';

/** One statement a repository would send: how it is sent, its SQL, its parameters and its own settings. */
export interface RecordedStatement {
  sent: 'query' | 'queryRaw' | 'command' | 'longCommand' | 'insert' | 'insertSelect' | 'insertWithBody';
  sql: string;
  params: StatementParameters;
  settings: ClickHouseSettings;
  /** On a recorded cluster, the node a statement went to directly (`s<shard>r<replica>`); absent: the entry node. */
  node?: string;
}

/** The recorded cluster's nodes: 2 shards x 2 replicas, as the e2e suite's cluster. */
const CLUSTER_NODES = [
  { shard: 1, replica: 1 },
  { shard: 1, replica: 2 },
  { shard: 2, replica: 1 },
  { shard: 2, replica: 2 },
];
/** Their ids (`s<shard>r<replica>`), in that order: how a statement names the node it went to. */
export const RECORDED_CLUSTER_NODE_IDS = CLUSTER_NODES.map(({ shard, replica }) => nodeId(shard, replica));

/** What a recorder shares with the recorders of its cluster's nodes: one list of statements, one queue of answers. */
interface Recording {
  statements: RecordedStatement[];
  answers: unknown[][];
}

/**
 * What golden-repositories.ts runs a repository method on: it records each statement the method sends and answers a
 * read with the rows the case gives (none by default), so the method's SQL is written down without a server. It never
 * stands in for ClickHouse in a test of behaviour: the repositories are tested on real servers by their e2e suites.
 * An insert is written as the statement @clickhouse/client sends for it: its table and columns, the rows left out
 * (they carry the time of the run).
 */
export class StatementRecorder {
  readonly database = 'cost_insights';
  readonly embedded = false;
  readonly url = 'http://clickhouse:8123';
  /** `onCluster`: the entry node of a 2 x 2 cluster (`distributed` replicas) whose nodes record into the same list. */
  readonly cluster: RecordedCluster | undefined;
  private readonly recording: Recording;
  private readonly node?: string;

  constructor(answers: readonly unknown[][] = [], options: { onCluster?: boolean; node?: string; recording?: Recording } = {}) {
    this.recording = options.recording ?? { statements: [], answers: [...answers] };
    this.node = options.node;
    this.cluster = options.onCluster ? new RecordedCluster(this.recording) : undefined;
  }

  get statements(): RecordedStatement[] {
    return this.recording.statements;
  }

  /** This recorder where a repository wants a ClickhouseService: it has every member repositories use. */
  asService(): ClickhouseService {
    return this as unknown as ClickhouseService;
  }

  /** A server that knows every setting asked about. */
  knownSettings<T extends Record<string, unknown>>(settings: T): Promise<Partial<T>> {
    return Promise.resolve(settings);
  }

  writeCount(): number {
    return 0;
  }

  table(name: StoreTable | GeneratedTableName): string {
    return `${this.database}.${servingTableName(name, this.cluster !== undefined)}`;
  }

  query<T>(sql: string, params: StatementParameters = {}): Promise<T[]> {
    this.record('query', sql, params);
    return Promise.resolve((this.recording.answers.shift() ?? []) as T[]);
  }

  queryRaw(sql: string, params: StatementParameters = {}): Promise<Buffer[]> {
    this.record('queryRaw', sql, params);
    return Promise.resolve([]);
  }

  command(sql: string, params: StatementParameters = {}, settings: ClickHouseSettings = {}): Promise<void> {
    this.record('command', sql, params, settings);
    return Promise.resolve();
  }

  longCommand(sql: string, params: StatementParameters = {}): Promise<void> {
    this.record('longCommand', sql, params);
    return Promise.resolve();
  }

  insertSelect(sql: string, params: StatementParameters, settings: ClickHouseSettings = {}): Promise<void> {
    this.record('insertSelect', sql, params, settings);
    return Promise.resolve();
  }

  insertWithBody(sql: string, _values: unknown, params: StatementParameters = {}): Promise<void> {
    this.record('insertWithBody', sql, params);
    return Promise.resolve();
  }

  insert(table: StoreTable, values: Record<string, unknown>[], settings: ClickHouseSettings = {}): Promise<void> {
    if (values.length === 0) return Promise.resolve();
    const columns = [...new Set(values.flatMap((row) => Object.keys(row)))];
    this.record('insert', `INSERT INTO ${this.table(table)} (${columns.join(', ')}) FORMAT JSONEachRow`, {}, settings);
    return Promise.resolve();
  }

  private record(sent: RecordedStatement['sent'], sql: string, params: StatementParameters, settings: ClickHouseSettings = {}): void {
    this.statements.push({
      sent,
      sql: sql.replace(NEW_IMPORT_ID, (id) => (id === GOLDEN_IMPORT_ID ? id : NEW_IMPORT_ID_SHOWN)),
      params,
      settings,
      ...(this.node ? { node: this.node } : {}),
    });
  }
}

/**
 * The recorded cluster: its nodes known without a statement (node discovery has golden files of its own,
 * cluster-nodes.*.sql), each a recorder of its own local tables writing into the entry's list.
 */
class RecordedCluster {
  readonly name = 'cost_insights';
  private readonly reachable: Array<ReachableNode<ClickhouseService>>;

  constructor(recording: Recording) {
    this.reachable = CLUSTER_NODES.map(({ shard, replica }) => {
      const id = nodeId(shard, replica);
      const url = `http://clickhouse-${shard}-${replica}:8123`;
      const connection = new StatementRecorder([], { node: id, recording }).asService();
      return { id, shard, replica, address: `clickhouse-${shard}-${replica}:9000`, url, connection };
    });
  }

  nodes(): Promise<ClusterNodes<ClickhouseService>> {
    return Promise.resolve({ reachable: this.reachable, unreachable: [] });
  }

  allNodes(): Promise<Array<ReachableNode<ClickhouseService>>> {
    return Promise.resolve(this.reachable);
  }

  replication(): Promise<'distributed'> {
    return Promise.resolve('distributed');
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
