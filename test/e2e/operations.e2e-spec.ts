// modes: embedded server — readiness without and with Redis
import { shutdownState } from '../../src/health/shutdown-state';
import { SHARED_SERVERS } from '../support/e2e-mode';
import { startAppWithEnv } from '../support/app-with-env';
import { TestApp } from '../support/test-app';

/**
 * Operational endpoints: /health/live, /health/ready and /metrics live outside /v1, need no key and
 * are never rate limited; every response carries X-Request-Id. (Multi-process behaviour — SIGTERM,
 * outages, logs — is proven in test/multi-instance.)
 */
const serverMode = SHARED_SERVERS;
const IP_LIMIT = 2;

describe('operations endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startAppWithEnv({
      UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: String(IP_LIMIT),
      TRUST_PROXY_HOPS: '1',
      RATE_LIMIT_PER_MINUTE: '3',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers liveness and readiness without a key, outside /v1, never rate limited', async () => {
    const clientIp = `192.0.2.${(process.pid % 250) + 1}`;
    for (let n = 0; n < IP_LIMIT + 3; n += 1) {
      const live = await t.http.get('/health/live').set('X-Forwarded-For', clientIp);
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'ok' });
      expect(live.headers['x-ratelimit-limit']).toBeUndefined();
      const ready = await t.http.get('/health/ready').set('X-Forwarded-For', clientIp);
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe('ok');
      expect(ready.body.details.clickhouse.status).toBe('up');
      expect(ready.body.details.redis).toEqual(
        serverMode ? { status: 'up' } : { status: 'up', message: 'not configured (single-instance mode)' },
      );
    }
    expect((await t.http.get('/v1/health/live')).status).toBe(404);
    const docs = await t.http.get('/docs-json');
    expect(Object.keys(docs.body.paths).filter((path) => !path.startsWith('/v1/'))).toEqual([]);
  });

  it('accepts a well-formed X-Request-Id, replaces anything else, and always returns one', async () => {
    const given = await t.http.get('/health/live').set('X-Request-Id', 'req-123.abc:XYZ');
    expect(given.headers['x-request-id']).toBe('req-123.abc:XYZ');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const bad of ['has spaces', 'x'.repeat(129), 'quote"s', 'cik_abc{}']) {
      const response = await t.http.get('/health/live').set('X-Request-Id', bad);
      expect(response.headers['x-request-id']).toMatch(uuid);
    }
    expect((await t.http.get('/health/live')).headers['x-request-id']).toMatch(uuid);
    // Even a response produced before routing (415: not JSON) carries one.
    const rejected = await t.http.post('/v1/cost-insights/data').set('Content-Type', 'text/plain').send('x');
    expect(rejected.status).toBe(415);
    expect(rejected.headers['x-request-id']).toMatch(uuid);
  });

  it('exposes Prometheus metrics by route template and status, ClickHouse timings and rate-limit rejections', async () => {
    const org = await t.newOrganization();
    const body = {
      groupBy: { dateGrouping: 'monthly' },
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
    };
    const statuses: number[] = [];
    for (let n = 0; n < 4; n += 1) statuses.push((await t.http.post('/v1/cost-insights/data').set(org.auth).send(body)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    await t.http.get('/v1/cost-insights/shared-filters/sf_AAAAAAAAAAAAAAAAAAAAAAAA').set(org.auth); // 429 too: one counter per key
    const scrape = await t.http.get('/metrics');
    expect(scrape.status).toBe(200);
    expect(scrape.headers['content-type']).toMatch(/^text\/plain/);
    const text = scrape.text;
    const value = (pattern: string) => Number(new RegExp(`^${pattern} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    expect(value('cost_insights_http_requests_total\\{method="POST",route="/v1/cost-insights/data",status="200"\\}')).toBe(3);
    expect(value('cost_insights_http_requests_total\\{method="POST",route="/v1/cost-insights/data",status="429"\\}')).toBe(1);
    // Route templates, never raw ids: the filter id does not appear as a label.
    expect(
      value('cost_insights_http_requests_total\\{method="GET",route="/v1/cost-insights/shared-filters/:filterId",status="429"\\}'),
    ).toBe(1);
    expect(text).not.toContain('sf_AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(value('cost_insights_http_request_duration_seconds_count\\{method="POST",route="/v1/cost-insights/data",status="200"\\}')).toBe(
      3,
    );
    expect(value('cost_insights_rate_limit_rejections_total\\{tracker="key"\\}')).toBe(2);
    expect(value('cost_insights_clickhouse_query_duration_seconds_count\\{kind="query",outcome="ok"\\}')).toBeGreaterThanOrEqual(3);
    if (serverMode) {
      // The server reports rows read in X-ClickHouse-Summary; the embedded engine does not.
      expect(text).toMatch(/^cost_insights_clickhouse_rows_read_total \d+$/m);
    }
  });

  it('turns readiness red while draining, and closes connections after each response', async () => {
    shutdownState.markDraining(); // what SIGTERM does first (main.ts); irreversible, so this test runs last
    const ready = await t.http.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual(expect.objectContaining({ success: false, error: { message: 'Not ready: lifecycle.' }, status: 'error' }));
    expect(ready.body.details.lifecycle).toEqual({ status: 'down', message: 'shutting down' });
    expect(ready.headers.connection).toBe('close');
    const live = await t.http.get('/health/live');
    expect(live.status).toBe(200);
    expect(live.headers.connection).toBe('close');
  });
});
