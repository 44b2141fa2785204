import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AnswerDelivery } from './answer-delivery';
import { AnswerInterceptor } from './answer.interceptor';

/** How every answer is serialized and delivered (AnswerInterceptor, global). */
@Global()
@Module({
  providers: [
    { provide: AnswerDelivery, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new AnswerDelivery(config.answerDelivery) },
    { provide: APP_INTERCEPTOR, useClass: AnswerInterceptor },
  ],
  exports: [AnswerDelivery],
})
export class AnswerModule {}
