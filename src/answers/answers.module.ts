import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AnswerDelivery } from './answer-delivery';
import { AnswerInterceptor } from './answer.interceptor';
import { DataAnswerInterceptor } from './data-answer.interceptor';
import { DataFreshnessService } from './data-freshness.service';
import { ResultCache } from './result-cache';

/**
 * An answer, from the handler's result to the bytes on the wire: its serialization (JSON, CSV) and delivery with
 * backpressure (AnswerInterceptor, global), and for the routes answered from cost data (@DataAnswer()) the answer
 * cache, the freshness headers within the key's data scope and the currency header.
 */
@Global()
@Module({
  providers: [
    { provide: AnswerDelivery, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new AnswerDelivery(config.answerDelivery) },
    { provide: APP_INTERCEPTOR, useClass: AnswerInterceptor },
    {
      provide: ResultCache,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new ResultCache(config.resultCache.maxBytes, config.resultCache.ttlSeconds * 1000),
    },
    DataFreshnessService,
    DataAnswerInterceptor,
  ],
  exports: [AnswerDelivery, ResultCache, DataFreshnessService, DataAnswerInterceptor],
})
export class AnswersModule {}
