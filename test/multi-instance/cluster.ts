import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureBuilt } from '../support/built-dist';
import { freePort, LocalServer, startClickhouseServer, startRedisServer, stopProcess } from '../support/local-servers';

/**
 * The production topology on loopback: a ClickHouse HTTP server (libchdb), a redis-server (AOF,
 * noeviction, as in docker-compose.yml), N API processes (`node dist/main.js`, exactly what the
 * Dockerfile runs) and nginx round-robin in front of them, configured with deploy/nginx/api-proxy.conf.
 * Every process writes its output to a log file under `dir`, scanned by the tests.
 */
export const ROOT = resolve(__dirname, '../..');
export const DATABASE = 'cost_insights_multi';

export interface ApiInstance {
  index: number;
  port: number;
  url: string;
  process: ChildProcess;
  logFile: string;
  exited: Promise<number | null>;
}

export class Cluster {
  clickhouse!: LocalServer;
  redis!: LocalServer;
  readonly instances: ApiInstance[] = [];
  nginx!: ChildProcess;
  nginxUrl!: string;
  private nginxPort!: number;

  constructor(
    readonly dir: string,
    readonly apiEnv: Record<string, string>,
  ) {}

  get clickhouseDir(): string {
    return join(this.dir, 'clickhouse');
  }

  get redisDir(): string {
    return join(this.dir, 'redis');
  }

  static async start(instances: number, apiEnv: Record<string, string>): Promise<Cluster> {
    const dir = join(ROOT, '.test-tmp', `multi-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // The suite runs the compiled server, as production does.
    ensureBuilt();
    const cluster = new Cluster(dir, apiEnv);
    try {
      await Promise.all([
        startClickhouseServer(cluster.clickhouseDir).then((server) => (cluster.clickhouse = server)),
        cluster.startRedis(),
      ]);
      // One instance migrates (like docker-compose's migrate step), the others only serve.
      cluster.instances.push(await cluster.startApi(0, { MIGRATE_ON_START: 'true' }));
      cluster.instances.push(...(await Promise.all(Array.from({ length: instances - 1 }, (_, i) => cluster.startApi(i + 1)))));
      await cluster.startNginx();
    } catch (error) {
      // A half-started cluster is stopped here: afterAll never sees it, and its servers would outlive the run.
      await cluster.stop().catch(() => undefined);
      throw error;
    }
    return cluster;
  }

  /** Redis as docker-compose runs it: AOF persistence and no eviction. `port` restarts it in place. */
  async startRedis(port?: number): Promise<LocalServer> {
    const server = await startRedisServer(
      this.redisDir,
      ['--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction'],
      port,
    );
    this.redis = server;
    return server;
  }

  async restartClickhouse(): Promise<void> {
    this.clickhouse = await startClickhouseServer(this.clickhouseDir, [], Number(new URL(this.clickhouse.url).port));
  }

  get env(): Record<string, string> {
    return {
      CLICKHOUSE_URL: this.clickhouse.url,
      CLICKHOUSE_DATABASE: DATABASE,
      REDIS_URL: this.redis.url,
    };
  }

  async startApi(index: number, extraEnv: Record<string, string> = {}, port?: number): Promise<ApiInstance> {
    const apiPort = port ?? (await freePort());
    const logFile = join(this.dir, `api-${index}.log`);
    const log = createWriteStream(logFile, { flags: 'a' });
    const child = spawn('node', [join(ROOT, 'dist/main.js')], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        PORT: String(apiPort),
        MIGRATE_ON_START: 'false',
        DEMO_ON_EMPTY_STORE: 'false',
        ...this.env,
        ...this.apiEnv,
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
    const instance: ApiInstance = { index, port: apiPort, url: `http://127.0.0.1:${apiPort}`, process: child, logFile, exited };
    await waitUntil(`API instance ${index}`, async () => (await fetch(`${instance.url}/health/ready`)).status === 200, 60_000, child);
    return instance;
  }

  private async startNginx(): Promise<void> {
    this.nginxPort = await freePort();
    const nginxDir = join(this.dir, 'nginx');
    mkdirSync(nginxDir, { recursive: true });
    const upstreams = this.instances.map((i) => `    server 127.0.0.1:${i.port} max_fails=1 fail_timeout=5s;`).join('\n');
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((name) => `  ${name}_temp_path ${join(nginxDir, name)};`)
      .join('\n');
    writeFileSync(
      join(nginxDir, 'nginx.conf'),
      `worker_processes 2;
daemon off;
pid ${join(nginxDir, 'nginx.pid')};
error_log ${join(this.dir, 'nginx-error.log')} warn;
events { worker_connections 1024; }
http {
  include ${join(ROOT, 'deploy/nginx/logging.conf')};
  access_log ${join(this.dir, 'nginx-access.log')} cost_insights;
${temp}
  keepalive_timeout 60s;
  upstream cost_insights_api {
${upstreams}
    keepalive 32;
    keepalive_timeout 60s;
  }
  server {
    listen 127.0.0.1:${this.nginxPort};
    include ${join(ROOT, 'deploy/nginx/api-proxy.conf')};
  }
}
`,
    );
    this.nginx = spawn('nginx', ['-c', join(nginxDir, 'nginx.conf'), '-p', nginxDir], { stdio: 'ignore' });
    this.nginxUrl = `http://127.0.0.1:${this.nginxPort}`;
    await waitUntil('nginx', async () => (await fetch(`${this.nginxUrl}/health/live`)).status === 200, 20_000, this.nginx);
  }

  /** Every log line the run produced: API processes, nginx access and error logs. */
  allLogs(): string {
    const files = [...this.instances.map((i) => i.logFile), join(this.dir, 'nginx-access.log'), join(this.dir, 'nginx-error.log')];
    return [...new Set(files)].map((file) => readFileSync(file, 'utf8')).join('\n');
  }

  async stop(): Promise<void> {
    if (this.nginx) await stopProcess(this.nginx);
    await Promise.all(this.instances.map((i) => stopProcess(i.process)));
    await Promise.all([this.clickhouse?.stop(), this.redis?.stop()]);
  }
}

export async function waitUntil(what: string, ready: () => Promise<boolean>, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`${what} exited during start-up`);
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not ready within ${timeoutMs} ms`);
}
