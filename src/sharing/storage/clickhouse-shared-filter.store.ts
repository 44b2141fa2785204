import { Logger } from '@nestjs/common';
import { UpstreamUnavailableException } from '../../common/errors/api-errors';
import { ClickhouseService } from '../../infrastructure/clickhouse/clickhouse.service';
import { SharedFilterConfiguration } from '../shared-filter-configuration';
import { SHARED_FILTER_STORAGE_NAME, SharedFilterRecord, SharedFilterStore } from './shared-filter.store';

export const SHARED_FILTERS_TABLE = 'shared_filters';

interface StoredRow {
  organization_id: string;
  configuration: string;
  created_at: string;
}

/**
 * Shared filters in the ClickHouse table `shared_filters` (migration 0003), for deployments without
 * Redis; they survive restarts. The table's TTL deletes expired rows only at merge time, so every
 * read also checks `expires_at`.
 */
export class ClickhouseSharedFilterStore implements SharedFilterStore {
  private readonly logger = new Logger(ClickhouseSharedFilterStore.name);

  constructor(private readonly clickhouse: ClickhouseService) {}

  async save(record: SharedFilterRecord, ttlSeconds: number): Promise<void> {
    const createdAt = Date.parse(record.createdAt);
    await this.call('save', () =>
      this.clickhouse.insert(SHARED_FILTERS_TABLE, [
        {
          filter_id: record.filterId,
          organization_id: record.organizationId,
          configuration: JSON.stringify(record.configuration),
          created_at: clickhouseDateTime(createdAt),
          expires_at: clickhouseDateTime(createdAt + ttlSeconds * 1000),
        },
      ]),
    );
  }

  async find(filterId: string): Promise<SharedFilterRecord | undefined> {
    const rows = await this.call('find', () =>
      this.clickhouse.query<StoredRow>(
        `SELECT organization_id, configuration, created_at
         FROM ${this.clickhouse.table(SHARED_FILTERS_TABLE)}
         WHERE filter_id = {filter_id:String} AND expires_at > now64(3)
         LIMIT 1`,
        { filter_id: filterId },
      ),
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      filterId,
      organizationId: row.organization_id,
      configuration: JSON.parse(row.configuration) as SharedFilterConfiguration,
      createdAt: new Date(`${row.created_at.replace(' ', 'T')}Z`).toISOString(),
    };
  }

  private async call<T>(operation: string, command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      this.logger.error(`ClickHouse ${operation} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new UpstreamUnavailableException(SHARED_FILTER_STORAGE_NAME);
    }
  }
}

/** `YYYY-MM-DD hh:mm:ss.sss`, which a DateTime64(3, 'UTC') column reads as UTC. */
function clickhouseDateTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace('T', ' ').replace('Z', '');
}
