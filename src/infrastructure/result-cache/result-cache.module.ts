import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DataAnswerInterceptor } from './data-answer.interceptor';
import { DataFreshnessService } from './data-freshness.service';
import { CostDataVersion } from './cost-data-version.service';
import { ResultCache } from './result-cache';

/** The read routes' answers from cost data (@DataAnswer()): their freshness and the per-instance answer cache. */
@Global()
@Module({
  providers: [
    {
      provide: ResultCache,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new ResultCache(config.resultCache.maxBytes, config.resultCache.ttlSeconds * 1000),
    },
    CostDataVersion,
    DataFreshnessService,
    DataAnswerInterceptor,
  ],
  exports: [ResultCache, CostDataVersion, DataFreshnessService, DataAnswerInterceptor],
})
export class ResultCacheModule {}
