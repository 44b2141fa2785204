import { ClickHouseClient, ClickHouseSettings, DataFormat, extractErrorAtTheEndOfChunk } from '@clickhouse/client';
import type { Readable } from 'node:stream';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ConcurrencyLimitExceededException } from '../../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { metrics, parseClickhouseSummary } from '../../observability/prometheus-metrics';
import { asApiError } from './clickhouse-errors';
import { createClickhouseClient } from './clickhouse.client-factory';
import { servingTableName } from './cluster-ddl';
import { FairScheduler, TenantQueueFullError } from './fair-scheduler';

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
  readonly client: ClickHouseClient;
  readonly database: string;
  /** True for the in-process chDB engine: files on this machine are also the engine's files. */
  readonly embedded: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.client = createClickhouseClient(config);
    this.database = config.clickhouse.database;
    this.embedded = !config.clickhouse.url;
    this.cluster = config.clickhouse.cluster;
    this.scheduler = new FairScheduler({
      // The embedded engine runs parameterised statements one at a time (chdb's process-wide chain): queueing
      // them here, one in flight, lets the scheduler rather than arrival order decide who goes next.
      capacity: this.embedded ? 1 : config.clickhouse.maxOpenConnections,
      perTenant: config.organizationLimits.concurrentStatements,
      queuedPerTenant: config.organizationLimits.queuedStatements,
    });
    const { indexAnalysisThreads } = config.clickhouse;
    this.wantedReadSettings = indexAnalysisThreads > 0 ? { max_threads_for_indexes: indexAnalysisThreads } : {};
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
    const names = Object.keys(this.wantedReadSettings);
    if (names.length === 0) return Promise.resolve({});
    this.knownReadSettings ??= (async () => {
      const result = await this.client.query({
        query: 'SELECT name FROM system.settings WHERE name IN {names:Array(String)}',
        query_params: { names },
        format: 'JSONEachRow',
      });
      const known = new Set((await result.json<{ name: string }>()).map((row) => row.name));
      return Object.fromEntries(Object.entries(this.wantedReadSettings).filter(([name]) => known.has(name))) as ClickHouseSettings;
    })().catch((error: unknown) => {
      this.knownReadSettings = undefined;
      throw error;
    });
    return this.knownReadSettings;
  }

  /** CLICKHOUSE_CLUSTER: migrations run ON CLUSTER, sharded tables are served through Distributed tables. */
  readonly cluster: string | undefined;

  /**
   * Statements sent by this process that may have written an organisation's rows of `table`: inserts of
   * its rows (or of rows without an organization_id), and every command (DDL, partition swaps and
   * mutations may touch any table). Part of the data version of that organisation's answers.
   */
  writeCount(table: string, organizationId: string): number {
    const inserts = (scope: string) => this.insertCounts.get(`${table}/${scope}`) ?? 0;
    return inserts(organizationId.toLowerCase()) + inserts(ANY_ORGANIZATION) + this.commandCount;
  }
  private readonly insertCounts = new Map<string, number>();
  private commandCount = 0;

  /** Fully qualified table name. The chDB connection ignores a default database, so SQL always qualifies. */
  table(name: string): string {
    // In cluster mode a sharded table is read and written through its Distributed table (cluster-ddl.ts).
    return `${this.database}.${servingTableName(name, this.cluster !== undefined)}`;
  }

  /** The node-local table, also in cluster mode (partition operations act on local tables). */
  localTable(name: string): string {
    return `${this.database}.${name}`;
  }

  async query<T>(query: string, params: StatementParameters = {}, options: ReadOptions = {}): Promise<T[]> {
    return this.scheduled(options, () =>
      this.measured('query', async () => {
        const result = await this.client.query({
          query,
          query_params: params,
          format: 'JSONEachRow',
          clickhouse_settings: await this.readSettings(),
        });
        const rows = await result.json<T>();
        countRead(result.response_headers);
        return rows;
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
        const result = await this.client.exec({
          query: `${query}\nFORMAT TabSeparatedRaw`,
          query_params: params,
          clickhouse_settings: await this.readSettings(),
        });
        const chunks: Buffer[] = [];
        for await (const chunk of result.stream) chunks.push(chunk as Buffer);
        throwStreamedException(chunks, result.response_headers);
        countRead(result.response_headers);
        return chunks;
      }),
    );
  }

  /**
   * An organisation's read waits for its turn (FairScheduler); a full queue is the rate limit's 429. A read
   * over the per-query budgets is the API's 400 (asApiError): reads are what requests run.
   */
  private async scheduled<R>({ organizationId }: ReadOptions, read: () => Promise<R>): Promise<R> {
    try {
      return organizationId === undefined ? await read() : await this.scheduler.run(organizationId, read);
    } catch (error) {
      if (error instanceof TenantQueueFullError) throw new ConcurrencyLimitExceededException();
      throw asApiError(error);
    }
  }

  async command(query: string, params: StatementParameters = {}): Promise<void> {
    try {
      await this.measured('command', () => this.client.command({ query, query_params: params }));
    } finally {
      this.commandCount++; // see insert
    }
  }

  /**
   * Streams bytes already in a ClickHouse input format (an export file being imported) into a table given
   * by its qualified name, e.g. an import's staging table.
   */
  async insertStream(qualifiedTable: string, values: Readable, format: DataFormat, settings: ClickHouseSettings): Promise<void> {
    try {
      await this.measured('insert', () => this.client.insert({ table: qualifiedTable, values, format, clickhouse_settings: settings }));
    } finally {
      this.countInsert(qualifiedTable, [ANY_ORGANIZATION]);
    }
  }

  async insert<T extends Record<string, unknown>>(table: string, values: T[]): Promise<void> {
    if (values.length === 0) return;
    try {
      await this.measured('insert', () => this.client.insert({ table: this.table(table), values, format: 'JSONEachRow' }));
    } finally {
      // Counted once finished (or failed): an answer computed while it ran is never filed under the later version.
      this.countInsert(
        table,
        values.map((row) => (typeof row.organization_id === 'string' ? row.organization_id.toLowerCase() : ANY_ORGANIZATION)),
      );
    }
  }

  private countInsert(table: string, scopes: string[]): void {
    for (const scope of new Set(scopes)) this.insertCounts.set(`${table}/${scope}`, (this.insertCounts.get(`${table}/${scope}`) ?? 0) + 1);
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
    await this.client.close();
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
