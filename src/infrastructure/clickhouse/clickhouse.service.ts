import { ClickHouseClient, ClickHouseSettings, extractErrorAtTheEndOfChunk } from '@clickhouse/client';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { metrics, parseClickhouseSummary } from '../../observability/metrics';
import { createClickhouseClient } from './clickhouse.client-factory';
import { servingTableName } from './cluster-ddl';

export type QueryParams = Record<string, unknown>;

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
    const { indexAnalysisThreads } = config.clickhouse;
    this.wantedReadSettings = indexAnalysisThreads > 0 ? { max_threads_for_indexes: indexAnalysisThreads } : {};
  }

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

  /** Statements that may have written, sent by this process (inserts and commands): part of the data version. */
  get writeCount(): number {
    return this.writes;
  }
  private writes = 0;

  /** Fully qualified table name. The chDB connection ignores a default database, so SQL always qualifies. */
  table(name: string): string {
    // In cluster mode a sharded table is read and written through its Distributed table (cluster-ddl.ts).
    return `${this.database}.${servingTableName(name, this.cluster !== undefined)}`;
  }

  /** The node-local table, also in cluster mode (partition operations act on local tables). */
  localTable(name: string): string {
    return `${this.database}.${name}`;
  }

  async query<T>(query: string, params: QueryParams = {}): Promise<T[]> {
    return this.measured('query', async () => {
      const result = await this.client.query({ query, query_params: params, format: 'JSONEachRow', clickhouse_settings: await this.readSettings() });
      const rows = await result.json<T>();
      countRead(result.response_headers);
      return rows;
    });
  }

  /**
   * The result's bytes exactly as ClickHouse wrote them in TabSeparatedRaw (columns separated by tabs,
   * rows ended by newlines, nothing escaped), as the chunks they arrived in: for statements that format
   * their own output (e.g. JSON with formatRowNoNewline) and answers that pass those bytes on without
   * decoding or even joining them.
   */
  async queryRaw(query: string, params: QueryParams = {}): Promise<Buffer[]> {
    return this.measured('query', async () => {
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
    });
  }

  async command(query: string, params: QueryParams = {}): Promise<void> {
    await this.counted(this.measured('command', () => this.client.command({ query, query_params: params })));
  }

  async insert<T extends Record<string, unknown>>(table: string, values: T[]): Promise<void> {
    if (values.length === 0) return;
    await this.counted(this.measured('insert', () => this.client.insert({ table: this.table(table), values, format: 'JSONEachRow' })));
  }

  /** Counts a write once it has finished (or failed): an answer computed while it ran is never filed under the later version. */
  private async counted(write: Promise<unknown>): Promise<void> {
    try {
      await write;
    } finally {
      this.writes++;
    }
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
