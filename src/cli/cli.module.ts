import { TagKeyActivationService } from '../tag-keys/tag-key-activation.service';
import { TagKeysRepository } from '../store/repositories/tag-keys.repository';
import { Module } from '@nestjs/common';
import { BudgetSumsService } from '../budgets/budget-sums.service';
import { BudgetsRepository } from '../store/repositories/budgets.repository';
import { BudgetsService } from '../budgets/budgets.service';
import { CostCategoriesRepository } from '../store/repositories/cost-categories.repository';
import { CostCategoriesService } from '../cost-categories/cost-categories.service';
import { RuleCategoriesService } from '../cost-categories/rule-categories.service';
import { SplitsService } from '../cost-categories/splits.service';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import { DataVersionModule } from '../store/data-version/data-version.module';
import { ApiKeysService } from '../auth/api-keys.service';
import { ApiKeysRepository } from '../store/repositories/api-keys.repository';
import { BackupService } from '../backup/backup.service';
import { ClickhouseModule } from '../store/clickhouse/clickhouse.module';
import { CurrencyRepository } from '../store/repositories/currency.repository';
import { ExchangeRatesService } from '../currency/exchange-rates.service';
import { RedisModule } from '../infrastructure/redis/redis.module';
import { MetricFilesImport } from '../sources/metric-files-import';
import { SourceCheckService } from '../sources/source-check.service';
import { SourcesRepository } from '../store/repositories/sources.repository';
import { SourcesService } from '../sources/sources.service';
import { BusinessMetricsRepository } from '../store/repositories/business-metrics.repository';
import { BusinessMetricsService } from '../unit-costs/business-metrics.service';

/**
 * What the operator CLI needs and nothing more: configuration, the ClickHouse store, API keys, exchange rates, cost
 * categories defined by rules, budgets, business metrics and data sources (Redis, when configured, only for a source's
 * lock while `sources run` checks it). No HTTP or feature modules. The configuration comes from runCli, which roots
 * this module with it (config.module.ts).
 */
@Module({
  imports: [ClickhouseModule, RedisModule, DataVersionModule],
  providers: [
    BackupService,
    ApiKeysService,
    ApiKeysRepository,
    CurrencyRepository,
    ExchangeRatesService,
    SourcesRepository,
    SourceCheckService,
    MetricFilesImport,
    SourcesService,
    TagKeysRepository,
    TagKeyActivationService,
    CostCategoriesRepository,
    CostCategoriesService,
    RuleCategoriesService,
    SplitsService,
    AnswerCurrencyService,
    BudgetsRepository,
    BudgetSumsService,
    BudgetsService,
    BusinessMetricsRepository,
    BusinessMetricsService,
  ],
})
export class CliModule {}
