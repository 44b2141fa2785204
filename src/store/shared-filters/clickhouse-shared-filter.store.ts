import { Logger } from '@nestjs/common';
import { UpstreamUnavailableException } from '../../common/errors/api-errors';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { SharedFilterConfiguration, serializeSharedFilterConfiguration } from './shared-filter-configuration';
import {
  NewSharedFilter,
  quotaRefusal,
  SHARED_FILTER_STORAGE_NAME,
  SharedFilterRecord,
  SharedFilterSaveLimits,
  SharedFilterSaveOutcome,
  SharedFilterStore,
} from './shared-filter.store';
import { clickhouseTimestamp, isoFromClickhouse } from '../../common/dates/clickhouse-time';

export const SHARED_FILTERS_TABLE = 'shared_filters';

interface UsageRow {
  live_count: string;
  live_bytes: string;
  held_count: string;
  held_bytes: string;
}

interface StoredRow {
  organization_id: string;
  configuration: string;
  created_at: string;
  expires_at: string;
  creator_data_scope: string;
  creator_key_id: string;
  deleted: number;
}

/**
 * Shared filters in the ClickHouse table `shared_filters` (migration 0003), for deployments without
 * Redis; they survive restarts. The table's TTL deletes expired rows only at merge time, so every
 * read also checks `expires_at`.
 *
 * The quota is checked (count and bytes of the organisation's unexpired rows, and of those created by the holder's
 * keys) before the insert, one creation or deletion per organisation at a time in this process. Several processes on
 * one ClickHouse without Redis can overshoot it by their concurrent creations (ClickHouse has no conditional insert).
 * A deletion inserts a tombstone (migration 0019): readers and the quota skip a filter_id that has one.
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
    // Per filter: its bytes (length() counts bytes; a tombstone's configuration is ''), whether it was deleted, and
    // whether one of the holder's keys created it.
    const [usage] = await this.call('quota check', () =>
      this.clickhouse.query<UsageRow>(
        `SELECT count() AS live_count, sum(bytes) AS live_bytes, countIf(held) AS held_count, sumIf(bytes, held) AS held_bytes
         FROM (
           SELECT filter_id, max(length(configuration)) AS bytes, max(deleted) AS gone,
                  max(creator_key_id IN {holder_key_ids:Array(String)}) AS held
           FROM ${this.clickhouse.table(SHARED_FILTERS_TABLE)}
           WHERE organization_id = {organization_id:UUID} AND expires_at > now64(3)
           GROUP BY filter_id
           HAVING gone = 0
         )`,
        { organization_id: filter.organizationId, holder_key_ids: limits.holderKeyIds },
      ),
    );
    const refusal = quotaRefusal(
      { count: Number(usage.live_count), bytes: Number(usage.live_bytes) },
      { count: Number(usage.held_count), bytes: Number(usage.held_bytes) },
      filter,
      limits,
    );
    if (refusal) return refusal;
    const createdAt = Date.parse(filter.createdAt);
    await this.call('save', () =>
      this.clickhouse.insert(SHARED_FILTERS_TABLE, [
        {
          filter_id: filter.filterId,
          organization_id: filter.organizationId,
          configuration: serializeSharedFilterConfiguration(filter.configuration),
          created_at: clickhouseTimestamp(createdAt),
          expires_at: clickhouseTimestamp(createdAt + limits.ttlSeconds * 1000),
          creator_data_scope: filter.creatorDataScope,
          creator_key_id: filter.creatorKeyId,
        },
      ]),
    );
    return { saved: true };
  }

  delete(record: SharedFilterRecord): Promise<boolean> {
    return this.oneAtATime(record.organizationId, async () => {
      if (!(await this.find(record.filterId))) return false; // deleted meanwhile (or expired)
      await this.call('delete', () =>
        this.clickhouse.insert(SHARED_FILTERS_TABLE, [
          {
            filter_id: record.filterId,
            organization_id: record.organizationId,
            configuration: '',
            created_at: clickhouseTimestamp(Date.parse(record.createdAt)),
            // The tombstone lives as long as the filter it hides (the row TTL drops both).
            expires_at: record.expiresAt ?? clickhouseTimestamp(Date.now() + 10 * 365 * 86_400_000),
            creator_data_scope: record.creatorDataScope,
            creator_key_id: record.creatorKeyId,
            deleted: 1,
          },
        ]),
      );
      return true;
    });
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
        `SELECT organization_id, configuration, created_at, expires_at, creator_data_scope, creator_key_id, deleted
         FROM ${this.clickhouse.table(SHARED_FILTERS_TABLE)}
         WHERE filter_id = {filter_id:String} AND expires_at > now64(3)
         LIMIT 2`,
        { filter_id: filterId },
      ),
    );
    // The filter and, once deleted, its tombstone.
    const row = rows.find((candidate) => Number(candidate.deleted) === 0);
    if (!row || rows.some((candidate) => Number(candidate.deleted) !== 0)) return undefined;
    return {
      filterId,
      organizationId: row.organization_id,
      configuration: JSON.parse(row.configuration) as SharedFilterConfiguration,
      createdAt: isoFromClickhouse(row.created_at),
      expiresAt: row.expires_at,
      creatorDataScope: row.creator_data_scope,
      creatorKeyId: row.creator_key_id,
      configurationBytes: Buffer.byteLength(row.configuration),
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
