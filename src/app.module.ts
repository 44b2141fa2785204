import { Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { AnswersModule } from './answers/answers.module';
import { AuditModule } from './audit/audit.module';
import { ApiExceptionFilter } from './common/http/api-exception.filter';
import { BodyValidationInterceptor } from './common/validation/body-validation.interceptor';
import { ComparisonModule } from './comparison/comparison.module';
import { CostsModule } from './costs/costs.module';
import { FilterOptionsModule } from './filter-options/filter-options.module';
import { ForecastsModule } from './forecasts/forecasts.module';
import { AnomaliesModule } from './anomalies/anomalies.module';
import { InvoicesModule } from './invoices/invoices.module';
import { HealthModule } from './health/health.module';
import { McpModule } from './mcp/mcp.module';
import { ClickhouseModule } from './store/clickhouse/clickhouse.module';
import { RedisModule } from './infrastructure/redis/redis.module';
import { DataVersionModule } from './store/data-version/data-version.module';
import { AuditTrailModule } from './infrastructure/audit-trail/audit-trail.module';
import { CurrencyModule } from './currency/currency.module';
import { TagKeysModule } from './tag-keys/tag-keys.module';
import { CostCategoriesModule } from './cost-categories/cost-categories.module';
import { AllocationModule } from './allocation/allocation.module';
import { BudgetsModule } from './budgets/budgets.module';
import { UnitCostsModule } from './unit-costs/unit-costs.module';
import { CommitmentsModule } from './commitments/commitments.module';
import { ObservabilityModule } from './observability/observability.module';
import { SharingModule } from './sharing/sharing.module';
import { SourcesModule } from './sources/sources.module';
import { BackupModule } from './backup/backup.module';

/** Configuration (APP_CONFIG) is not imported here: createApp roots this module with it (config.module.ts). */
@Module({
  imports: [
    ObservabilityModule,
    ClickhouseModule,
    RedisModule,
    DataVersionModule,
    AuditTrailModule,
    CurrencyModule,
    CostCategoriesModule,
    TagKeysModule,
    AnswersModule,
    AuthModule,
    HealthModule,
    CostsModule,
    ComparisonModule,
    FilterOptionsModule,
    ForecastsModule,
    AnomaliesModule,
    AllocationModule,
    CommitmentsModule,
    BudgetsModule,
    UnitCostsModule,
    InvoicesModule,
    SharingModule,
    SourcesModule,
    BackupModule,
    AuditModule,
    McpModule,
  ],
  providers: [
    // Bodies are validated before route interceptors (the answer cache) run; see the interceptor.
    { provide: APP_INTERCEPTOR, useClass: BodyValidationInterceptor },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
  ],
})
export class AppModule {}
