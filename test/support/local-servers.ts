import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';

/** Real ClickHouse and Redis servers on free loopback ports, for tests and multi-instance runs. */
export interface LocalServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const ROOT = resolve(__dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export function libchdbPath(): string {
  return join(dirname(require.resolve('@chdb/lib-linux-x64-gnu/package.json')), 'libchdb.so');
}

/**
 * Starts the ClickHouse HTTP interface of libchdb (scripts/clickhouse-server.py) and waits for /ping.
 * `extraArgs` go to clickhouse-local as they are (e.g. `--config-file=…` enabling system.query_log).
 */
export async function startClickhouseServer(dataDir: string, extraArgs: string[] = [], fixedPort?: number): Promise<LocalServer> {
  mkdirSync(dataDir, { recursive: true });
  const port = fixedPort ?? (await freePort());
  const child = spawn('python3', [join(ROOT, 'scripts/clickhouse-server.py'), libchdbPath(), String(port), dataDir, ...extraArgs], {
    stdio: 'ignore',
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`ClickHouse on ${url}`, child, async () => {
    const response = await fetch(`${url}/ping`);
    return response.ok;
  });
  return { url, pid: child.pid!, stop: () => stopProcess(child) };
}

/** `fixedPort` restarts a server where its clients expect it (outage-and-recovery tests). */
export async function startRedisServer(dir: string, extraArgs: string[] = [], fixedPort?: number): Promise<LocalServer> {
  mkdirSync(dir, { recursive: true });
  const port = fixedPort ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extraArgs],
    { stdio: 'ignore', detached: true },
  );
  const url = `redis://127.0.0.1:${port}`;
  await waitFor(`Redis on ${url}`, child, () => redisPing(port));
  return { url, pid: child.pid!, stop: () => stopProcess(child) };
}

/**
 * An S3-compatible server speaking the real protocol over HTTP (s3rver, npm): ListObjectsV2, GET with ranges, ETags.
 * Any access key and secret are accepted (it checks the request's shape, not the signature's key).
 */
export async function startS3Server(dir: string): Promise<LocalServer> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child = spawn(
    process.execPath,
    // s3rver encrypts ListObjectsV2 continuation tokens with DES, which OpenSSL 3 keeps in its legacy provider: without
    // it every listing of more than one page fails ("internal error").
    [
      '--openssl-legacy-provider',
      require.resolve('s3rver/bin/s3rver.js'),
      '--directory',
      dir,
      '--port',
      String(port),
      '--address',
      '127.0.0.1',
      '--silent',
    ],
    {
      stdio: 'ignore',
      detached: true,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`s3rver on ${url}`, child, async () => (await fetch(url)).status < 500);
  return { url, pid: child.pid!, stop: () => stopProcess(child) };
}

/** Azure Blob Storage: Azurite, Microsoft's emulator (npm), with its well-known development account. */
export async function startAzurite(dir: string): Promise<LocalServer & { account: string; key: string }> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      require.resolve('azurite/dist/src/blob/main.js'),
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      String(port),
      '--location',
      dir,
      '--silent',
      '--skipApiVersionCheck',
      '--loose',
    ],
    { stdio: 'ignore', detached: true },
  );
  const account = 'devstoreaccount1';
  const url = `http://127.0.0.1:${port}/${account}`;
  await waitFor(`Azurite on ${url}`, child, async () => (await fetch(`${url}?comp=list`)).status < 500);
  // Azurite's documented development account key (public, the same in every installation).
  const key = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
  return { url, pid: child.pid!, stop: () => stopProcess(child), account, key };
}

async function redisPing(port: number): Promise<boolean> {
  const { Socket } = await import('node:net');
  return new Promise((resolvePing) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('data', (data) => {
      socket.destroy();
      resolvePing(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolvePing(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolvePing(false);
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

async function waitFor(what: string, child: ChildProcess, ready: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${what} exited during start-up`);
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  await stopProcess(child);
  throw new Error(`${what} did not become ready within ${timeoutMs} ms`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Stops a process started by another jest context, where only its pid is known. */
export function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
