import { ClickHouseClient } from '@clickhouse/client';
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
      const result = await this.client.query({ query, query_params: params, format: 'JSONEachRow' });
      const rows = await result.json<T>();
      countRead(result.response_headers);
      return rows;
    });
  }

  /**
   * The result's lines as ClickHouse wrote them (TabSeparatedRaw: columns separated by tabs, nothing
   * escaped), for statements that format their own output (e.g. JSON text with formatRowNoNewline).
   */
  async queryLines(query: string, params: QueryParams = {}): Promise<string[]> {
    return this.measured('query', async () => {
      const result = await this.client.query({ query, query_params: params, format: 'TabSeparatedRaw' });
      const text = await result.text();
      countRead(result.response_headers);
      return text === '' ? [] : text.replace(/\n$/, '').split('\n');
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
