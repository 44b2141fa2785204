import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { APP_CONFIG, AppConfig, ConfigError, loadConfig } from './config/app-config';
import { isEmbeddedLockError } from './infrastructure/clickhouse/clickhouse.client-factory';
import { prepareStore } from './startup';

async function main(): Promise<void> {
  loadConfig(); // fail on bad environment before anything starts
  const app = await createApp();
  const config = app.get<AppConfig>(APP_CONFIG);
  await prepareStore(app);
  await app.listen(config.port);
  const store = config.clickhouse.url ? `ClickHouse at ${new URL(config.clickhouse.url).host}` : `embedded chDB in ${config.dataDir}`;
  new Logger('Main').log(`Cost Insights API on http://localhost:${config.port}/v1 (docs: /docs), ${store}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
  } else if (isEmbeddedLockError(error)) {
    process.stderr.write(
      'The embedded ClickHouse data directory is in use by another process (is the server already running?). ' +
        'Stop it, or set DATA_DIR to another directory.\n',
    );
  } else {
    process.stderr.write(`Failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
