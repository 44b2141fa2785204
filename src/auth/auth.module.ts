import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ThrottlerModule, ThrottlerStorageService } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AuthenticatedRequest } from '../common/http/request-context';
import { REDIS } from '../infrastructure/redis/redis.module';
import { ApiKeyAuthGuard } from './api-key-auth.guard';
import { ApiKeysAdminController } from './api-keys-admin.controller';
import { ApiKeysService } from './api-keys.service';
import { ApiKeysRepository } from '../store/repositories/api-keys.repository';
import { RateLimitGuard } from './rate-limit.guard';
import { ResilientThrottlerStorage } from './resilient-throttler-storage';
import { ScopesGuard } from './scopes.guard';
import { StatementOwnerInterceptor } from './statement-owner.interceptor';
import { ThrottledClients } from './throttled-clients';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { ClickhouseSignInRecords, RedisSignInRecords, SIGN_IN_RECORDS, SignInRecords } from '../store/repositories/sign-in-records';
import { SignInController } from './sign-in.controller';
import { SsoService } from './sso.service';

/**
 * Authentication (API keys; on the admin API, a Settings page's signed-in session) and rate limiting for every route. Guard order matters: resolve the key, count
 * the request (per key, or per IP without a valid key), then answer 401/403.
 */
@Module({
  controllers: [ApiKeysAdminController, SignInController],
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, REDIS],
      useFactory: (config: AppConfig, redis: Redis | null) => ({
        throttlers: [
          {
            name: 'default',
            ttl: 60_000,
            limit: (context) =>
              context.switchToHttp().getRequest<AuthenticatedRequest>().principal
                ? config.rateLimitPerMinute
                : config.unauthenticatedRateLimitPerMinute,
          },
        ],
        storage: redis ? new ResilientThrottlerStorage(new ThrottlerStorageRedisService(redis)) : new ThrottlerStorageService(),
      }),
    }),
  ],
  providers: [
    ApiKeysService,
    ApiKeysRepository,
    ThrottledClients,
    SsoService,
    {
      provide: SIGN_IN_RECORDS,
      inject: [REDIS, ClickhouseService],
      useFactory: (redis: Redis | null, clickhouse: ClickhouseService): SignInRecords =>
        redis ? new RedisSignInRecords(redis) : new ClickhouseSignInRecords(clickhouse),
    },
    { provide: APP_GUARD, useClass: ApiKeyAuthGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_GUARD, useClass: ScopesGuard },
    { provide: APP_INTERCEPTOR, useClass: StatementOwnerInterceptor },
  ],
  exports: [ApiKeysService],
})
export class AuthModule {}
