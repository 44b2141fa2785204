import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import request from 'supertest';
import { freePort, stopProcess } from './local-servers';

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
