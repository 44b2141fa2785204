// modes: embedded server — filters in ClickHouse, then in Redis
import type Redis from 'ioredis';
import { REDIS } from '../../src/infrastructure/redis/redis.module';
import { startAppWithEnv } from '../support/app-with-env';
import {
  configurationOfBytes,
  countQuotaMessage,
  keyAccounting,
  quotaAccounting,
  shareBytesMessage,
  shareCountMessage,
  storedBytes,
} from '../support/shared-filters';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Shared filters belong to the key that created them (issue 35 §4): a share of the organisation's quota per key (per
 * data scope for scoped keys), DELETE by the creator or an admin key, and what revoking a key does to its filters.
 * Before: four keys scoped to one cloud filled the organisation's quota and every other key got 403 for 30 days;
 * nothing could delete a filter and revoking the keys freed nothing.
 */
const URL = '/v1/cost-insights/shared-filters';
const NOT_FOUND = { success: false, error: { message: 'Shared filter not found or has expired.' } };
const MALFORMED = {
  success: false,
  error: {
    message:
      'Invalid request. Please see message details. filterId: Expected a shared filter ID: "sf_" followed by 24 base64url characters (144 random bits)',
  },
};
const LACKS_SCOPE = {
  success: false,
  error: {
    message:
      'This API key lacks the scope required for this operation: shared-filters:write (to delete the filters it created) or api-keys:admin.',
  },
};
const NOT_THE_CREATOR = {
  success: false,
  error: {
    message:
      'Only the API key that created this shared filter, or an admin key of its organization (api-keys:admin, without a data scope), may delete it.',
  },
};

/** 8 filters of together 1 MiB per organisation, 25 %: 2 filters and 262,144 bytes per key (or data scope). */
const ENV = {
  SHARED_FILTER_QUOTA_COUNT: '8',
  SHARED_FILTER_QUOTA_MB: '1',
  SHARED_FILTER_MAX_BYTES: '200000',
  SHARED_FILTER_KEY_QUOTA_PERCENT: '25',
};
const SHARE_COUNT = Math.floor((8 * 25) / 100);
const SHARE_BYTES = Math.floor((1024 * 1024 * 25) / 100);
const AWS = { inclusions: { clouds: ['AWS'] } };
const GCP = { inclusions: { clouds: ['GCP'] } };

