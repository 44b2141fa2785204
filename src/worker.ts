import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from './config/app-config';
import { withConfig } from './config/config.module';
import { migrate } from './store/schema/migrator';
import { ClickhouseService } from './store/clickhouse/clickhouse.service';
import { BackupModule } from './backup/backup.module';
import { WorkerModule } from './sources/worker.module';
import { BudgetsModule } from './budgets/budgets.module';
import { DataVersionModule } from './store/data-version/data-version.module';
import { AuditTrailModule } from './infrastructure/audit-trail/audit-trail.module';
import { CurrencyModule } from './currency/currency.module';
import { CostCategoriesModule } from './cost-categories/cost-categories.module';
import { TagKeysModule } from './tag-keys/tag-keys.module';

/**
 * The worker process: the data sources' checks, the scheduled backups (BACKUP_INTERVAL_MINUTES), and the budgets'
 * evaluation and webhooks (with what budgets read through: data versions, currencies, rule-defined categories).
 */
@Module({
  imports: [
    WorkerModule,
    BackupModule,
    DataVersionModule,
    AuditTrailModule,
    CurrencyModule,
    CostCategoriesModule,
    TagKeysModule,
    BudgetsModule,
  ],
})
class WorkerProcessModule {}

/**
 * `npm run worker`: the data-source worker without the API (docker-compose's `worker`). Against a ClickHouse server
 * (CLICKHOUSE_URL) beside API instances started with INGEST_WORKER=false; with the embedded engine the worker runs
 * inside the API instead (one process opens its data directory). SIGTERM/SIGINT: the check in progress ends first.
 */
async function main(): Promise<void> {
  const config = { ...loadConfig(process.env) };
  config.ingestSources = { ...config.ingestSources, worker: true };
  const app = await NestFactory.createApplicationContext(withConfig(WorkerProcessModule, config), { abortOnError: false });
  if (config.migrateOnStart) await migrate(app.get(ClickhouseService));
  await app.init();
  const logger = new Logger('Worker');
  logger.log(`data-source worker: every ${config.ingestSources.pollSeconds} s, one instance at a time (Redis lease)`);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void app.close().then(() => process.exit(0)));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? `Configuration error: ${error.message}` : String(error)}\n`);
  process.exit(1);
});
