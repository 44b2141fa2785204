import { Logger } from '@nestjs/common';
import { UpstreamUnavailableException } from '../../common/errors/api-errors';
import { ClickhouseService } from '../../infrastructure/clickhouse/clickhouse.service';
import { SharedFilterConfiguration, serializeSharedFilterConfiguration } from '../shared-filter-configuration';
import {
  NewSharedFilter,
  quotaRefusal,
  SHARED_FILTER_STORAGE_NAME,
  SharedFilterRecord,
  SharedFilterSaveLimits,
  SharedFilterSaveOutcome,
  SharedFilterStore,
} from './shared-filter.store';

export const SHARED_FILTERS_TABLE = 'shared_filters';

interface UsageRow {
  live_count: string;
  live_bytes: string;
}

interface StoredRow {
  organization_id: string;
  configuration: string;
  created_at: string;
  creator_data_scope: string;
}

/**
 * Shared filters in the ClickHouse table `shared_filters` (migration 0003), for deployments without
 * Redis; they survive restarts. The table's TTL deletes expired rows only at merge time, so every
 * read also checks `expires_at`.
 *
 * The quota is checked (count and bytes of the organisation's unexpired rows) before the insert, one
 * creation per organisation at a time in this process. Several processes on one ClickHouse without
 * Redis can overshoot it by their concurrent creations (ClickHouse has no conditional insert).
 */
export class ClickhouseSharedFilterStore implements SharedFilterStore {
  private readonly logger = new Logger(ClickhouseSharedFilterStore.name);
  /** Per organisation: the settled tail of its queued creations (removed once the queue drains). */
  private readonly creationQueues = new Map<string, Promise<void>>();

  constructor(private readonly clickhouse: ClickhouseService) {}

  save(filter: NewSharedFilter, limits: SharedFilterSaveLimits): Promise<SharedFilterSaveOutcome> {
    return this.oneAtATime(filter.organizationId, () => this.saveWithinQuota(filter, limits));
  }

  private async saveWithinQuota(filter: NewSharedFilter, limits: SharedFilterSaveLimits): Promise<SharedFilterSaveOutcome> {
    const [usage] = await this.call('quota check', () =>
      this.clickhouse.query<UsageRow>(
        `SELECT count() AS live_count, sum(length(configuration)) AS live_bytes
         FROM ${this.clickhouse.table(SHARED_FILTERS_TABLE)}
         WHERE organization_id = {organization_id:UUID} AND expires_at > now64(3)`,
        { organization_id: filter.organizationId },
      ),
    );
    const refusal = quotaRefusal({ count: Number(usage.live_count), bytes: Number(usage.live_bytes) }, filter, limits);
    if (refusal) return refusal;
    const createdAt = Date.parse(filter.createdAt);
    await this.call('save', () =>
      this.clickhouse.insert(SHARED_FILTERS_TABLE, [
        {
          filter_id: filter.filterId,
          organization_id: filter.organizationId,
          configuration: serializeSharedFilterConfiguration(filter.configuration),
          created_at: clickhouseDateTime(createdAt),
          expires_at: clickhouseDateTime(createdAt + limits.ttlSeconds * 1000),
          creator_data_scope: filter.creatorDataScope,
        },
      ]),
    );
    return { saved: true };
  }

  /** Runs `task` after every earlier task of `organizationId` in this process has settled. */
  private oneAtATime<T>(organizationId: string, task: () => Promise<T>): Promise<T> {
    const result = (this.creationQueues.get(organizationId) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.creationQueues.set(organizationId, tail);
    void tail.then(() => {
      if (this.creationQueues.get(organizationId) === tail) this.creationQueues.delete(organizationId);
    });
    return result;
  }

  async find(filterId: string): Promise<SharedFilterRecord | undefined> {
    const rows = await this.call('find', () =>
      this.clickhouse.query<StoredRow>(
        `SELECT organization_id, configuration, created_at, creator_data_scope
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
      creatorDataScope: row.creator_data_scope,
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
