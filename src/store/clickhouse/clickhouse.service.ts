import { GeneratedTableName, StoreTable } from '../schema/store-tables';
import { ClickHouseClient, ClickHouseSettings, extractErrorAtTheEndOfChunk } from '@clickhouse/client';
import type { Readable } from 'node:stream';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ConcurrencyLimitExceededException } from '../../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { metrics, parseClickhouseSummary } from '../../observability/prometheus-metrics';
import { asApiError, isUnreachableNodeError } from './clickhouse-errors';
import { createClickhouseClient } from './clickhouse.client-factory';
import { servingTableName } from '../schema/cluster-ddl';
import { ClickhouseCluster } from './cluster-nodes';
import { FairScheduler, TenantQueueFullError } from './fair-scheduler';
import { currentStatementOwner } from './statement-owner';
import { EntryNodes } from './entry-nodes';

export type StatementParameters = Record<string, unknown>;

/** Whose question a read answers: reads for an organisation share the engine fairly with other organisations'. */
export interface ReadOptions {
  organizationId?: string;
}

/**
 * Thin wrapper over @clickhouse/client: qualified table names and typed results.
 * Values reach SQL only as `{name:Type}` query parameters.
 */
@Injectable()
export class ClickhouseService implements OnModuleDestroy {
  /** The servers reads enter through (entry-nodes.ts): CLICKHOUSE_URL's, then a cluster's nodes; one for embedded. */
  private readonly entries: EntryNodes<ClickHouseClient>;
  readonly database: string;

  /** The client of the entry node now in use (the preferred one unless it stopped answering). */
  get client(): ClickHouseClient {
    return this.entries.current();
  }
  /** True for the in-process chDB engine: files on this machine are also the engine's files. */
  readonly embedded: boolean;

