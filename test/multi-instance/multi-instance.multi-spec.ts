import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { ApiKeysRepository } from '../../src/store/repositories/api-keys.repository';
import { loadConfig } from '../../src/config/app-config';
import { ClickhouseService } from '../../src/store/clickhouse/clickhouse.service';
import { decodeRepeatedly, keySpellings } from '../support/key-spellings';
import { freePort, killPid } from '../support/local-servers';
import { browse, CookieJar, OIDC_CLIENT, RunningOidcProvider, signInAtProvider, startOidcProvider } from '../support/oidc-provider';
import { describeWithTools } from '../support/system-tools';
import { costRow, RowInput } from '../support/test-app';
import { sumDecimals } from '../support/decimals';
import { ApiInstance, Cluster, DATABASE, ROOT, waitUntil } from './cluster';
import { SCOPES } from '../../src/common/http/principal';

// autocannon ships no typings.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: Record<string, unknown>) => Promise<AutocannonResult>;
interface AutocannonResult {
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  statusCodeStats?: Record<string, { count: number }>;
}

/**
 * Several API processes behind nginx, sharing one ClickHouse server and one Redis: the deployment
 * docker-compose.yml describes, as real processes on loopback. Tests run in order on one cluster.
 */
const RATE_LIMIT = 200;
const IP_LIMIT = 60;
const KEY_CACHE_TTL_SECONDS = 3;
const SHUTDOWN_READINESS_DELAY_MS = 1000;
const SHARED_FILTERS = '/v1/cost-insights/shared-filters';
const DATA = '/v1/cost-insights/data';

let cluster: Cluster;
let clickhouse: ClickhouseService;
let apiKeys: ApiKeysService;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Org {
  organizationId: string;
  keyId: string;
  key: string;
  headers: Record<string, string>;
}

async function newOrganization(organizationId: string = randomUUID()): Promise<Org> {
  const { key, record } = await apiKeys.create(organizationId, 'multi-instance test', [...SCOPES]);
  return { organizationId, keyId: record.keyId, key, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' } };
}

async function call(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: init.headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  // JSON answers of every endpoint, read field by field by each test.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, headers: response.headers, body: body as any };
}

const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };
const dataRequest = { groupBy: { dateGrouping: 'monthly', dimension: 'service' }, filters: { inclusions: { dateRange: OCTOBER } } };

let dataOrg: Org;
let expectedByService: Record<string, number>;
/** Sign-in: one OpenID Provider for every instance; the callback address the users would reach (through the load balancer). */
let provider: RunningOidcProvider;
let publicOrigin: string;
const ssoOrganizationId = randomUUID();

beforeAll(async () => {
  publicOrigin = `http://127.0.0.1:${await freePort()}`;
  provider = await startOidcProvider([`${publicOrigin}/auth/callback`]);
  cluster = await Cluster.start(3, {
    SSO_ISSUER_URL: provider.issuer,
    SSO_CLIENT_ID: OIDC_CLIENT.clientId,
    SSO_CLIENT_SECRET: OIDC_CLIENT.clientSecret,
    SSO_REDIRECT_URL: `${publicOrigin}/auth/callback`,
    SSO_SCOPES: 'openid email groups',
    SSO_GROUP_MAPPINGS: JSON.stringify([
      { group: 'finops-admins', organizationId: ssoOrganizationId, scopes: ['api-keys:admin', 'cost:read'] },
    ]),
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    // The load test below sends 800 requests of one organisation in 8 s over twelve keys: the per-key limit is what this suite checks.
    ORGANIZATION_RATE_LIMIT_PER_MINUTE: '1000000',
    UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: String(IP_LIMIT),
    API_KEY_CACHE_TTL_SECONDS: String(KEY_CACHE_TTL_SECONDS),
    SHUTDOWN_READINESS_DELAY_MS: String(SHUTDOWN_READINESS_DELAY_MS),
    TRUST_PROXY_HOPS: '1',
    LOG_LEVEL: 'info',
  });
  const config = loadConfig({ CLICKHOUSE_URL: cluster.clickhouse.url, CLICKHOUSE_DATABASE: DATABASE, API_KEY_CACHE_TTL_SECONDS: '0' });
  clickhouse = new ClickhouseService(config);
  apiKeys = new ApiKeysService(new ApiKeysRepository(clickhouse), config);

  // Cost rows for one organisation, and another organisation's rows that must never show up.
  dataOrg = await newOrganization();
  const rows: RowInput[] = [
    { usage_date: '2026-10-01', service: 'Amazon S3', amortized_cost: '1.2500000001' },
    { usage_date: '2026-10-15', service: 'Amazon S3', amortized_cost: '2.5' },
    { usage_date: '2026-10-20', service: 'Amazon EC2', amortized_cost: '10.75' },
  ];
  const other = await newOrganization();
  await clickhouse.insert('cost_line_items', [
    ...rows.map((row) => costRow(dataOrg.organizationId, row)),
    costRow(other.organizationId, { usage_date: '2026-10-02', service: 'Amazon S3', amortized_cost: '999' }),
  ] as unknown as Record<string, unknown>[]);
  expectedByService = {};
  for (const service of new Set(rows.map((r) => r.service!))) {
    expectedByService[service] = sumDecimals(rows.filter((r) => r.service === service).map((r) => r.amortized_cost!));
  }
}, 180_000);

