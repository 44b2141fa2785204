import { Logger } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { metrics } from '../observability/prometheus-metrics';

type StorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Rate-limit counters in Redis (shared by every instance), degrading to this instance's memory while
 * Redis is unreachable: the API keeps answering and each instance enforces the limit on its own
 * traffic (so the cluster-wide limit is at most instances × limit during an outage). Redis is tried
 * first on every request — the client fails at once while disconnected — so counting returns to
 * Redis as soon as it is back. One warning per outage, one info line on recovery.
 */
export class ResilientThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private degraded = false;

  constructor(
    private readonly shared: ThrottlerStorage,
    private readonly local: ThrottlerStorage = new ThrottlerStorageService(),
  ) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<StorageRecord> {
    try {
      const record = await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
      if (this.degraded) {
        this.degraded = false;
        metrics.rateLimitFallback.set(0);
        this.logger.log('Redis is reachable again: rate-limit counters are shared by all instances again');
      }
      return record;
    } catch (error) {
      metrics.redisErrors.inc({ operation: 'rate_limit' });
      metrics.rateLimitFallbackRequests.inc();
      if (!this.degraded) {
        this.degraded = true;
        metrics.rateLimitFallback.set(1);
        this.logger.warn(
          `Redis unreachable (${error instanceof Error ? error.message : String(error)}): counting rate limits in this instance's memory until it returns`,
        );
      }
      return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }
}
