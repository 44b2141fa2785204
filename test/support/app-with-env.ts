import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AddressInfo } from 'node:net';
import type { SettingOverrides } from '../../src/config/settings';
import { LocalServer, startClickhouseServer } from './local-servers';
import { TestApp } from './test-app';

/** A TestApp whose settings `env` replaces (undefined unsets one); process.env is left alone. */
export async function startAppWithEnv(env: SettingOverrides, options: { logs?: boolean } = {}): Promise<TestApp> {
  return TestApp.start({ ...options, settings: env });
}

/** Makes the app listen on a free loopback port (for fetch/autocannon), once; returns its base URL. */
export async function listen(t: TestApp): Promise<string> {
  if (!t.app.getHttpServer().listening) await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/**
 * A ClickHouse server (libchdb) of this test's own, with system.query_log enabled: clickhouse-local
 * has no query_log unless its configuration declares one (neither the embedded engine nor the suite's
 * shared server have it).
 */
export async function startClickhouseWithQueryLog(dir: string): Promise<LocalServer> {
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'query-log.xml');
  writeFileSync(
    config,
    `<clickhouse><query_log><database>system</database><table>query_log</table>` +
      `<flush_interval_milliseconds>1000</flush_interval_milliseconds></query_log></clickhouse>\n`,
  );
  return startClickhouseServer(join(dir, 'data'), [`--config-file=${config}`]);
}

export interface HttpAnswer {
  status: number;
  text: string;
  headers: Headers;
  ms: number;
}

/** One request with a hard timeout: a hang is reported as status 0 (never waits forever). */
/**
 * No answer within `timeoutMs` is status 0: a hang detector, not a speed check. 45 s by default, far above what any
 * answer takes even while the other suites load the cores (the fuzz's /filters took up to 15 s), below jest's 60 s.
 */
export async function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
  timeoutMs = 45_000,
): Promise<HttpAnswer> {
  const started = Date.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) } as RequestInit);
    const text = await response.text();
    return { status: response.status, text, headers: response.headers, ms: Date.now() - started };
  } catch {
    return { status: 0, text: '', headers: new Headers(), ms: Date.now() - started };
  }
}

/** Runs `tasks` with at most `concurrency` in flight. */
export async function pool<T, R>(items: T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index], index);
      }
    }),
  );
  return results;
}