afterAll(async () => {
  await clickhouse?.onModuleDestroy().catch(() => undefined);
  await cluster?.stop();
  await provider?.stop();
}, 60_000);

function amortizedByService(body: DataAnswerBody): Record<string, number> {
  return Object.fromEntries(body.data.items.map((item) => [item.dimension_value, Number(item.amortized_cost)]));
}

/** The parts of a /data answer (or an error envelope) these tests read. */
interface DataAnswerBody {
  success?: boolean;
  data: { items: Array<{ dimension_value: string; amortized_cost: number | string }>; summary: Record<string, number> };
  error?: { message: string };
}

function expectDataAnswer(response: { status: number; body: DataAnswerBody }): void {
  expect(response.status).toBe(200);
  const actual = amortizedByService(response.body);
  for (const [service, sum] of Object.entries(expectedByService)) expect(actual[service]).toBeCloseTo(sum, 9);
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expectedByService).sort());
}

// Its hooks above run only when a test does: without these tools, nothing starts and every test is a loud skip.
describeWithTools(['python3', 'redis-server', 'nginx'])('several instances behind nginx', () => {
  it('serves the same answer from every instance and through the load balancer', async () => {
    for (const base of [...cluster.instances.map((i) => i.url), cluster.nginxUrl, cluster.nginxUrl, cluster.nginxUrl]) {
      expectDataAnswer(await call(base, DATA, { method: 'POST', headers: dataOrg.headers, body: dataRequest }));
    }
  });

  it('refuses every spelling of /metrics through nginx, while each instance serves /metrics directly', async () => {
    // Sent byte for byte (fetch would resolve `/./`, turn `\` into `/` and drop `#…`). `served`: what the
    // API itself answers with Prometheus text, checked below on an instance directly.
    const spellings: Array<{ target: string; method?: string; served: boolean }> = [
      { target: '/metrics', served: true },
      // Express: any letter case, one optional trailing slash, the query string and fragment ignored.
      ...['/metrics/', '/METRICS', '/Metrics', '/mEtRiCs/', '/METRICS/'].map((target) => ({ target, served: true })),
      ...['/metrics?x', '/metrics?', '/metrics/?x=1', '/METRICS?format=text', '/metrics#x', '/metrics/#x', '/metrics?a#b'].map(
        (target) => ({ target, served: true }),
      ),
      { target: '/Metrics/', method: 'HEAD', served: true },
      // Node's legacy URL parser (used when the target holds `#`) reads `\` as `/`.
      ...['/metrics\\#', '/Metrics\\#x', '/metrics\\?#'].map((target) => ({ target, served: true })),
      // Absolute-form request targets.
      ...['http://localhost/metrics', 'http://localhost/METRICS/'].map((target) => ({ target, served: true })),
      // Not the metrics route for Express, but /metrics for nginx once it decodes and normalises the path.
      ...[
        '//metrics',
        '///metrics/',
        '/metrics//',
        '/%6Detrics',
        '/%6detrics',
        '/metric%73',
        '/%4DETRICS',
        '/metrics%2F',
        '/%2Fmetrics',
      ].map((target) => ({ target, served: false })),
      ...['/./metrics', '/v1/../metrics', '/v1/%2E%2E/metrics', '/metrics/.', '/metrics/%2e', '/metrics\\'].map((target) => ({
        target,
        served: false,
      })),
      // Neither: a 404 from the API itself.
      ...['/metrics;x', '/metrics%3B', '/v1/metrics', '/metrics.json'].map((target) => ({ target, served: false })),
    ];
    const instance = cluster.instances[0];
    const isPrometheusText = (answer: RawAnswer) => answer.status === 200 && answer.contentType.startsWith('text/plain');
    const servedDirectly: string[] = [];
    for (const { target, method = 'GET' } of spellings) {
      if (isPrometheusText(await rawRequest(instance.url, target, method))) servedDirectly.push(`${method} ${target}`);
    }
    // The table above is what the API really does (so the nginx checks below are about real bypasses).
    expect(servedDirectly).toEqual(spellings.filter((s) => s.served).map(({ target, method = 'GET' }) => `${method} ${target}`));
    const direct = await rawRequest(instance.url, '/metrics');
    expect(direct.body).toMatch(/^# HELP cost_insights_/m);

    for (const { target, method = 'GET', served } of spellings) {
      const throughNginx = await rawRequest(cluster.nginxUrl, target, method);
      const context = `${method} ${target} through nginx`;
      expect({ context, status: throughNginx.status }).toEqual({ context, status: 404 });
      if (method === 'HEAD') continue;
      const body = JSON.parse(throughNginx.body);
      if (served) {
        // nginx's own answer, the same for every spelling.
        expect({ context, body }).toEqual({ context, body: { success: false, error: { message: 'Route GET /metrics not found.' } } });
      } else {
        expect({ context, body }).toEqual({
          context,
          body: { success: false, error: { message: expect.stringMatching(/^Route GET \S+ not found\.$/) } },
        });
      }
    }
  });

  it('enforces the rate limit exactly across instances (limit + k concurrent requests → exactly limit successes)', async () => {
    const org = await newOrganization();
    const create = await call(cluster.instances[0].url, SHARED_FILTERS, {
      method: 'POST',
      headers: org.headers,
      body: { organizationId: org.organizationId, filterConfiguration: {} },
    });
    expect(create.status).toBe(201);
    const extra = 15;
    const total = RATE_LIMIT - 1 + extra; // the create above counted once
    const responses = await inParallel(total, 24, (n) =>
      call(cluster.instances[n % cluster.instances.length].url, `${SHARED_FILTERS}/${create.body.data.filterId}`, { headers: org.headers }),
    );
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(RATE_LIMIT - 1);
    expect(limited).toHaveLength(extra);
    // Atomic shared counting: every remaining value from limit-2 down to 0 handed out exactly once.
    expect(ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: RATE_LIMIT - 1 }, (_, i) => i),
    );
    for (const response of ok) {
      expect(response.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT));
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    }
    for (const response of limited) {
      const retryAfter = response.headers.get('retry-after');
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      expect(response.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT));
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(response.body).toEqual({
        success: false,
        error: { message: `Rate limit exceeded. Please retry after ${retryAfter} seconds.` },
      });
    }
  });

  it('reads a shared filter created through one instance through every other one', async () => {
    const org = await newOrganization();
    for (const creator of cluster.instances) {
      const created = await call(creator.url, SHARED_FILTERS, {
        method: 'POST',
        headers: org.headers,
        body: {
          organizationId: org.organizationId,
          filterConfiguration: { metric: 'on_demand_cost', metadata: { name: `made on ${creator.index}` } },
        },
      });
      expect(created.status).toBe(201);
      for (const reader of cluster.instances.filter((i) => i !== creator)) {
        const read = await call(reader.url, `${SHARED_FILTERS}/${created.body.data.filterId}`, { headers: org.headers });
        expect(read.status).toBe(200);
        expect(read.body.data.filterConfiguration.metric).toBe('on_demand_cost');
        expect(read.body.data.filterConfiguration.metadata.name).toBe(`made on ${creator.index}`);
      }
    }
  });

  it('signs in through one instance, completes on another, administers on a third; sign-out on one ends it on all', async () => {
    const [first, second, third] = cluster.instances;
    const jar = new CookieJar();
    // The provider sends the browser back to the public address; the load balancer may pick any instance.
    const back = new URL(await signInAtProvider(jar, `${first.url}/auth/sign-in`, 'alice', publicOrigin));
    const callback = await browse(jar, `${second.url}${back.pathname}${back.search}`);
    expect(callback.status).toBe(302);
    for (const instance of cluster.instances) {
      const keys = await browse(jar, `${instance.url}/v1/admin/api-keys`);
      expect([instance.index, keys.status]).toEqual([instance.index, 200]);
    }
    const created = await browse(jar, `${third.url}/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: publicOrigin },
      body: JSON.stringify({ name: 'made by alice', scopes: ['cost:read'] }),
    });
    expect(created.status).toBe(201);
    const session = jar.get(first.url, 'ci_session')!;
    expect((await browse(jar, `${first.url}/auth/sign-out`, { method: 'POST', headers: { origin: publicOrigin } })).status).toBe(200);
    for (const instance of cluster.instances) {
      const refused = await fetch(`${instance.url}/v1/admin/api-keys`, { headers: { cookie: `ci_session=${session}` } });
      expect([instance.index, refused.status]).toEqual([instance.index, 401]);
    }
  });

  it(`stops a key revoked through the CLI on every instance within API_KEY_CACHE_TTL_SECONDS (${KEY_CACHE_TTL_SECONDS} s)`, async () => {
    const org = await newOrganization();
    // Every instance has verified (and cached) the key.
    for (const instance of cluster.instances) {
      const response = await call(instance.url, DATA, { method: 'POST', headers: org.headers, body: dataRequest });
      expect(response.status).toBe(200);
    }
    const { stdout } = await promisify(execFile)('node', ['dist/cli/main.js', 'keys', 'revoke', org.keyId], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...cluster.env },
    });
    expect(stdout).toContain(org.keyId);
    const revokedAt = Date.now();
    const stoppedAfterMs: number[] = [];
    await Promise.all(
      cluster.instances.map(async (instance) => {
        // Poll until this instance refuses the key; stop at the first 401 (each 401 counts against the per-IP limit).
        for (;;) {
          const response = await call(instance.url, DATA, { method: 'POST', headers: org.headers, body: dataRequest });
          if (response.status === 401) {
            expect(response.body).toEqual({ message: 'Unauthorized' });
            stoppedAfterMs.push(Date.now() - revokedAt);
            return;
          }
          expect(response.status).toBe(200);
          if (Date.now() - revokedAt > KEY_CACHE_TTL_SECONDS * 1000 + 3000)
            throw new Error(`instance ${instance.index} still accepts the key`);
          await sleep(250);
        }
      }),
    );
    expect(stoppedAfterMs).toHaveLength(cluster.instances.length);
    expect(Math.max(...stoppedAfterMs)).toBeLessThanOrEqual(KEY_CACHE_TTL_SECONDS * 1000 + 500);
  });

  it('accepts the caller X-Request-Id through nginx, returns it and logs it', async () => {
    const id = `multi-${randomUUID()}`;
    const response = await fetch(`${cluster.nginxUrl}${DATA}`, {
      method: 'POST',
      headers: { ...dataOrg.headers, 'X-Request-Id': id },
      body: JSON.stringify(dataRequest),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe(id);
    const generated = await fetch(`${cluster.nginxUrl}${DATA}`, {
      method: 'POST',
      headers: dataOrg.headers,
      body: JSON.stringify(dataRequest),
    });
    expect(generated.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{16,}$/);
    await sleep(200);
    const line = cluster
      .allLogs()
      .split('\n')
      .find((l) => l.startsWith('{') && l.includes(id));
    expect(line).toBeDefined();
    const entry = JSON.parse(line!);
    expect(entry.req).toEqual(expect.objectContaining({ id, method: 'POST', url: DATA }));
    expect(entry.res).toEqual({ statusCode: 200 });
    expect(entry.organizationId).toBe(dataOrg.organizationId);
  });

  it('finishes every request while one instance is stopped with SIGTERM under load (zero failures)', async () => {
    // Enough keys that the load never meets the per-key limit.
    const keys = await Promise.all(Array.from({ length: 12 }, () => newOrganization(dataOrg.organizationId)));
    let next = 0;
    const victim = cluster.instances[2];
    const load = autocannon({
      url: cluster.nginxUrl,
      connections: 8,
      duration: 8,
      overallRate: 100,
      requests: [
        {
          method: 'POST',
          path: DATA,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(dataRequest),
          setupRequest: (request: { headers: Record<string, string> }) => {
            next = (next + 1) % keys.length;
            return { ...request, headers: { ...request.headers, authorization: `Bearer ${keys[next].key}` } };
          },
        },
      ],
    });
    await sleep(2500);
    // A request in flight on the victim itself whose body is still arriving when the listener closes.
    const slow = slowRequest(victim.port, DATA, dataOrg.headers, JSON.stringify(dataRequest), SHUTDOWN_READINESS_DELAY_MS + 1000);
    await sleep(50);
    const signalledAt = Date.now();
    victim.process.kill('SIGTERM');
    try {
      // Readiness turns red first, while the instance still serves.
      await sleep(200);
      const ready = await call(victim.url, '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.success).toBe(false);
      expect(ready.body.details.lifecycle.status).toBe('down');
      expect((await call(victim.url, '/health/live')).status).toBe(200);
      const exitCode = await victim.exited;
      const exitedAfterMs = Date.now() - signalledAt;
      const result = await load;
      process.stdout.write(
        `SIGTERM under load: ${result.requests.total} requests, ${result['2xx']} 2xx, non2xx ${result.non2xx}, errors ${result.errors}, ` +
          `timeouts ${result.timeouts}, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; instance exited after ${exitedAfterMs} ms\n`,
      );
      const inFlight = await slow;
      expect(inFlight.status).toBe(200);
      expect(inFlight.connection).toBe('close');
      expectDataAnswer({ status: inFlight.status, body: JSON.parse(inFlight.body) });
      expect(exitCode).toBe(0);
      expect(result.errors).toBe(0);
      expect(result.timeouts).toBe(0);
      expect(result.non2xx).toBe(0);
      expect(result['2xx']).toBeGreaterThan(100);
      expect(exitedAfterMs).toBeGreaterThanOrEqual(SHUTDOWN_READINESS_DELAY_MS);
    } finally {
      // The stopped instance is replaced on its port (nginx's upstream list is static).
      await victim.exited;
      cluster.instances[2] = await cluster.startApi(victim.index, {}, victim.port);
    }
  }, 60_000);

  it('keeps data endpoints answering while Redis is down, fails shared filters fast, recovers without a restart', async () => {
    const org = await newOrganization();
    const created = await call(cluster.nginxUrl, SHARED_FILTERS, {
      method: 'POST',
      headers: org.headers,
      body: { organizationId: org.organizationId, filterConfiguration: { metric: 'billed_cost' } },
    });
    expect(created.status).toBe(201);
    const filterPath = `${SHARED_FILTERS}/${created.body.data.filterId}`;

    const redisPort = Number(new URL(cluster.redis.url).port);
    killPid(cluster.redis.pid);
    try {
      await sleep(300);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const started = Date.now();
        const read = await call(cluster.nginxUrl, filterPath, { headers: org.headers });
        expect(Date.now() - started).toBeLessThan(3000);
        expect(read.status).toBe(500);
        expect(read.body).toEqual({
          success: false,
          error: { message: 'Shared filter storage is temporarily unavailable. Please retry shortly.' },
        });
        const data = await call(cluster.nginxUrl, DATA, { method: 'POST', headers: dataOrg.headers, body: dataRequest });
        expectDataAnswer(data);
        expect(data.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT));
      }
      for (const instance of cluster.instances) {
        const ready = await call(instance.url, '/health/ready');
        expect(ready.status).toBe(200); // still serving: reported, not failed
        expect(ready.body.details.redis).toEqual(expect.objectContaining({ status: 'up', reachable: false }));
      }
      const metrics = await call(cluster.instances[0].url, '/metrics');
      expect(metrics.body).toMatch(/^cost_insights_rate_limit_local_fallback 1$/m);
    } finally {
      // Redis returns on its address with its AOF: the filter is back, on every instance, no API restart.
      await cluster.startRedis(redisPort);
    }
    for (const instance of cluster.instances) {
      await waitUntil(
        `instance ${instance.index} reading from Redis again`,
        async () => (await call(instance.url, filterPath, { headers: org.headers })).status === 200,
        10_000,
      );
      expect((await call(instance.url, filterPath, { headers: org.headers })).body.data.filterConfiguration.metric).toBe('billed_cost');
    }
    expect((await call(cluster.instances[0].url, '/metrics')).body).toMatch(/^cost_insights_rate_limit_local_fallback 0$/m);
  }, 60_000);

  it('fails data endpoints fast with an envelope while ClickHouse is down, and recovers without a restart', async () => {
    killPid(cluster.clickhouse.pid);
    await sleep(300);
    // Computed answers (no-cache): the outage is about the data path, not the answer cache in front of it.
    const fresh = { ...dataOrg.headers, 'Cache-Control': 'no-cache' };
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const started = Date.now();
        const data = await call(cluster.nginxUrl, DATA, { method: 'POST', headers: fresh, body: dataRequest });
        expect(Date.now() - started).toBeLessThan(3000);
        expect(data.status).toBe(500);
        expect(data.body.success).toBe(false);
        expect(typeof data.body.error.message).toBe('string');
        expect(JSON.stringify(data.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|clickhouse/i);
      }
      for (const instance of cluster.instances) {
        // Directly as well: round-robin through nginx does not guarantee every instance saw a failure,
        // and the error metric is read from one of them below.
        const direct = await call(instance.url, DATA, { method: 'POST', headers: fresh, body: dataRequest });
        expect(direct.status).toBe(500);
        expect(direct.body.success).toBe(false);
        const ready = await call(instance.url, '/health/ready');
        expect(ready.status).toBe(503);
        expect(ready.body.details.clickhouse.status).toBe('down');
        expect((await call(instance.url, '/health/live')).status).toBe(200);
      }
    } finally {
      await cluster.restartClickhouse();
    }
    for (const instance of cluster.instances) {
      await waitUntil(
        `instance ${instance.index} answering from ClickHouse again`,
        async () => {
          const response = await call(instance.url, DATA, { method: 'POST', headers: dataOrg.headers, body: dataRequest });
          return response.status === 200;
        },
        20_000,
      );
      expectDataAnswer(await call(instance.url, DATA, { method: 'POST', headers: dataOrg.headers, body: dataRequest }));
      expect((await call(instance.url, '/health/ready')).status).toBe(200);
    }
    const metrics = (await call(cluster.instances[0].url, '/metrics')).body as string;
    expect(metrics).toMatch(/^cost_insights_clickhouse_errors_total\{kind="query"\} [1-9]/m);
    expect(metrics).toMatch(/^cost_insights_clickhouse_rows_read_total [1-9]/m);
  }, 90_000);

  it('takes the client IP only from the trusted hop: a spoofed X-Forwarded-For does not dodge the per-IP limit', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < IP_LIMIT + 5; n += 1) {
      const response = await call(cluster.nginxUrl, `${SHARED_FILTERS}/sf_AAAAAAAAAAAAAAAAAAAAAAAA`, {
        headers: { Authorization: 'Bearer not-a-key', 'X-Forwarded-For': `203.0.113.${n % 250}` },
      });
      statuses.push(response.status);
    }
    // Every request came from 127.0.0.1 (nginx's appended hop): one counter, whatever the header said.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(IP_LIMIT);
    expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429]);
  });

  it('never logs key material or bearer credentials, in any spelling (scan of every log line of the run)', async () => {
    // Key material in places a careless logger would print: the URL and a malformed header.
    await call(cluster.nginxUrl, `${SHARED_FILTERS}/${dataOrg.key}?apiKey=${dataOrg.key}`, { headers: dataOrg.headers });
    await call(cluster.instances[0].url, `/v1/nowhere/${dataOrg.key}`, { headers: { Authorization: `Bearer ${dataOrg.key}x` } });
    // The key percent-encoded (as a client URL-encoding a query value sends it) in the path and the query
    // string, through nginx (its access log) to an instance (its log); and bearer credentials in a URL.
    for (const spelled of Object.values(keySpellings(dataOrg.key))) {
      const response = await rawRequest(cluster.nginxUrl, `${SHARED_FILTERS}/${spelled}?api_key=${spelled}`, 'GET', dataOrg.headers);
      expect(response.status).toBe(400); // an instance answered (a malformed filter id), so it logged the request
    }
    await rawRequest(cluster.nginxUrl, `/v1/nowhere/Bearer%20not-a-key-0123456789?auth=Bearer+not-a-key-0123456789`);
    await sleep(300);
    const logs = cluster.allLogs();
    expect(logs.length).toBeGreaterThan(10_000); // the scan is over a real run, not an empty file
    // Every spelling is undone before looking (the test's own decoder, not the production pattern).
    // Findings are named, never printed: a failure must not echo the key either.
    const decoded = decodeRepeatedly(logs);
    const leaks = Object.entries({
      'part of the key secret': decoded.includes(dataOrg.key.slice(17, 40)),
      'the bearer value sent in a URL': decoded.includes('not-a-key-0123456789'),
      'cik_ followed by anything but [redacted]': /cik_(?!\[redacted\])/i.test(decoded),
      'a Bearer value not redacted': /Bearer\s+(?!\[redacted\])\S/i.test(decoded),
    }).flatMap(([finding, found]) => (found ? [finding] : []));
    expect(leaks).toEqual([]);
    // Redacted, not merely absent: the API's lines and nginx's request lines were written.
    expect(logs).toContain('cik_[redacted]');
    expect(logs).toContain('[request line withheld: contains key material]');
    expect(logs).toContain('[request line withheld: contains a credential]');
  });
});

/** A POST whose body is sent in two halves `pauseMs` apart: in flight across a shutdown. */
function slowRequest(port: number, path: string, headers: Record<string, string>, body: string, pauseMs: number) {
  return new Promise<{ status: number; connection?: string; body: string }>((resolveResponse, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolveResponse({ status: response.statusCode!, connection: response.headers.connection, body: text }));
      },
    );
    request.on('error', reject);
    const half = Math.floor(body.length / 2);
    request.write(body.slice(0, half));
    setTimeout(() => request.end(body.slice(half)), pauseMs);
  });
}

interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** One request whose target is sent byte for byte (fetch would normalise it), on a fresh connection. */
function rawRequest(base: string, target: string, method = 'GET', headers: Record<string, string> = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolveAnswer, reject) => {
    const request = httpRequest({ host: hostname, port, path: target, method, headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolveAnswer({ status: response.statusCode!, contentType: response.headers['content-type'] ?? '', body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Runs `count` calls with at most `concurrency` in flight; results in call order. */
async function inParallel<T>(count: number, concurrency: number, run: (n: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const n = next++;
        results[n] = await run(n);
      }
    }),
  );
  return results;
}

export type { ApiInstance };
