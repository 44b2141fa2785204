// modes: server — Redis stopped under a server
import { join } from 'node:path';
import type Redis from 'ioredis';
import type { Response } from 'supertest';
import { REDIS } from '../../src/infrastructure/redis/redis.module';
import { startAppWithEnv } from '../support/app-with-env';
import { LocalServer, startRedisServer } from '../support/local-servers';
import { expectRateLimited, KEY_LIMIT, LIMIT_ENV, rateHeaders } from '../support/rate-limits';
import { TestApp } from '../support/test-app';

/**
 * Redis stopped under a running instance (the rest of the rate limits: rate-limit.e2e-spec.ts): data endpoints
 * keep answering with per-instance counting, shared filters fail within a bound, counting goes back to Redis
 * when it returns. Timed, so it runs alone (the timing project, in band).
 */
const SHARED_FILTERS = '/v1/cost-insights/shared-filters';
/** Needs Redis and a ClickHouse server: server mode only. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const startWithLimits = (env: Record<string, string>) => startAppWithEnv({ ...LIMIT_ENV, ...env });

describe('rate limiting when Redis is down (server mode only)', () => {
  let redis: LocalServer;
  let redisDir: string;
  let isolated: TestApp;
  beforeAll(async () => {
    // A Redis of this test's own, so stopping it disturbs no other test file.
    redisDir = join(process.env.E2E_TMP_DIR ?? '.test-tmp', `redis-down-${process.pid}`);
    redis = await startRedisServer(redisDir);
    isolated = await startWithLimits({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    const client = isolated.app.get<Redis>(REDIS);
    await isolated.close();
    await redis.stop();
    // The client's socket to the dead server closes asynchronously; let it, so Jest exits cleanly.
    for (let waited = 0; client.status !== 'end' && waited < 3000; waited += 50) await sleep(50);
    await sleep(100);
  });

  it('keeps data endpoints answering with per-instance counting, fails shared filters fast, and recovers', async () => {
    const org = await isolated.newOrganization();
    const create = () =>
      isolated.http.post(SHARED_FILTERS).set(org.auth).send({ organizationId: org.organizationId, filterConfiguration: {} });
    const data = () =>
      isolated.http
        .post('/v1/cost-insights/data')
        .set(org.auth)
        .send({
          groupBy: { dateGrouping: 'monthly' },
          filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
        });
    expect((await create()).status).toBe(201); // counted in Redis

    await redis.stop();
    // Shared filters live in Redis: an immediate 500 envelope, never a hang. Both count locally (1, 2).
    for (const send of [create, () => isolated.http.get(`${SHARED_FILTERS}/sf_AAAAAAAAAAAAAAAAAAAAAAAA`).set(org.auth)]) {
      const started = Date.now();
      const response = await send();
      expect(Date.now() - started).toBeLessThan(3000);
      expect(response.status).toBe(500);
      expect(response.body).toEqual({
        success: false,
        error: { message: 'Shared filter storage is temporarily unavailable. Please retry shortly.' },
      });
    }
    // Data endpoints keep answering; the limit still holds, counted in this instance's memory (3, 4, 5, then 429).
    const remaining: number[] = [];
    for (let request = 0; request < 3; request += 1) {
      const response = await data();
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(rateHeaders(response).limit).toBe(KEY_LIMIT);
      remaining.push(rateHeaders(response).remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    expectRateLimited(await data(), KEY_LIMIT);

    // Redis returns on the same address (empty: no persistence here): counting goes back to Redis without a restart.
    redis = await startRedisServer(redisDir, [], Number(new URL(redis.url).port));
    let recovered: Response | undefined;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(200)) {
      const response = await create();
      if (response.status === 201) {
        recovered = response;
        break;
      }
    }
    expect(recovered?.status).toBe(201);
    const counter = isolated.app.get<Redis>(REDIS);
    expect(Number(await counter.get(`{rate:default:key:${org.keyId}:default}:hits`))).toBeGreaterThanOrEqual(1);
  });
});
