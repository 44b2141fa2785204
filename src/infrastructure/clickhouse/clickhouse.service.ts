import { ClickHouseClient } from '@clickhouse/client';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { createClickhouseClient } from './clickhouse.client-factory';

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
  }

  /** Fully qualified table name. The chDB connection ignores a default database, so SQL always qualifies. */
  table(name: string): string {
    return `${this.database}.${name}`;
  }

  async query<T>(query: string, params: QueryParams = {}): Promise<T[]> {
    const result = await this.client.query({ query, query_params: params, format: 'JSONEachRow' });
    return result.json<T>();
  }

  async command(query: string, params: QueryParams = {}): Promise<void> {
    await this.client.command({ query, query_params: params });
  }

  async insert<T extends Record<string, unknown>>(table: string, values: T[]): Promise<void> {
    if (values.length === 0) return;
    await this.client.insert({ table: this.table(table), values, format: 'JSONEachRow' });
  }

  async ping(): Promise<boolean> {
    const result = await this.client.ping();
    return result.success;
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.close();
  }
}
