import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CostDataVersion } from './cost-data-version.service';
import { ResultCache } from './result-cache';

/** The per-instance answer cache and the per-organisation data version its keys (and freshness) depend on. */
@Global()
@Module({
  providers: [
    {
      provide: ResultCache,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new ResultCache(config.resultCache.maxBytes, config.resultCache.ttlSeconds * 1000),
    },
    CostDataVersion,
  ],
  exports: [ResultCache, CostDataVersion],
})
export class ResultCacheModule {}