  /** The server's URL; undefined for the embedded engine. */
  readonly url: string | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const entryUrls = config.clickhouse.url ? config.clickhouse.entryUrls : [undefined];
    this.entries = new EntryNodes(entryUrls.map((url) => createClickhouseClient({ ...config, clickhouse: { ...config.clickhouse, url } })));
    this.database = config.clickhouse.database;
    this.embedded = !config.clickhouse.url;
    this.url = config.clickhouse.url;
    const { url, cluster } = config.clickhouse;
    this.cluster = cluster && url ? new ClickhouseCluster(cluster, this, url, (nodeUrl) => this.forNode(nodeUrl)) : undefined;
    this.scheduler = new FairScheduler({
      // The embedded engine runs parameterised statements one at a time (chdb's process-wide chain): queueing
      // them here, one in flight, lets the scheduler rather than arrival order decide who goes next.
      capacity: this.embedded ? 1 : config.clickhouse.maxOpenConnections,
      perTenant: config.organizationLimits.concurrentStatements,
      queuedPerTenant: config.organizationLimits.queuedStatements,
      queuedPerKey: config.organizationLimits.queuedStatementsPerKey,
    });
    const { indexAnalysisThreads } = config.clickhouse;
    this.wantedReadSettings = {
      ...(indexAnalysisThreads > 0 ? { max_threads_for_indexes: indexAnalysisThreads } : {}),
      // ClickHouse would rewrite `resource_tags['team']` into a read of the map's subcolumn, an expression no aggregate
      // projection holds: with the rewrite off, tag and cost-category questions are answered from the tag projections
      // (migration 0015) like column questions from theirs.
      optimize_functions_to_subcolumns: 0,
    };
  }

  private readonly scheduler: FairScheduler;

  /** Tuning settings of reads (query, queryRaw), sent only once the server is known to have them. */
  private readonly wantedReadSettings: ClickHouseSettings;
  private knownReadSettings?: Promise<ClickHouseSettings>;

  /**
   * The settings every read (query, queryRaw) carries on top of the client's: the wanted read settings
   * this server knows (an older one would reject a statement carrying an unknown setting), looked up
   * once; a failed lookup is retried by the next read.
   */
  readSettings(): Promise<ClickHouseSettings> {
    this.knownReadSettings ??= this.knownSettings(this.wantedReadSettings).catch((error: unknown) => {
      this.knownReadSettings = undefined;
      throw error;
    });
    return this.knownReadSettings;
  }

  /**
   * Of these settings, those this server knows (each name looked up once): a statement carrying an unknown
   * setting would be refused by an older server. Asked on the bare client: reads themselves wait for it.
   */
  async knownSettings<T extends Record<string, unknown>>(settings: T): Promise<Partial<T>> {
    const unknown = Object.keys(settings).filter((name) => !this.settingKnown.has(name));
    if (unknown.length > 0) {
      const result = await this.entries.read((client) =>
        client.query({
          query: 'SELECT name FROM system.settings WHERE name IN {names:Array(String)}',
          query_params: { names: unknown },
          format: 'JSONEachRow',
        }),
      );
      const known = new Set((await result.json<{ name: string }>()).map((row) => row.name));
      for (const name of unknown) this.settingKnown.set(name, known.has(name));
    }
    return Object.fromEntries(Object.entries(settings).filter(([name]) => this.settingKnown.get(name))) as Partial<T>;
  }
  private readonly settingKnown = new Map<string, boolean>();

  /** CLICKHOUSE_CLUSTER: cluster-wide tables are served through their Distributed tables (cluster-ddl.ts). */
  readonly cluster: ClickhouseCluster<ClickhouseService> | undefined;

  /**
   * One node of the cluster as a single server of its own (its tables are its local tables): what the
   * migrator and the importer use for the work done node by node.
   */
  private forNode(url: string): ClickhouseService {
    const node = new ClickhouseService({
      ...this.config,
      clickhouse: { ...this.config.clickhouse, url, entryUrls: [url], cluster: undefined },
    });
    node.writes = this.writes;
    return node;
  }

  /**
   * Statements sent by this process that may have written an organisation's rows of `table`: inserts of
   * its rows (or of rows without an organization_id), and every command (DDL, partition swaps and
   * mutations may touch any table). Part of the data version of that organisation's answers.
   */
  writeCount(table: string, organizationId: string): number {
    const inserts = (scope: string) => this.writes.inserts.get(`${table}/${scope}`) ?? 0;
    return inserts(organizationId.toLowerCase()) + inserts(ANY_ORGANIZATION) + this.writes.commands;
  }
  /** Shared with this process's connections to single nodes of the cluster (forNode): their writes count too. */
  private writes = { inserts: new Map<string, number>(), commands: 0 };

  /** Fully qualified table name. The chDB connection ignores a default database, so SQL always qualifies. */
  table(name: StoreTable | GeneratedTableName): string {
    // In cluster mode a sharded table is read and written through its Distributed table (cluster-ddl.ts).
    return `${this.database}.${servingTableName(name, this.cluster !== undefined)}`;
  }

  async query<T>(query: string, params: StatementParameters = {}, options: ReadOptions = {}): Promise<T[]> {
    return this.scheduled(options, () =>
      this.measured('query', async () => {
        const settings = await this.readSettings();
        return this.entries.read(async (client) => {
          const result = await client.query({ query, query_params: params, format: 'JSONEachRow', clickhouse_settings: settings });
          const rows = await result.json<T>();
          countRead(result.response_headers);
          return rows;
        });
      }),
    );
  }

  /**
   * The result's bytes exactly as ClickHouse wrote them in TabSeparatedRaw (columns separated by tabs,
   * rows ended by newlines, nothing escaped), as the chunks they arrived in: for statements that format
   * their own output (e.g. JSON with formatRowNoNewline) and answers that pass those bytes on without
   * decoding or even joining them.
   */
  async queryRaw(query: string, params: StatementParameters = {}, options: ReadOptions = {}): Promise<Buffer[]> {
    return this.scheduled(options, () =>
      this.measured('query', async () => {
        const settings = await this.readSettings();
        return this.entries.read(async (client) => {
          const result = await client.exec({
            query: `${query}\nFORMAT TabSeparatedRaw`,
            query_params: params,
            clickhouse_settings: settings,
          });
          const chunks: Buffer[] = [];
          for await (const chunk of result.stream) chunks.push(chunk as Buffer);
          throwStreamedException(chunks, result.response_headers);
          countRead(result.response_headers);
          return chunks;
        });
      }),
    );
  }

  /**
   * An organisation's read waits for its turn (FairScheduler); a full queue is the rate limit's 429. A read
   * over the per-query budgets is the API's 400 (asApiError): reads are what requests run.
   */
  private async scheduled<R>({ organizationId }: ReadOptions, read: () => Promise<R>): Promise<R> {
    const attempt = this.cluster ? () => retriedOnReplicaFailure(read) : read;
    try {
      return organizationId === undefined ? await attempt() : await this.scheduler.run(organizationId, attempt, currentStatementOwner());
    } catch (error) {
      if (error instanceof TenantQueueFullError) throw new ConcurrencyLimitExceededException(error.byKey);
      throw asApiError(error);
    }
  }

  async command(query: string, params: StatementParameters = {}, settings: ClickHouseSettings = {}): Promise<void> {
    try {
      await this.measured('command', () => this.client.command({ query, query_params: params, clickhouse_settings: settings }));
    } finally {
      this.writes.commands++; // see insert
    }
  }

  /**
   * A command that may run longer than the client's request timeout without a byte to send (a partition copied
   * by INSERT … SELECT): the server sends a progress header every half timeout meanwhile, so the client never takes
   * the socket for dead. Node caps a response's headers at 16 KB: about 15 minutes of progress at the default timeout.
   */
  async longCommand(query: string, params: StatementParameters = {}): Promise<void> {
    await this.command(query, params, this.progressHeaderSettings());
  }

  /** None for the embedded engine: no socket, and its connection would keep settings for the session. */
  private progressHeaderSettings(): ClickHouseSettings {
    if (this.embedded) return {};
    const interval = Math.floor(this.config.clickhouse.requestTimeoutMs / 2);
    return { send_progress_in_http_headers: 1, http_headers_progress_interval_ms: String(interval) };
  }

  /**
   * A statement (an INSERT … SELECT … FROM input(…) FORMAT …) whose data is the stream, sent as the request body
   * (server only): e.g. an export file mapped as it arrives.
   */
  async insertWithBody(statement: string, values: Readable, params: StatementParameters = {}): Promise<void> {
    // Not a write count: it fills an import's own tables, which answer nothing until a command publishes them.
    await this.measured('insert', async () => {
      const result = await this.client.exec({ query: statement, values, query_params: params });
      result.stream.resume();
      await new Promise<void>((resolve, reject) => {
        result.stream.once('end', resolve);
        result.stream.once('error', reject);
      });
    });
  }

  /**
   * An INSERT … SELECT of derived rows (converted sums) that answer nothing until registered elsewhere: no write
   * count, so it moves no organisation's data version. Its own settings (e.g. one thread for a background build);
   * kept alive as longCommand is.
   */
  async insertSelect(statement: string, params: StatementParameters, settings: ClickHouseSettings = {}): Promise<void> {
    const clickhouse_settings = { ...this.progressHeaderSettings(), ...settings };
    await this.measured('insert', () => this.client.command({ query: statement, query_params: params, clickhouse_settings }));
  }

  async insert<T extends Record<string, unknown>>(table: StoreTable, values: T[], settings: ClickHouseSettings = {}): Promise<void> {
    if (values.length === 0) return;
    try {
      await this.measured('insert', () =>
        this.client.insert({ table: this.table(table), values, format: 'JSONEachRow', clickhouse_settings: settings }),
      );
    } finally {
      // Counted once finished (or failed): an answer computed while it ran is never filed under the later version.
      this.countInsert(
        table,
        values.map((row) => (typeof row.organization_id === 'string' ? row.organization_id.toLowerCase() : ANY_ORGANIZATION)),
      );
    }
  }

  private countInsert(table: string, scopes: string[]): void {
    const { inserts } = this.writes;
    for (const scope of new Set(scopes)) inserts.set(`${table}/${scope}`, (inserts.get(`${table}/${scope}`) ?? 0) + 1);
  }

  /** Latency and error metrics around one statement. */
  private async measured<R>(kind: 'query' | 'command' | 'insert', run: () => Promise<R>): Promise<R> {
    const stop = metrics.clickhouseQueryDuration.startTimer({ kind });
    try {
      const result = await run();
      stop({ outcome: 'ok' });
      return result;
    } catch (error) {
      stop({ outcome: 'error' });
      metrics.clickhouseErrors.inc({ kind });
      throw error;
    }
  }

  async ping(): Promise<boolean> {
    const result = await this.client.ping();
    if (!result.success) metrics.clickhouseErrors.inc({ kind: 'ping' });
    return result.success;
  }

  async onModuleDestroy(): Promise<void> {
    await this.cluster?.close();
    await Promise.all(this.entries.all.map((client) => client.close()));
  }
}