describe('shared filters: per-key share, deletion and revoked keys', () => {
  let t: TestApp;
  let redis: Redis | null;

  beforeAll(async () => {
    t = await startAppWithEnv(ENV);
    redis = t.app.get<Redis | null>(REDIS);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (key: TestOrganization, filterConfiguration: unknown = {}) =>
    t.http.post(URL).set(key.auth).send({ organizationId: key.organizationId, filterConfiguration });
  const read = (key: TestOrganization, filterId: string) => t.http.get(`${URL}/${filterId}`).set(key.auth);
  const remove = (key: TestOrganization, filterId: string) => t.http.delete(`${URL}/${filterId}`).set(key.auth);

  async function created(key: TestOrganization, filterConfiguration: unknown = {}): Promise<string> {
    const response = await create(key, filterConfiguration);
    expect(response.status).toBe(201);
    return response.body.data.filterId as string;
  }

  function expectRefused(response: { status: number; body: unknown }, message: string): void {
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, error: { message } });
  }

  /** Revokes `key` through the admin API with an admin key of its organisation. */
  async function revoke(admin: TestOrganization, key: TestOrganization): Promise<void> {
    const response = await t.http.delete(`/v1/admin/api-keys/${key.keyId}`).set(admin.auth);
    expect(response.status).toBe(200);
  }

  describe('a share of the organisation quota per key', () => {
    it('refuses one key past its share (403 naming it) while the other keys of the organisation still create', async () => {
      const first = await t.newOrganization(['shared-filters:write', 'shared-filters:read']);
      const second = await t.keyFor(first.organizationId, ['shared-filters:write']);
      const admin = await t.keyFor(first.organizationId, ['api-keys:admin', 'shared-filters:write']);
      const mine = [await created(first), await created(first)];
      expectRefused(await create(first), shareCountMessage(SHARE_COUNT, SHARE_COUNT, 25, '30 days'));
      expectRefused(await create(first), shareCountMessage(SHARE_COUNT, SHARE_COUNT, 25, '30 days'));
      // The others each have a share of their own, inside the organisation's 8.
      await created(second);
      await created(second);
      await created(admin);
      for (const id of mine) expect((await read(first, id)).status).toBe(200);
      if (redis) {
        expect(await keyAccounting(redis, first.organizationId, first.keyId)).toEqual([...mine].sort());
        expect((await quotaAccounting(redis, first.organizationId)).ids).toHaveLength(5);
      }
    });

    it('counts the share in bytes too, at exactly its boundary', async () => {
      const key = await t.newOrganization();
      const big = 200_000;
      await created(key, configurationOfBytes(big, 'a'));
      const rest = SHARE_BYTES - big;
      expectRefused(await create(key, configurationOfBytes(rest + 1, 'b')), shareBytesMessage(big, rest + 1, SHARE_BYTES, 25, '30 days'));
      await created(key, configurationOfBytes(rest, 'c'));
      expect(storedBytes(configurationOfBytes(rest, 'c')) + big).toBe(SHARE_BYTES);
    });

    it('makes all keys of one data scope share one share; other scopes and unscoped keys have their own', async () => {
      const admin = await t.newOrganization();
      const [awsOne, awsTwo] = [
        await t.keyFor(admin.organizationId, ['shared-filters:write'], AWS),
        await t.keyFor(admin.organizationId, ['shared-filters:write'], AWS),
      ];
      const gcp = await t.keyFor(admin.organizationId, ['shared-filters:write'], GCP);
      await created(awsOne);
      await created(awsTwo);
      expectRefused(await create(awsTwo), shareCountMessage(SHARE_COUNT, SHARE_COUNT, 25, '30 days', true));
      expectRefused(await create(awsOne), shareCountMessage(SHARE_COUNT, SHARE_COUNT, 25, '30 days', true));
      await created(gcp);
      await created(gcp);
      await created(admin);
    });

    it("lets four keys of one cloud flood their scope's share only: the admin is not locked out (issue 35 §4)", async () => {
      const admin = await t.newOrganization();
      const flooders = await Promise.all(
        Array.from({ length: 4 }, () => t.keyFor(admin.organizationId, ['shared-filters:write', 'shared-filters:read'], AWS)),
      );
      const responses = await Promise.all(
        flooders.flatMap((key) => Array.from({ length: 4 }, () => create(key, { metadata: { name: 'flood' } }))),
      );
      expect(responses.filter((response) => response.status === 201)).toHaveLength(SHARE_COUNT);
      expect(responses.filter((response) => response.status === 403)).toHaveLength(16 - SHARE_COUNT);
      // Before: the flood took all 8 of the organisation's filters and this was a 403 for 30 days.
      const response = await create(admin, { metadata: { name: 'admin still creates' } });
      expect(response.status).toBe(201);
    });
  });

  describe('DELETE /v1/cost-insights/shared-filters/{filterId}', () => {
    it('lets the creating key delete its filter (200), which is then gone and frees its share at once', async () => {
      const key = await t.newOrganization(['shared-filters:write', 'shared-filters:read']);
      const [first, second] = [await created(key, { metadata: { name: 'one' } }), await created(key)];
      expectRefused(await create(key), shareCountMessage(SHARE_COUNT, SHARE_COUNT, 25, '30 days'));

      const response = await remove(key, first);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, data: { filterId: first } });
      const gone = await read(key, first);
      expect([gone.status, gone.body]).toEqual([500, NOT_FOUND]);
      const again = await remove(key, first);
      expect([again.status, again.body]).toEqual([500, NOT_FOUND]);
      expect((await read(key, second)).status).toBe(200);

      const third = await created(key); // its share has room again, at once
      if (redis) {
        expect(await keyAccounting(redis, key.organizationId, key.keyId)).toEqual([second, third].sort());
        const accounting = await quotaAccounting(redis, key.organizationId);
        expect(accounting.ids).toEqual([second, third].sort());
        expect(accounting.total).toBe(accounting.memberBytes);
        expect(accounting.total).toBe(2 * storedBytes((await read(key, second)).body.data.filterConfiguration));
      }
    });

    it("frees the organisation's quota at once: a full organisation creates again after an admin deletes one", async () => {
      const admin = await t.newOrganization(['api-keys:admin']);
      const keys = await Promise.all(Array.from({ length: 4 }, () => t.keyFor(admin.organizationId, ['shared-filters:write'])));
      const ids: string[] = [];
      for (const key of keys) ids.push(await created(key), await created(key));
      const fifth = await t.keyFor(admin.organizationId, ['shared-filters:write']);
      expectRefused(await create(fifth), countQuotaMessage(8, 8, '30 days'));

      // An admin key holding only api-keys:admin deletes another key's filter.
      const response = await remove(admin, ids[0]);
      expect(response.status).toBe(200);
      await created(fifth);
      expectRefused(await create(fifth), countQuotaMessage(8, 8, '30 days'));
    });

    it('refuses another key of the organisation (403) and keeps the filter; a key with neither scope is refused before any lookup', async () => {
      const creator = await t.newOrganization(['shared-filters:write', 'shared-filters:read']);
      const id = await created(creator);
      const otherWriter = await t.keyFor(creator.organizationId, ['shared-filters:write']);
      const refused = await remove(otherWriter, id);
      expect([refused.status, refused.body]).toEqual([403, NOT_THE_CREATOR]);
      for (const scopes of [['shared-filters:read'], ['cost:read', 'rates:admin']] as const) {
        const key = await t.keyFor(creator.organizationId, [...scopes]);
        for (const target of [id, 'sf_AAAAAAAAAAAAAAAAAAAAAAAA', 'nope']) {
          const response = await remove(key, target);
          expect([response.status, response.body]).toEqual([403, LACKS_SCOPE]);
        }
      }
      expect((await read(creator, id)).status).toBe(200);
    });

    it("answers another organisation's filter exactly as a missing one and as the read does (500), and keeps it", async () => {
      const owner = await t.newOrganization();
      const id = await created(owner);
      const stranger = await t.newOrganization(); // every scope, admin included
      const foreign = await remove(stranger, id);
      const missing = await remove(stranger, 'sf_AAAAAAAAAAAAAAAAAAAAAAAA');
      const foreignRead = await read(stranger, id);
      for (const response of [foreign, missing, foreignRead]) expect([response.status, response.body]).toEqual([500, NOT_FOUND]);
      expect(foreign.headers['content-length']).toBe(missing.headers['content-length']);
      expect((await read(owner, id)).status).toBe(200);
    });

    it("answers a scoped key for another scope's filter as the read does (500)", async () => {
      const admin = await t.newOrganization();
      const aws = await t.keyFor(admin.organizationId, ['shared-filters:write', 'shared-filters:read'], AWS);
      const gcp = await t.keyFor(admin.organizationId, ['shared-filters:write', 'shared-filters:read'], GCP);
      const id = await created(aws);
      for (const response of [await remove(gcp, id), await read(gcp, id)])
        expect([response.status, response.body]).toEqual([500, NOT_FOUND]);
      expect((await remove(admin, id)).status).toBe(200);
    });

    it('answers a malformed id with the read’s 400, and no key with 401', async () => {
      const key = await t.newOrganization();
      for (const bad of ['nope', 'sf_short', `sf_${'%2B'.repeat(24)}`, 'x'.repeat(300)]) {
        const response = await remove(key, bad);
        expect([response.status, response.body]).toEqual([400, MALFORMED]);
      }
      const anonymous = await t.http.delete(`${URL}/sf_AAAAAAAAAAAAAAAAAAAAAAAA`);
      expect(anonymous.status).toBe(401);
    });

    it('deletes once when the same filter is deleted five times at once', async () => {
      const key = await t.newOrganization();
      const id = await created(key);
      const responses = await Promise.all(Array.from({ length: 5 }, () => remove(key, id)));
      expect(responses.map((response) => response.status).sort()).toEqual([200, 500, 500, 500, 500]);
      if (redis) expect((await quotaAccounting(redis, key.organizationId)).total).toBe(0);
      await created(key);
      await created(key);
    });

    it('is documented in the OpenAPI document with who may delete', async () => {
      const document = (await t.http.get('/docs-json')).body;
      const operation = document.paths['/v1/cost-insights/shared-filters/{filterId}'].delete;
      expect(operation.operationId).toBe('deleteSharedFilter');
      expect(operation.description).toContain('api-keys:admin');
      expect(operation.description).toContain('created the filter');
      expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '401', '403', '429', '500']);
    });
  });

  describe('revoking a key', () => {
    it("keeps its filters readable until they expire, counted by the organisation but no longer by its scope's share", async () => {
      const admin = await t.newOrganization();
      const revoked = await t.keyFor(admin.organizationId, ['shared-filters:write', 'shared-filters:read'], AWS);
      const successor = await t.keyFor(admin.organizationId, ['shared-filters:write', 'shared-filters:read'], AWS);
      const old = [await created(revoked, { metadata: { name: 'kept' } }), await created(revoked)];
      expectRefused(await create(successor), shareCountMessage(SHARE_COUNT, SHARE_COUNT, 25, '30 days', true));

      await revoke(admin, revoked);
      // The scope's remaining key reads them (links keep working) and has the whole share again.
      expect((await read(successor, old[0])).body.data.filterConfiguration.metadata.name).toBe('kept');
      expect((await read(admin, old[1])).status).toBe(200);
      await created(successor);
      await created(successor);
      expectRefused(await create(successor), shareCountMessage(SHARE_COUNT, SHARE_COUNT, 25, '30 days', true));

      // The organisation still counts them: 4 live so far, 4 more from two other keys fill its 8.
      for (let n = 0; n < 2; n += 1) {
        const key = await t.keyFor(admin.organizationId, ['shared-filters:write']);
        await created(key);
        await created(key);
      }
      expectRefused(await create(admin), countQuotaMessage(8, 8, '30 days'));
      // An admin key deletes the revoked key's filters, which frees the organisation's quota.
      expect((await remove(admin, old[0])).status).toBe(200);
      await created(admin);
    });
  });
});
