// modes: embedded server — counters in memory, then in Redis
import type { SettingOverrides } from '../../src/config/settings';
import { startAppWithEnv } from '../support/app-with-env';
import { expectRateLimited, IP_LIMIT, KEY_LIMIT, LIMIT_ENV, rateHeaders } from '../support/rate-limits';
import { generateApiKey } from '../../src/auth/api-key-format';
import { TestApp, TestOrganization } from '../support/test-app';

const SHARED_FILTERS = '/v1/cost-insights/shared-filters';
const serverMode = process.env.E2E_MODE === 'server';
/** Several instances sharing counters needs Redis and a ClickHouse server: server mode only. */
const describeInServerMode = serverMode ? describe : describe.skip;

let ipCounter = 0;
function uniqueClientIp(): string {
  ipCounter += 1;
  return `198.51.${(process.pid % 200) + 1}.${ipCounter}`;
}

function startWithLimits(extraEnv: SettingOverrides = {}): Promise<TestApp> {
  return startAppWithEnv({ ...LIMIT_ENV, ...extraEnv });
}

/** Counts the statements the app sends to ClickHouse that mention `table`, until stop() (which returns the count). */
function countStatements(t: TestApp, table: string): { stop(): number } {
  const client = t.clickhouse.client as unknown as { query: (params: { query: string }) => Promise<unknown> };
  const original = client.query;
  let count = 0;
  client.query = (params) => {
    if (params.query.includes(table)) count += 1;
    return original.call(client, params);
  };
  return {
    stop: () => {
      client.query = original;
      return count;
    },
  };
}

