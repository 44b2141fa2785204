import { Global, Inject, Module, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

/** The shared Redis connection, or null when REDIS_URL is unset (single-process mode). */
export const REDIS = Symbol('REDIS');

export function createRedisClient(url: string): Redis {
  return new Redis(url, {
    // Fail fast while disconnected instead of queueing requests until a timeout.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Redis | null => (config.redisUrl ? createRedisClient(config.redisUrl) : null),
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnModuleDestroy {
  constructor(@Inject(REDIS) private readonly redis: Redis | null) {}

  async onModuleDestroy(): Promise<void> {
    if (this.redis) this.redis.disconnect();
  }
}
