import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiKeysService } from '../auth/api-keys.service';
import { APP_CONFIG, AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { withConfig } from '../config/config.module';
import { Environment } from '../config/settings';
import { isEmbeddedLockError } from '../store/clickhouse/clickhouse.client-factory';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { migrate } from '../store/schema/migrator';
import { CliCommand } from './cli-args';
import { readCommandLine, StoreCommand } from './command-line';
import { CliModule } from './cli.module';
import { CliOutput, EXIT, ttyProgressLine } from './cli-output';
import { demoDataCommand } from './demo-data.command';
import { createKeyCommand, listKeysCommand, revokeKeyCommand } from './keys.command';
import { migrateCommand } from './migrate.command';
import { runIngestFocusCommand } from './ingest-focus.command';
import { runIngestRecoverCommand } from './ingest-recover.command';
import { currencyCommand } from './currency.command';
import { tagKeysCommand } from './tag-keys.command';
import { TagKeyActivationService } from '../tag-keys/tag-key-activation.service';
import { TagKeysRepository } from '../store/repositories/tag-keys.repository';
import { sourcesCommand } from './sources.command';
import { ExchangeRatesService } from '../currency/exchange-rates.service';
import { BackupService } from '../backup/backup.service';
import { backupCommand } from './backup.command';
import { costCategoriesCommand } from './cost-categories.command';
import { CostCategoriesService } from '../cost-categories/cost-categories.service';
import { budgetsCommand } from './budgets.command';
import { BudgetsService } from '../budgets/budgets.service';
import { metricsCommand } from './metrics.command';
import { BusinessMetricsService } from '../unit-costs/business-metrics.service';

/** An import uploads whole exports: the API's per-query budget (and the client timeout derived from it) is too short. */
const INGEST_MAX_EXECUTION_SECONDS = 3600;

/**
 * Runs one CLI command with the settings of `environment` (the process's) and returns its exit code. The
 * command line is validated before the store is opened, so a usage error never touches (or waits for) ClickHouse.
 */
export async function runCli(argv: string[], io: CliOutput, environment: Environment): Promise<number> {
  const command = readCommandLine(argv, io);
  return typeof command === 'number' ? command : runCommand(command, io, environment);
}

/** Runs a command that needs the store (every one but `help`). */
export async function runCommand(command: StoreCommand, io: CliOutput, environment: Environment): Promise<number> {
  let config: AppConfig;
  try {
    config = loadConfig(commandEnvironment(command, environment));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(`Configuration error: ${error.message}`);
    return EXIT.failure;
  }

  let app: INestApplicationContext | undefined;
  try {
    app = await NestFactory.createApplicationContext(withConfig(CliModule, config), { logger: false, abortOnError: false });
    return await execute(app, command, io);
  } catch (error) {
    io.err(describeFailure(error, config));
    return EXIT.failure;
  } finally {
    await app?.close().catch(() => undefined);
  }
}

/** `environment` with the command's own defaults for settings it leaves unset. */
function commandEnvironment(command: CliCommand, environment: Environment): Environment {
  if (!['ingest', 'backup restore'].includes(command.name) || environment.CLICKHOUSE_MAX_EXECUTION_SECONDS) return environment;
  return { ...environment, CLICKHOUSE_MAX_EXECUTION_SECONDS: String(INGEST_MAX_EXECUTION_SECONDS) };
}

/**
 * Runs a command relayed from the CLI in the API's process (cli-relay.ts), on the API's application context: a
 * failure is reported to the CLI as the CLI's own run would report it.
 */
export async function runRelayedCommand(
  app: INestApplicationContext,
  command: StoreCommand,
  io: CliOutput & { progress?: (line: string) => void },
): Promise<number> {
  try {
    return await execute(app, command, io, io.progress);
  } catch (error) {
    io.err(describeFailure(error, app.get<AppConfig>(APP_CONFIG)));
    return EXIT.failure;
  }
}

async function execute(
  app: INestApplicationContext,
  command: StoreCommand,
  io: CliOutput,
  progress = ttyProgressLine(process.stderr),
): Promise<number> {
  const clickhouse = app.get(ClickhouseService);
  if (command.name === 'migrate') return migrateCommand(clickhouse, io);
  // A restore replaces the whole store, migrating what it restored: nothing to migrate before it.
  if (command.name === 'backup restore') return backupCommand(app.get(BackupService), command, io);
  // Every other command needs the schema: migrations are idempotent, so apply any pending ones.
  await migrate(clickhouse);
  const apiKeys = app.get(ApiKeysService);
  switch (command.name) {
    case 'keys create':
      return createKeyCommand(apiKeys, command, io);
    case 'keys list':
      return listKeysCommand(apiKeys, command, io);
    case 'keys revoke':
      return revokeKeyCommand(apiKeys, command, io);
    case 'demo-data':
      return demoDataCommand(clickhouse, command, io);
    case 'ingest':
      return runIngestFocusCommand(command, clickhouse, { ...io, progress }, app.get(TagKeyActivationService));
    case 'ingest recover':
      return runIngestRecoverCommand(clickhouse, command, io);
    case 'rates import':
    case 'rates list':
    case 'currency show':
    case 'currency set':
      return currencyCommand(app.get(ExchangeRatesService), command, io);
    case 'sources add':
    case 'sources list':
    case 'sources remove':
    case 'sources run':
      return sourcesCommand(app, command, io);
    case 'backup create':
    case 'backup list':
      return backupCommand(app.get(BackupService), command, io);
    case 'tag-keys show':
    case 'tag-keys set':
      return tagKeysCommand(app.get(TagKeysRepository), app.get(TagKeyActivationService), command, io);
    case 'cost-categories list':
    case 'cost-categories show':
    case 'cost-categories set':
    case 'cost-categories preview':
    case 'cost-categories delete':
      return costCategoriesCommand(app.get(CostCategoriesService), command, io);
    case 'budgets list':
    case 'budgets show':
    case 'budgets set':
    case 'budgets remove':
      return budgetsCommand(app.get(BudgetsService), command, io);
    case 'metrics list':
    case 'metrics define':
    case 'metrics import':
      return metricsCommand(app.get(BusinessMetricsService), command, io);
  }
}

function describeFailure(error: unknown, config: AppConfig): string {
  if (!config.clickhouse.url && isEmbeddedLockError(error)) {
    return (
      `Error: the embedded ClickHouse data directory ${config.dataDir} is in use by another process ` +
      '(one that relays no CLI commands: not an API serving it). Nothing was changed. Stop the server and run the command again, ' +
      'or point the CLI at a ClickHouse server with CLICKHOUSE_URL.'
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  const store = config.clickhouse.url ? `ClickHouse at ${new URL(config.clickhouse.url).host}` : `embedded ClickHouse in ${config.dataDir}`;
  return `Error: ${message} (store: ${store})`;
}
