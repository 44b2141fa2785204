import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { createApp } from './app.factory';
import { APP_CONFIG, AppConfig, ConfigError, loadConfig } from './config/app-config';
import { applyHeapGrowing } from './config/heap-tuning';
import { shutdownState } from './health/shutdown-state';
import { isEmbeddedLockError } from './store/clickhouse/clickhouse.client-factory';
import { keepRecoveringImports, prepareStore } from './startup';
import { serveCliRelay } from './cli/cli-relay';
import { runRelayedCommand } from './cli/cli-runner';
import { sleep } from './common/async/sleep';

async function main(): Promise<void> {
  // Fail on a bad environment before anything starts.
  applyHeapGrowing(loadConfig(process.env).heapGrowingPercent);
  const app = await createApp();
  const config = app.get<AppConfig>(APP_CONFIG);
  await prepareStore(app);
  const server = app.getHttpServer() as Server;
  // The load balancer closes idle upstream connections first (nginx: 60 s); were Node first, the LB could
  // send a request on a connection Node is closing. headersTimeout must exceed keepAliveTimeout.
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.headersTimeout = config.headersTimeoutMs;
  await app.listen(config.port);
  const stopRecovering = keepRecoveringImports(app);
  const stopRelay = await serveCliRelay(app, runRelayedCommand);
  drainOnSignals(app, server, config, () => {
    stopRecovering();
    stopRelay?.();
  });
  const store = config.clickhouse.url ? `ClickHouse at ${new URL(config.clickhouse.url).host}` : `embedded chDB in ${config.dataDir}`;
  new Logger('Main').log(`Cost Insights API on http://localhost:${config.port}/v1 (docs: /docs), ${store}`);
}

/**
 * Graceful stop on SIGTERM/SIGINT: (1) readiness turns 503 and responses say `Connection: close`, while
 * requests are still served, for SHUTDOWN_READINESS_DELAY_MS (the LB/orchestrator stops routing here);
 * (2) the listener closes and idle connections drop; (3) in-flight requests finish (at most
 * SHUTDOWN_TIMEOUT_MS); (4) the application closes (ClickHouse and Redis clients); (5) exit 0.
 */
function drainOnSignals(app: NestExpressApplication, server: Server, config: AppConfig, onDraining: () => void): void {
  const logger = new Logger('Shutdown');
  const stop = async (signal: NodeJS.Signals) => {
    if (shutdownState.draining) return;
    shutdownState.markDraining();
    onDraining();
    logger.log(`${signal}: readiness is now 503; closing the listener in ${config.shutdownReadinessDelayMs} ms`);
    await sleep(config.shutdownReadinessDelayMs);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Connections whose in-flight request finishes become idle: close them as they do.
    const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
    const forced = setTimeout(() => {
      logger.warn(`In-flight requests still running after ${config.shutdownTimeoutMs} ms: closing their connections`);
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    forced.unref();
    await closed;
    clearInterval(idleSweep);
    clearTimeout(forced);
    logger.log('All connections closed; stopping');
    await app.close();
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stop(signal).catch((error: unknown) => {
        process.stderr.write(`Shutdown failed: ${error instanceof Error ? error.stack : String(error)}\n`);
        process.exit(1);
      });
    });
  }
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
