import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { ApiExceptionFilter } from './common/http/api-exception.filter';
import { ApiValidationPipe } from './common/validation/api-validation.pipe';
import { ComparisonModule } from './comparison/comparison.module';
import { ConfigModule } from './config/config.module';
import { CostsModule } from './costs/costs.module';
import { FiltersModule } from './filters/filters.module';
import { HealthModule } from './health/health.module';
import { ClickhouseModule } from './infrastructure/clickhouse/clickhouse.module';
import { RedisModule } from './infrastructure/redis/redis.module';
import { ResultCacheModule } from './infrastructure/result-cache/result-cache.module';
import { ObservabilityModule } from './observability/observability.module';
import { SharingModule } from './sharing/sharing.module';

@Module({
  imports: [
    ConfigModule,
    ObservabilityModule,
    ClickhouseModule,
    RedisModule,
    ResultCacheModule,
    AuthModule,
    HealthModule,
    CostsModule,
    ComparisonModule,
    FiltersModule,
    SharingModule,
  ],
  providers: [
    { provide: APP_PIPE, useClass: ApiValidationPipe },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
  ],
})
export class AppModule {}