describe('rate limiting', () => {
  let t: TestApp;
  let clientIp: string;

  beforeAll(async () => {
    t = await startWithLimits();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    clientIp = uniqueClientIp();
  });

  async function createFilter(org: TestOrganization): Promise<string> {
    const response = await t.http
      .post(SHARED_FILTERS)
      .set(org.auth)
      .set('X-Forwarded-For', clientIp)
      .send({ organizationId: org.organizationId, filterConfiguration: {} });
    expect(response.status).toBe(201);
    return response.body.data.filterId;
  }

  const readFilter = (auth: Record<string, string>, filterId: string) =>
    t.http.get(`${SHARED_FILTERS}/${filterId}`).set(auth).set('X-Forwarded-For', clientIp);

  it('counts per key: headers on every response, then 429 with Retry-After', async () => {
    const org = await t.newOrganization();
    const filterId = await createFilter(org); // request 1
    for (let request = 2; request <= KEY_LIMIT; request++) {
      const response = await readFilter(org.auth, filterId);
      expect(response.status).toBe(200);
      expect(rateHeaders(response)).toEqual({ limit: KEY_LIMIT, remaining: KEY_LIMIT - request });
      expect(response.headers['retry-after']).toBeUndefined();
    }
    expectRateLimited(await readFilter(org.auth, filterId), KEY_LIMIT);
    expectRateLimited(await readFilter(org.auth, filterId), KEY_LIMIT); // stays blocked
    // Over the limit, even input that would be a 400 is answered 429 (the limiter runs first).
    expectRateLimited(await readFilter(org.auth, 'malformed'), KEY_LIMIT);
  });

  it('keeps one counter per key across endpoints and error responses', async () => {
    const org = await t.newOrganization(['shared-filters:read', 'shared-filters:write']);
    const filterId = await createFilter(org); // remaining 4
    const responses = [
      await readFilter(org.auth, filterId), // 200
      await readFilter(org.auth, 'malformed'), // 400
      await t.http.post('/v1/cost-insights/tag-values').set(org.auth).set('X-Forwarded-For', clientIp).send({ tagKey: 'env' }), // 403
      await readFilter(org.auth, 'sf_AAAAAAAAAAAAAAAAAAAAAAAA'), // 500: not found
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 400, 403, 500]);
    expect(responses.map((r) => rateHeaders(r))).toEqual([3, 2, 1, 0].map((remaining) => ({ limit: KEY_LIMIT, remaining })));
    expectRateLimited(await readFilter(org.auth, filterId), KEY_LIMIT);
  });

  it('does not let one exhausted key affect another key of the same organisation', async () => {
    const org = await t.newOrganization();
    const filterId = await createFilter(org);
    const secondKey = await t.keyFor(org.organizationId);
    for (let request = 2; request <= KEY_LIMIT; request++) await readFilter(org.auth, filterId);
    expectRateLimited(await readFilter(org.auth, filterId), KEY_LIMIT);

    const response = await readFilter(secondKey.auth, filterId);
    expect(response.status).toBe(200);
    expect(rateHeaders(response)).toEqual({ limit: KEY_LIMIT, remaining: KEY_LIMIT - 1 });
  });

  it('limits requests without a valid key per client IP, then answers 429', async () => {
    const noKey = () => t.http.get(`${SHARED_FILTERS}/sf_AAAAAAAAAAAAAAAAAAAAAAAA`).set('X-Forwarded-For', clientIp);
    for (let request = 1; request <= IP_LIMIT; request++) {
      const response = await noKey();
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'Unauthorized' });
      expect(rateHeaders(response)).toEqual({ limit: IP_LIMIT, remaining: IP_LIMIT - request });
    }
    expectRateLimited(await noKey(), IP_LIMIT);
    // Invalid keys count against the same IP budget.
    expectRateLimited(
      await t.http
        .get(`${SHARED_FILTERS}/sf_AAAAAAAAAAAAAAAAAAAAAAAA`)
        .set('X-Forwarded-For', clientIp)
        .set('Authorization', 'Bearer cik_nope'),
      IP_LIMIT,
    );

    // Another IP has its own budget; a valid key from the blocked IP is counted per key instead.
    const otherIp = await t.http.get(`${SHARED_FILTERS}/sf_AAAAAAAAAAAAAAAAAAAAAAAA`).set('X-Forwarded-For', uniqueClientIp());
    expect(otherIp.status).toBe(401);
    expect(rateHeaders(otherIp)).toEqual({ limit: IP_LIMIT, remaining: IP_LIMIT - 1 });
    const org = await t.newOrganization();
    const filterId = await createFilter(org);
    expect((await readFilter(org.auth, filterId)).status).toBe(200);
  });

  it('counts bad keys per IP too (guessing keys is throttled)', async () => {
    for (let request = 1; request <= IP_LIMIT; request++) {
      const response = await t.http
        .get(`${SHARED_FILTERS}/sf_AAAAAAAAAAAAAAAAAAAAAAAA`)
        .set('Authorization', `Bearer cik_guess${request}`)
        .set('X-Forwarded-For', clientIp);
      expect(response.status).toBe(401);
    }
    expectRateLimited(
      await t.http
        .get(`${SHARED_FILTERS}/sf_AAAAAAAAAAAAAAAAAAAAAAAA`)
        .set('Authorization', 'Bearer cik_guess')
        .set('X-Forwarded-For', clientIp),
      IP_LIMIT,
    );
  });

  // Before: every guess from an IP already answered 429 still cost a ClickHouse lookup (200 guesses, 200
  // lookups), and an unauthenticated flood slowed other tenants 10–20×.
  it('looks no guessed key up once the client IP is throttled, while a real key still passes', async () => {
    const org = await t.newOrganization();
    const filterId = await createFilter(org); // the key is verified (and cached) from this IP
    const newKey = await t.keyFor(org.organizationId); // a real key this instance has never verified
    const guess = () => generateApiKey().key; // well-formed, checksum right, never issued
    for (let request = 1; request <= IP_LIMIT; request++) {
      expect((await readFilter({ Authorization: `Bearer ${guess()}` }, filterId)).status).toBe(401);
    }
    expectRateLimited(await readFilter({ Authorization: `Bearer ${guess()}` }, filterId), IP_LIMIT);

    const keyLookups = countStatements(t, 'api_keys');
    const guesses = await Promise.all(Array.from({ length: 200 }, () => readFilter({ Authorization: `Bearer ${guess()}` }, filterId)));
    for (const response of guesses) expectRateLimited(response, IP_LIMIT);
    expect((await readFilter(org.auth, filterId)).status).toBe(200); // verified before: from memory
    expect((await readFilter(newKey.auth, filterId)).status).toBe(200); // exists: looked up
    // At most one read of the existing key ids (then kept for API_KEY_CACHE_TTL_SECONDS) and the real key's lookup.
    expect(keyLookups.stop()).toBeLessThanOrEqual(2);
  });

  describeInServerMode('across instances sharing Redis (server mode only)', () => {
    let second: TestApp;
    beforeAll(async () => {
      second = await startWithLimits();
    });
    afterAll(async () => {
      await second.close();
    });

    it('counts a key once across all instances', async () => {
      const org = await t.newOrganization();
      const filterId = await createFilter(org); // on the first instance: remaining 4
      const instances = [second, t, second, t];
      const remaining: number[] = [];
      for (const instance of instances) {
        const response = await instance.http.get(`${SHARED_FILTERS}/${filterId}`).set(org.auth);
        expect(response.status).toBe(200);
        remaining.push(rateHeaders(response).remaining);
      }
      expect(remaining).toEqual([3, 2, 1, 0]);
      expectRateLimited(await second.http.get(`${SHARED_FILTERS}/${filterId}`).set(org.auth), KEY_LIMIT);
      expectRateLimited(await t.http.get(`${SHARED_FILTERS}/${filterId}`).set(org.auth), KEY_LIMIT);
    });
  });
});
