import { Global, Module } from '@nestjs/common';
import { AnswerCurrencyService } from './answer-currency.service';
import { CurrencyAdminController } from './currency-admin.controller';
import { CurrencyRepository } from './currency.repository';
import { ExchangeRatesService } from './exchange-rates.service';

/**
 * Money in one currency: the organisation's reporting currency and conversion policy, its exchange rates (loaded
 * by `rates import` and POST /v1/admin/exchange-rates) and the conversion every money answer is computed with.
 */
@Global()
@Module({
  controllers: [CurrencyAdminController],
  providers: [CurrencyRepository, AnswerCurrencyService, ExchangeRatesService],
  exports: [CurrencyRepository, AnswerCurrencyService, ExchangeRatesService],
})
export class CurrencyModule {}
