// modes: embedded server — filters in ClickHouse, then in Redis
import type Redis from 'ioredis';
import { UpstreamUnavailableException } from '../../src/common/errors/api-errors';
import { createRedisClient, REDIS } from '../../src/infrastructure/redis/redis.module';
import { normalizeSharedFilterConfiguration } from '../../src/store/shared-filters/shared-filter-configuration';
import { RedisSharedFilterStore } from '../../src/sharing/storage/redis-shared-filter.store';
import { startAppWithEnv } from '../support/app-with-env';
import { freePort } from '../support/local-servers';
import { bytesQuotaMessage, configurationOfBytes, countQuotaMessage, quotaAccounting, storedBytes } from '../support/shared-filters';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Shared filters against the clock (the rest is shared-filters.e2e-spec.ts): quota freed as filters expire,
 * where a filter created half-way through the others' lifetime must still be live when they have gone, and a
 * Redis that does not answer failing within a bound. Timed, so it runs alone (the timing project, in band).
 */
const URL = '/v1/cost-insights/shared-filters';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('shared filters against the clock', () => {
  /** Small limits so they can be reached: 3 filters, 1 MB, configurations up to 400,000 bytes, 3 seconds of life. */
  const BIG = 400_000;
  let shortLived: TestApp;
  let redis: Redis | null;

  beforeAll(async () => {
    shortLived = await startAppWithEnv({
      SHARED_FILTER_QUOTA_COUNT: '3',
      SHARED_FILTER_QUOTA_MB: '1',
      SHARED_FILTER_MAX_BYTES: '400000',
      SHARED_FILTER_TTL_SECONDS: '3',
      // One key creates them all: the organisation's quota is under test, not the key's share (shared-filters e2e).
      SHARED_FILTER_KEY_QUOTA_PERCENT: '100',
    });
    redis = shortLived.app.get<Redis | null>(REDIS);
  });
  afterAll(async () => {
    await shortLived?.close();
  });

  const createIn = (app: TestApp, org: TestOrganization, filterConfiguration: unknown) =>
    app.http.post(URL).set(org.auth).send({ organizationId: org.organizationId, filterConfiguration });

  async function createdIn(app: TestApp, org: TestOrganization, filterConfiguration: unknown): Promise<string> {
    const response = await createIn(app, org, filterConfiguration);
    expect(response.status).toBe(201);
    return response.body.data.filterId as string;
  }

  function expectQuotaRefusal(response: { status: number; body: unknown }, message: string): void {
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, error: { message } });
  }

  it('frees quota as filters expire after SHARED_FILTER_TTL_SECONDS', async () => {
    const [bigA, bigB, bigC, bigD] = ['a', 'b', 'c', 'd'].map((tag) => configurationOfBytes(BIG, tag));
    const byCount = await shortLived.newOrganization();
    const byBytes = await shortLived.newOrganization();
    // One organisation's filters expire at different times: the expired one must stop counting, the live one not.
    const staggered = await shortLived.newOrganization();
    await createdIn(shortLived, staggered, bigA);
    for (let n = 0; n < 3; n += 1) await createdIn(shortLived, byCount, {});
    await createdIn(shortLived, byBytes, bigA);
    await createdIn(shortLived, byBytes, bigB);
    const lastCreated = Date.now();
    expectQuotaRefusal(await createIn(shortLived, byCount, {}), countQuotaMessage(3, 3, '3 seconds'));
    expectQuotaRefusal(await createIn(shortLived, byBytes, bigC), bytesQuotaMessage(2 * BIG, BIG, 1, '3 seconds'));
    // Created half-way through the others' lifetime: still live when they have expired.
    await sleep(1500 - (Date.now() - lastCreated));
    const stillLive = await createdIn(shortLived, staggered, bigB);

    await sleep(3000 - (Date.now() - lastCreated) + 300);
    const next = await createdIn(shortLived, staggered, bigC);
    expectQuotaRefusal(await createIn(shortLived, staggered, bigD), bytesQuotaMessage(2 * BIG, BIG, 1, '3 seconds'));
    if (redis) {
      expect(await quotaAccounting(redis, staggered.organizationId)).toMatchObject({ ids: [stillLive, next].sort(), total: 2 * BIG });
      // The accounting expired with the last filter it counted.
      for (const org of [byCount, byBytes]) {
        expect(await redis.exists(`cost-insights:shared-filter-quota:${org.organizationId}:filters`)).toBe(0);
        expect(await redis.exists(`cost-insights:shared-filter-quota:${org.organizationId}:bytes`)).toBe(0);
      }
    }
    for (let n = 0; n < 3; n += 1) await createdIn(shortLived, byCount, {});
    await createdIn(shortLived, byBytes, bigC);
    await createdIn(shortLived, byBytes, bigD);
  });

  it('fails fast with an envelope error when Redis does not answer (never hangs)', async () => {
    // A Redis store on a port nothing listens on: the client must reject at once, not queue.
    const client = createRedisClient(`redis://127.0.0.1:${await freePort()}`);
    client.on('error', () => undefined);
    const store = new RedisSharedFilterStore(client);
    try {
      const started = Date.now();
      await expect(store.find('sf_AAAAAAAAAAAAAAAAAAAAAAAA')).rejects.toBeInstanceOf(UpstreamUnavailableException);
      await expect(store.find('sf_AAAAAAAAAAAAAAAAAAAAAAAA')).rejects.toThrow(
        'Shared filter storage is temporarily unavailable. Please retry shortly.',
      );
      // The quota-checking save too (its script never reaches Redis).
      const configuration = normalizeSharedFilterConfiguration({});
      const filter = {
        filterId: 'sf_AAAAAAAAAAAAAAAAAAAAAAAA',
        organizationId: '3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d',
        configuration,
        configurationBytes: storedBytes(configuration),
        createdAt: new Date().toISOString(),
        creatorDataScope: '',
        creatorKeyId: 'AAAAAAAAAAAA',
      };
      const limits = {
        ttlSeconds: 60,
        quotaCount: 3,
        quotaBytes: 1024 ** 2,
        shareCount: 3,
        shareBytes: 1024 ** 2,
        holderKeyIds: ['AAAAAAAAAAAA'],
      };
      await expect(store.save(filter, limits)).rejects.toBeInstanceOf(UpstreamUnavailableException);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      client.disconnect();
    }
  });
});
