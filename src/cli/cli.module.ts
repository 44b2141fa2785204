import { Module } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { ApiKeysRepository } from '../auth/api-keys.repository';
import { ClickhouseModule } from '../infrastructure/clickhouse/clickhouse.module';
import { CurrencyRepository } from '../currency/currency.repository';
import { ExchangeRatesService } from '../currency/exchange-rates.service';

/**
 * What the operator CLI needs and nothing more: configuration, the ClickHouse store, API keys
 * and exchange rates. No HTTP, Redis or feature modules, so a command opens the store and nothing else. The
 * configuration comes from runCli, which roots this module with it (config.module.ts).
 */
@Module({
  imports: [ClickhouseModule],
  providers: [ApiKeysService, ApiKeysRepository, CurrencyRepository, ExchangeRatesService],
})
export class CliModule {}
