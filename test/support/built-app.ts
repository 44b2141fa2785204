import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { freePort, stopProcess } from './local-servers';
import { BUILT } from './built-dist';

/**
 * The compiled API (`dist/main.js`, built once per run: test/support/built-dist.ts) run as a child process, for
 * the suites whose store one process at a time can open (embedded) or that test the built artefact itself.
 */
const ROOT = resolve(__dirname, '../..');

type Env = Record<string, string>;
type Agent = ReturnType<typeof request>;

/** The settings that name a store, Redis or a port: a child gets its own, never the test's. */
export const STORE_SETTINGS: readonly string[] = [
  'CLICKHOUSE_URL',
  'CLICKHOUSE_CLUSTER',
  'CLICKHOUSE_CLUSTER_NODE_URLS',
  'REDIS_URL',
  'DATA_DIR',
  'PORT',
];

/** The environment of a child process: the test's, minus the settings `unset`, plus `settings`. */
export function childEnv(settings: Env, unset: readonly string[] = STORE_SETTINGS): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of unset) delete env[name];
  return { ...env, ...settings };
}

/**
 * One read of a store by the built code: a query (`{{table:<name>}}` in its SQL is the store's name of that table, and
 * the parameter `database` is the store's database unless given), or a call of a function of a `dist/` module on the
 * connection (e.g. `store/publish-fence` `runningBackups`).
 */
export type StoreRead = { sql: string; params?: Record<string, unknown> } | { module: string; call: string; args?: unknown[] };

/**
 * What the reads find, each in order, read in a child process by the built ClickhouseService on the store `env` names:
 * how a test reads an embedded store once the CLI or API has let it go (one process opens a chDB directory at a time),
 * and a server's store as the built code reads it.
 */
export function readStoreInChild(env: NodeJS.ProcessEnv, reads: readonly StoreRead[]): unknown[] {
  const script = `
    require('reflect-metadata');
    const { loadConfig } = require(${JSON.stringify(join(BUILT.dist, 'config/app-config'))});
    const { ClickhouseService } = require(${JSON.stringify(join(BUILT.dist, 'store/clickhouse/clickhouse.service'))});
    (async () => {
      const clickhouse = new ClickhouseService(loadConfig(process.env));
      const results = [];
      for (const read of JSON.parse(process.argv[1])) {
        if (read.call) {
          const fn = require(require('node:path').join(${JSON.stringify(BUILT.dist)}, read.module))[read.call];
          results.push(await fn(clickhouse, ...(read.args ?? [])));
        } else {
          const sql = read.sql.replace(/\\{\\{table:(\\w+)\\}\\}/g, (_, name) => clickhouse.table(name));
          results.push(await clickhouse.query(sql, { database: clickhouse.database, ...read.params }));
        }
      }
      process.stdout.write(JSON.stringify(results));
      await clickhouse.onModuleDestroy();
    })().catch((error) => { process.stderr.write(String(error.stack)); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script, JSON.stringify(reads)], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`reading the store in a child process failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as unknown[];
}

/** Waits until `url` answers 2xx; fails at once if `child` exits, or after `timeoutMs`, with the child's `output`. */
export async function waitForHttp(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited during start-up: ${output()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not answer on ${url}: ${output()}`);
}

export interface BuiltApi {
  child: ChildProcess;
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** What it wrote so far: stderr, and stdout too when asked for. */
  output(): string;
}

/**
 * Starts the built API `server` on a free port (PORT added to `env`, a complete environment: see childEnv), without
 * waiting for it. Its stderr is collected, and its stdout with `stdout: true` (otherwise ignored). No load balancer
 * routes to it, so it stops without the readiness delay (5 s by default, on every stop) unless `env` sets one.
 */
export async function spawnBuiltApi(server: string, env: NodeJS.ProcessEnv, options: { stdout?: boolean } = {}): Promise<BuiltApi> {
  const port = await freePort();
  const child = spawn(process.execPath, [server], {
    cwd: ROOT,
    env: { SHUTDOWN_READINESS_DELAY_MS: '0', ...env, PORT: String(port) },
    stdio: ['ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, port, url: `http://127.0.0.1:${port}`, output: () => output };
}

/**
 * Runs the built API `server` with `env` until `ready` (a path, e.g. `/health/ready`) answers 2xx within `timeoutMs`,
 * then `work` with an agent on it; stops it afterwards.
 */
export async function withBuiltApi<T>(
  server: string,
  env: NodeJS.ProcessEnv,
  options: { ready: string; timeoutMs?: number },
  work: (http: () => Agent) => Promise<T>,
): Promise<T> {
  const api = await spawnBuiltApi(server, env);
  try {
    await waitForHttp(`${api.url}${options.ready}`, api.child, api.output, options.timeoutMs);
    const agent = request(api.url);
    return await work(() => agent);
  } finally {
    await stopProcess(api.child);
  }
}
