import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CachedResultInterceptor } from './cached-result.interceptor';
import { CostDataVersion } from './cost-data-version.service';
import { ResultCache } from './result-cache';

/** The per-instance answer cache of the read routes (@CachedResult()). */
@Global()
@Module({
  providers: [
    {
      provide: ResultCache,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new ResultCache(config.resultCache.maxBytes, config.resultCache.ttlSeconds * 1000),
    },
    CostDataVersion,
    CachedResultInterceptor,
  ],
  exports: [ResultCache, CostDataVersion, CachedResultInterceptor],
})
export class ResultCacheModule {}
