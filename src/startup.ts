import { INestApplicationContext, Logger } from '@nestjs/common';
import { ApiKeysService } from './auth/api-keys.service';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { loadDemoData } from './demo/demo-data.loader';
import { ClickhouseService } from './store/clickhouse/clickhouse.service';
import { migrate } from './store/schema/migrator';
import { restoreInProgress } from './store/schema/store-restore';
import { isStoreEmpty } from './store/cost-partitions';
import { PublishProtocol } from './store/publish/publish-protocol';
import { SCOPES } from './common/http/principal';
import { DEMO_ORGANIZATION_ID } from './common/examples/examples';
import { messageOf } from './common/errors/message-of';
import { TagKeyActivationService } from './tag-keys/tag-key-activation.service';
import { sleep } from './common/async/sleep';

const logger = new Logger('Startup');

/** Start-up work before the server listens: migrations, and the demo estate on an empty store. */
export async function prepareStore(app: INestApplicationContext): Promise<void> {
  const config = app.get<AppConfig>(APP_CONFIG);
  const clickhouse = app.get(ClickhouseService);
  // Start-up can wait (a store being restored): what it says must be seen now, not once the server listens.
  app.flushLogs();
  await awaitRestore(clickhouse);
  if (config.migrateOnStart) {
    const applied = await migrate(clickhouse);
    if (applied.length) logger.log(`Applied migrations: ${applied.map((m) => m.name).join(', ')}`);
  }
  // An import killed between partition swaps is rolled back before anything is served (a failed
  // rollback is logged and left to the next import or `ingest recover`, not a reason not to start).
  await recoverImports(clickhouse);
  if (config.demoOnEmptyStore && (await isStoreEmpty(clickhouse))) {
    const result = await loadDemoData(clickhouse, { organizationId: DEMO_ORGANIZATION_ID });
    const { key } = await app.get(ApiKeysService).create(DEMO_ORGANIZATION_ID, 'Demo key', [...SCOPES]);
    logger.log(`Loaded ${result.rows} demo cost rows (${result.from} to ${result.to}) for organisation ${DEMO_ORGANIZATION_ID}`);
    // Printed once, to the terminal only: the key is stored as a hash and can never be shown again.
    process.stdout.write(
      `\n  Demo API key (shown only this once, keep it):\n\n    ${key}\n\n` +
        `  Try it: Swagger UI at http://localhost:${config.port}/docs → Authorize, or\n` +
        `  curl -s -X POST http://localhost:${config.port}/v1/cost-insights/data -H "Authorization: Bearer <key>" ` +
        `-H 'Content-Type: application/json' -d '{"groupBy":{"dateGrouping":"monthly","dimension":"cloud"}}'\n\n`,
    );
    activateDemoTagKeys(app.get(TagKeyActivationService));
  }
}

/** The demo organisation gets the default tag keys like any first import (TAG_KEYS_DEFAULT), back-filled while it serves. */
function activateDemoTagKeys(tagKeys: TagKeyActivationService): void {
  void (async () => {
    const keys = await tagKeys.activateSuggestedKeys(DEMO_ORGANIZATION_ID);
    if (keys.length > 0) logger.log(`Activated the demo's suggested tag keys ${keys.join(', ')}`);
  })().catch((error: unknown) => logger.warn(`Activating the demo's suggested tag keys failed: ${messageOf(error)}`));
}

/**
 * A store being restored from a backup (or whose restore was interrupted) is not served: a server's API waits for
 * the restore to end; embedded, no restore can be running in another process (one process per directory), so the
 * API refuses to start until `backup restore` is run again.
 */
async function awaitRestore(clickhouse: ClickhouseService): Promise<void> {
  let lastTold = 0;
  for (;;) {
    const restoring = await restoreInProgress(clickhouse);
    if (!restoring) return;
    const what =
      `the store is being restored from backup ${restoring.backup} (since ${restoring.since} UTC), or that restore was ` +
      `interrupted; if no restore is running, run \`backup restore ${restoring.backup} --force\` again`;
    if (clickhouse.embedded) throw new Error(`Not started: ${what}.`);
    if (Date.now() - lastTold >= 30_000) {
      logger.warn(`Waiting before serving: ${what}.`);
      lastTold = Date.now();
    }
    await sleep(2000);
  }
}

async function recoverImports(clickhouse: ClickhouseService): Promise<void> {
  await new PublishProtocol(clickhouse)
    .recover((message) => logger.warn(message))
    .catch((error: unknown) => logger.error(`Import recovery failed: ${error instanceof Error ? error.message : String(error)}`));
}

/**
 * Server mode: an import process can die mid-publish at any time (another machine, the CLI), so every
 * IMPORT_RECOVERY_INTERVAL_SECONDS an instance rolls back imports whose lease has expired (a query of
 * the journal when there is none; concurrent rollbacks by several instances are safe). Not a request
 * path. Embedded: no other process can write while this one holds the data directory, so start-up
 * recovery is enough. Returns the stop function.
 */
export function keepRecoveringImports(app: INestApplicationContext): () => void {
  const config = app.get<AppConfig>(APP_CONFIG);
  const clickhouse = app.get(ClickhouseService);
  if (clickhouse.embedded || config.importRecoveryIntervalSeconds === 0) return () => undefined;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void recoverImports(clickhouse).finally(() => (running = false)); // it logs its own failures
  }, config.importRecoveryIntervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
