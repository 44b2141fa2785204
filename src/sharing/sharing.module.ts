import { Module } from '@nestjs/common';
import type Redis from 'ioredis';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { REDIS } from '../infrastructure/redis/redis.module';
import { SharingController } from './sharing.controller';
import { SharingService } from './sharing.service';
import { ClickhouseSharedFilterStore } from '../store/shared-filters/clickhouse-shared-filter.store';
import { RedisSharedFilterStore } from './storage/redis-shared-filter.store';
import { ScopeKeys } from '../store/shared-filters/scope-keys';
import { SHARED_FILTER_STORE, SharedFilterStore } from '../store/shared-filters/shared-filter.store';

/** Shared filters: Redis-backed when REDIS_URL is set (every instance sees them), else ClickHouse. */
@Module({
  controllers: [SharingController],
  providers: [
    SharingService,
    { provide: ScopeKeys, inject: [ClickhouseService], useFactory: (clickhouse: ClickhouseService) => new ScopeKeys(clickhouse) },
    {
      provide: SHARED_FILTER_STORE,
      inject: [REDIS, ClickhouseService],
      useFactory: (redis: Redis | null, clickhouse: ClickhouseService): SharedFilterStore =>
        redis ? new RedisSharedFilterStore(redis) : new ClickhouseSharedFilterStore(clickhouse),
    },
  ],
  // The MCP endpoint (src/mcp) calls the same service.
  exports: [SharingService],
})
export class SharingModule {}
