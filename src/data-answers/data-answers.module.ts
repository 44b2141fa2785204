import { Global, Module } from '@nestjs/common';
import { DataAnswerInterceptor } from './data-answer.interceptor';
import { DataFreshnessService } from './data-freshness.service';

/**
 * The read routes' answers from cost data (@DataAnswer()): their freshness (within the key's data scope,
 * hence above the query kernel) and the answer cache around them.
 */
@Global()
@Module({
  providers: [DataFreshnessService, DataAnswerInterceptor],
  exports: [DataFreshnessService, DataAnswerInterceptor],
})
export class DataAnswersModule {}
