import { Global, Module } from '@nestjs/common';
import { AnswerCurrencyService } from './answer-currency.service';
import { ConvertedSumsRepository } from '../store/repositories/converted-sums.repository';
import { ConvertedSumsService } from './converted-sums.service';
import { CurrencyAdminController } from './currency-admin.controller';
import { CurrencyRepository } from '../store/repositories/currency.repository';
import { ExchangeRatesService } from './exchange-rates.service';

/**
 * Money in one currency: the organisation's reporting currency and conversion policy, its exchange rates (loaded
 * by `rates import` and POST /v1/admin/exchange-rates), the conversion every money answer is computed with, and the
 * converted sums /data reads once built.
 */
@Global()
@Module({
  controllers: [CurrencyAdminController],
  providers: [CurrencyRepository, AnswerCurrencyService, ExchangeRatesService, ConvertedSumsRepository, ConvertedSumsService],
  exports: [CurrencyRepository, AnswerCurrencyService, ExchangeRatesService, ConvertedSumsService],
})
export class CurrencyModule {}
