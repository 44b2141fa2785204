import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { UpstreamUnavailableException } from '../../common/errors/api-errors';
import { metrics } from '../../observability/metrics';
import { SHARED_FILTER_STORAGE_NAME, SharedFilterRecord, SharedFilterStore } from './shared-filter.store';

export const REDIS_SHARED_FILTER_KEY_PREFIX = 'cost-insights:shared-filter:';

export function redisSharedFilterKey(filterId: string): string {
  return REDIS_SHARED_FILTER_KEY_PREFIX + filterId;
}

/** One JSON string per filter, written with `SET … EX ttl NX`: Redis itself expires it. */
export class RedisSharedFilterStore implements SharedFilterStore {
  private readonly logger = new Logger(RedisSharedFilterStore.name);

  constructor(private readonly redis: Redis) {}

  async save(record: SharedFilterRecord, ttlSeconds: number): Promise<void> {
    const value = JSON.stringify({
      organizationId: record.organizationId,
      configuration: record.configuration,
      createdAt: record.createdAt,
    });
    const result = await this.call('save', () =>
      this.redis.set(redisSharedFilterKey(record.filterId), value, 'EX', ttlSeconds, 'NX'),
    );
    // NX: a (144-bit) ID collision must never overwrite another organisation's filter.
    if (result !== 'OK') throw new Error(`Shared filter ID collision on ${record.filterId}`);
  }

  async find(filterId: string): Promise<SharedFilterRecord | undefined> {
    const value = await this.call('find', () => this.redis.get(redisSharedFilterKey(filterId)));
    if (value === null) return undefined;
    const stored = JSON.parse(value) as Omit<SharedFilterRecord, 'filterId'>;
    return { filterId, ...stored };
  }

  /** The client rejects at once while disconnected (no offline queue) and times out hung commands. */
  private async call<T>(operation: string, command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      metrics.redisErrors.inc({ operation: 'shared_filters' });
      this.logger.error(`Redis ${operation} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new UpstreamUnavailableException(SHARED_FILTER_STORAGE_NAME);
    }
  }
}