/**
 * A read on a cluster whose shard replica failed mid-answer (it died, its connection was lost) is asked once
 * more: the shard's other replicas are then tried first (ClickHouse counts the failure against the lost one).
 * Reads have no effect, so asking again is safe; a shard with no replica left fails again at once.
 */
async function retriedOnReplicaFailure<R>(read: () => Promise<R>): Promise<R> {
  try {
    return await read();
  } catch (error) {
    if (!isUnreachableNodeError(error)) throw error;
    return read();
  }
}

/** The write-count scope of rows that name no organisation: they count for every organisation. */
const ANY_ORGANIZATION = '*';

/** The server reports rows/bytes read in X-ClickHouse-Summary; the embedded engine sends no headers. */
function countRead(headers: Record<string, unknown> | undefined): void {
  const summary = parseClickhouseSummary(headers?.['x-clickhouse-summary']);
  if (summary) {
    metrics.clickhouseRowsRead.inc(summary.readRows);
    metrics.clickhouseBytesRead.inc(summary.readBytes);
  }
}

/**
 * A server that fails after it began sending (ClickHouse ≥ 25.11 marks it with the tag of the
 * X-ClickHouse-Exception-Tag header) appends the exception to the body: raised here as the
 * ClickHouse error it is, never passed on as data.
 */
function throwStreamedException(chunks: Buffer[], headers: Record<string, unknown> | undefined): void {
  const tag = headers?.['x-clickhouse-exception-tag'];
  if (typeof tag !== 'string' || chunks.length === 0) return;
  // The marker ends the body, possibly split over the last two chunks.
  const tail = Buffer.concat(chunks.slice(-2));
  if (tail.subarray(-64).includes('__exception__')) throw extractErrorAtTheEndOfChunk(tail, tag);
}
