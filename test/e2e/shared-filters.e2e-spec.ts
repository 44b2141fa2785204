// modes: embedded server — filters in ClickHouse, then in Redis
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../src/config/app-config';
import { REDIS } from '../../src/infrastructure/redis/redis.module';
import { startAppWithEnv } from '../support/app-with-env';
import {
  bytesQuotaMessage,
  configurationOfBytes,
  countQuotaMessage,
  quotaAccounting,
  storedBytes,
  storedForm,
  UNSET_FIELDS,
} from '../support/shared-filters';
import { TestApp, TestOrganization } from '../support/test-app';

const URL = '/v1/cost-insights/shared-filters';
const PREFIX = 'Invalid request. Please see message details.';
const NOT_FOUND = { success: false, error: { message: 'Shared filter not found or has expired.' } };
const ID_PATTERN = /^sf_[A-Za-z0-9_-]{24}$/;

const serverMode = process.env.E2E_MODE === 'server';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('shared filters (create and read)', () => {
  let t: TestApp;
  let redis: Redis | null;
  let config: AppConfig;

  beforeAll(async () => {
    t = await TestApp.start();
    redis = t.app.get<Redis | null>(REDIS);
    config = t.app.get<AppConfig>(APP_CONFIG);
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (org: TestOrganization, filterConfiguration: unknown, organizationId = org.organizationId) =>
    t.http.post(URL).set(org.auth).send({ organizationId, filterConfiguration });
  const read = (org: TestOrganization, filterId: string) => t.http.get(`${URL}/${filterId}`).set(org.auth);

  async function createId(org: TestOrganization, filterConfiguration: unknown = {}): Promise<string> {
    const response = await create(org, filterConfiguration);
    expect(response.status).toBe(201);
    return response.body.data.filterId as string;
  }

  it('stores every field and reads it back exactly (201, then 200)', async () => {
    const org = await t.newOrganization();
    const inclusions = {
      costLayers: ['Infrastructure'],
      clouds: ['AWS', 'Azure'],
      services: ['Amazon EC2', '(not set)'],
      resourceFamilies: ['Compute'],
      regions: ['us-east-1'],
      instanceTypes: ['m6i.large'],
      usageTypes: ['BoxUsage:m6i.large'],
      billingPeriods: ['2026-09', '2026-10'],
      dateRange: { start: '2026-10-01', end: '2026-10-31' },
      costTypes: ['Usage'],
      accountIds: ['111111111111'],
      integrationIds: ['aws-main'],
      resourceTag: 'env',
      resourceTagValues: ['production'],
      costCategory: 'Business Unit',
      costCategoryValues: ['Platform', 'Data'],
      billingCurrencies: ['EUR'],
      allocatedMethods: ['cluster-cpu-share'],
    };
    const exclusions = { regions: ['eu-west-1'], dateRange: { start: '2026-10-10', end: '2026-10-10' }, resourceTag: 'temp' };
    const filterConfiguration = {
      filters: { inclusions, exclusions },
      groupBy: { dateGrouping: 'weekly', dimension: 'costCategory:Business Unit' },
      metric: 'effective_savings_rate',
      comparisonEnabled: true,
      metadata: { name: 'Platform weekly', description: 'Ünïcode & "quotes" stay exact.' },
    };

    const created = await create(org, filterConfiguration);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ success: true, data: { filterId: expect.stringMatching(ID_PATTERN) } });

    const response = await read(org, created.body.data.filterId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        filterConfiguration: {
          ...filterConfiguration,
          filters: { inclusions, exclusions: { ...UNSET_FIELDS, ...exclusions } },
        },
      },
    });
    // Every FilterFields field, in the spec's order, on both sides.
    const { filters } = response.body.data.filterConfiguration;
    expect(Object.keys(filters.inclusions)).toEqual(Object.keys(UNSET_FIELDS));
    expect(Object.keys(filters.exclusions)).toEqual(Object.keys(UNSET_FIELDS));
  });

  it('fills the documented defaults for an empty configuration', async () => {
    const org = await t.newOrganization();
    const response = await read(org, await createId(org, {}));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      filterConfiguration: {
        filters: { inclusions: UNSET_FIELDS, exclusions: UNSET_FIELDS },
        groupBy: { dateGrouping: 'daily', dimension: null },
        metric: 'amortized_cost',
        comparisonEnabled: false,
        metadata: { name: '', description: '' },
      },
    });
  });

  it('fills the defaults of partly given parts and treats null as omitted', async () => {
    const org = await t.newOrganization();
    const id = await createId(org, {
      filters: { inclusions: { services: ['Amazon S3'] }, exclusions: null },
      groupBy: { dimension: 'tag:team' },
      metric: null,
      metadata: { name: 'only a name' },
    });
    const response = await read(org, id);
    expect(response.body.data.filterConfiguration).toEqual({
      filters: { inclusions: { ...UNSET_FIELDS, services: ['Amazon S3'] }, exclusions: UNSET_FIELDS },
      groupBy: { dateGrouping: 'daily', dimension: 'tag:team' },
      metric: 'amortized_cost',
      comparisonEnabled: false,
      metadata: { name: 'only a name', description: '' },
    });
  });

  it('accepts its own read output as a new configuration (round trip is stable)', async () => {
    const org = await t.newOrganization();
    const first = await read(org, await createId(org, { groupBy: { dimension: 'account' }, filters: { exclusions: { clouds: ['GCP'] } } }));
    const copy = first.body.data.filterConfiguration;
    const second = await read(org, await createId(org, copy));
    expect(second.status).toBe(200);
    expect(second.body.data.filterConfiguration).toEqual(copy);
  });

  it('reads filters that /data applies exactly like the originals (null keys mean unset)', async () => {
    const org = await t.newOrganization();
    const other = await t.newOrganization();
    const rows = [
      { usage_date: '2026-10-05', amortized_cost: '2.5000000001', resource_tags: { env: 'prod' } },
      { usage_date: '2026-10-06', amortized_cost: '1.25', resource_tags: { env: 'dev' } },
      { usage_date: '2026-10-07', amortized_cost: '0.75', service: 'Amazon S3', resource_tags: { env: 'prod' } },
      { usage_date: '2026-09-30', amortized_cost: '7', resource_tags: { env: 'prod' } },
    ];
    await t.insertRows(org.organizationId, rows);
    await t.insertRows(other.organizationId, [{ usage_date: '2026-10-05', amortized_cost: '100', resource_tags: { env: 'prod' } }]);
    const october = { start: '2026-10-01', end: '2026-10-31' };
    const totalOf = async (filters: unknown): Promise<number> => {
      const response = await t.http
        .post('/v1/cost-insights/data')
        .set(org.auth)
        .send({ filters, groupBy: { dateGrouping: 'monthly' } });
      expect(response.status).toBe(200);
      return response.body.data.summary.total_amortized_cost;
    };
    const cases: Array<[unknown, number]> = [
      [{ inclusions: { dateRange: october } }, 2.5000000001 + 1.25 + 0.75],
      [{ inclusions: { dateRange: october, resourceTag: 'env', resourceTagValues: ['prod'] } }, 2.5000000001 + 0.75],
      [{ inclusions: { dateRange: october }, exclusions: { services: ['Amazon S3'] } }, 2.5000000001 + 1.25],
    ];
    for (const [filters, expected] of cases) {
      const id = await createId(org, { filters });
      const shared = (await read(org, id)).body.data.filterConfiguration.filters;
      expect(shared.inclusions.costCategory).toBeNull();
      expect(await totalOf(filters)).toBeCloseTo(expected, 9);
      expect(await totalOf(shared)).toBeCloseTo(expected, 9);
    }
  });

  it('accepts the organizationId in upper case (same UUID)', async () => {
    const org = await t.newOrganization();
    const response = await create(org, {}, org.organizationId.toUpperCase());
    expect(response.status).toBe(201);
    expect((await read(org, response.body.data.filterId)).status).toBe(200);
  });

  it("hides another organisation's filter behind the same 500 as a missing one", async () => {
    const owner = await t.newOrganization();
    const other = await t.newOrganization();
    const id = await createId(owner, { metadata: { name: 'owner only' } });

    const foreign = await read(other, id);
    expect(foreign.status).toBe(500);
    expect(foreign.body).toEqual(NOT_FOUND);

    const missing = await read(other, 'sf_AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(missing.status).toBe(500);
    expect(missing.body).toEqual(NOT_FOUND);
    expect(missing.body.error.message).toMatch(/not found or has expired/);

    // The owner still reads it; a second key of the owner's organisation too.
    expect((await read(owner, id)).body.data.filterConfiguration.metadata.name).toBe('owner only');
    const ownerSecondKey = await t.keyFor(owner.organizationId, ['shared-filters:read']);
    expect((await read(ownerSecondKey, id)).status).toBe(200);
  });

  it("refuses to create for another organisation's id (403) and stores nothing", async () => {
    const org = await t.newOrganization();
    const other = await t.newOrganization();
    const response = await create(org, { metadata: { name: 'x' } }, other.organizationId);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      success: false,
      error: { message: 'The organizationId does not match the organization of the API key.' },
    });
    expect(JSON.stringify(response.body)).not.toContain('filterId');
  });

  it('answers a malformed filterId with a 400 naming the path parameter', async () => {
    const org = await t.newOrganization();
    const valid = await createId(org);
    for (const bad of ['nope', valid.slice(0, -1), `${valid}A`, `sf_${'%2B'.repeat(24)}`, 'x'.repeat(300)]) {
      const response = await read(org, bad);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: {
          message: `${PREFIX} filterId: Expected a shared filter ID: "sf_" followed by 24 base64url characters (144 random bits)`,
        },
      });
    }
  });

  it('generates unique, unguessable IDs (≥128 random bits)', async () => {
    const org = await t.newOrganization();
    const ids = await Promise.all(Array.from({ length: 25 }, () => createId(org)));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(ID_PATTERN);
      expect(Buffer.from(id.slice(3), 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    }
  });

  it('stores in the mode’s store with the configured lifetime (Redis with native expiry, else ClickHouse)', async () => {
    const org = await t.newOrganization();
    const id = await createId(org, { metadata: { name: 'where' } });
    const ttlMs = config.sharedFilterTtlSeconds * 1000;
    if (redis) {
      const key = `cost-insights:shared-filter:${id}`;
      const stored = JSON.parse((await redis.get(key))!);
      expect(stored.organizationId).toBe(org.organizationId);
      expect(stored.configuration.metadata.name).toBe('where');
      const pttl = await redis.pttl(key);
      expect(pttl).toBeGreaterThan(ttlMs - 60_000);
      expect(pttl).toBeLessThanOrEqual(ttlMs);
    } else {
      const rows = await t.clickhouse.query<{ organization_id: string; lifetime_ms: string; configuration: string }>(
        `SELECT organization_id, toString(toUnixTimestamp64Milli(expires_at) - toUnixTimestamp64Milli(created_at)) AS lifetime_ms,
                configuration
         FROM ${t.clickhouse.table('shared_filters')} WHERE filter_id = {id:String}`,
        { id },
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].organization_id).toBe(org.organizationId);
      expect(Number(rows[0].lifetime_ms)).toBe(ttlMs);
      expect(JSON.parse(rows[0].configuration).metadata.name).toBe('where');
    }
  });

  it('expires a filter after SHARED_FILTER_TTL_SECONDS (500 "not found or has expired")', async () => {
    const org = await t.newOrganization();
    const configured = config.sharedFilterTtlSeconds;
    config.sharedFilterTtlSeconds = 2; // the service reads the setting per request
    let shortLived: string;
    try {
      shortLived = await createId(org, { metadata: { name: 'short' } });
    } finally {
      config.sharedFilterTtlSeconds = configured;
    }
    const longLived = await createId(org, { metadata: { name: 'long' } });
    expect((await read(org, shortLived)).status).toBe(200);

    await sleep(2300);
    const expired = await read(org, shortLived);
    expect(expired.status).toBe(500);
    expect(expired.body).toEqual(NOT_FOUND);
    expect((await read(org, longLived)).status).toBe(200);
  });

  describe('size bound and per-organisation quota', () => {
    /** Small limits so they can be reached: 3 filters, 1 MB, configurations up to 400,000 bytes. */
    // One key creates them all: the organisation's quota is under test here, each key's share in shared-filter-ownership.
    const QUOTA_ENV = {
      SHARED_FILTER_QUOTA_COUNT: '3',
      SHARED_FILTER_QUOTA_MB: '1',
      SHARED_FILTER_MAX_BYTES: '400000',
      SHARED_FILTER_KEY_QUOTA_PERCENT: '100',
    };
    const BIG = 400_000;
    let quota: TestApp;
    let shortLived: TestApp;

    beforeAll(async () => {
      quota = await startAppWithEnv(QUOTA_ENV);
      shortLived = await startAppWithEnv({ ...QUOTA_ENV, SHARED_FILTER_TTL_SECONDS: '3' });
    });
    afterAll(async () => {
      await quota?.close();
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

    /** The filters stored for an organisation, read from the store itself (Redis keys, else the table). */
    async function storedFilterIds(organizationId: string): Promise<string[]> {
      if (redis) {
        const ids: string[] = [];
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', 'cost-insights:shared-filter:sf_*', 'COUNT', 1000);
          cursor = next;
          for (const key of keys) {
            const value = await redis.get(key);
            if (value && JSON.parse(value).organizationId === organizationId) ids.push(key.slice('cost-insights:shared-filter:'.length));
          }
        } while (cursor !== '0');
        return ids.sort();
      }
      const rows = await t.clickhouse.query<{ filter_id: string }>(
        `SELECT filter_id FROM ${t.clickhouse.table('shared_filters')}
         WHERE organization_id = {organization_id:UUID} AND expires_at > now64(3) ORDER BY filter_id`,
        { organization_id: organizationId },
      );
      return rows.map((row) => row.filter_id);
    }

    it('accepts a configuration of exactly SHARED_FILTER_MAX_BYTES (default 65536) stored bytes and refuses one byte more (400)', async () => {
      const org = await t.newOrganization();
      const atLimit = configurationOfBytes(65_536);
      const id = await createId(org, atLimit);
      expect((await read(org, id)).body.data.filterConfiguration).toEqual(atLimit);

      const over = await create(org, configurationOfBytes(65_537));
      expect(over.status).toBe(400);
      expect(over.body).toEqual({
        success: false,
        error: {
          message: `${PREFIX} filterConfiguration: 65537 bytes as stored, over the limit of 65536 bytes (SHARED_FILTER_MAX_BYTES); use fewer or shorter filter values.`,
        },
      });
      // The size counted is the stored form: a sparse body under the limit whose defaults take it over is refused too.
      const sparse = configurationOfBytes(65_536 - 10);
      const sparseBody = {
        filters: { inclusions: { services: sparse.filters.inclusions.services } },
        metadata: { description: `${sparse.metadata.description}${'d'.repeat(11)}` },
      };
      expect(Buffer.byteLength(JSON.stringify(sparseBody))).toBeLessThan(65_536);
      const sparseOver = await create(org, sparseBody);
      expect(sparseOver.status).toBe(400);
      expect(sparseOver.body.error.message).toContain('filterConfiguration: 65537 bytes as stored');
      expect(await storedFilterIds(org.organizationId)).toEqual([id]);
    });

    it("refuses an organisation's filter over SHARED_FILTER_QUOTA_COUNT with 403 naming the quota; other organisations are unaffected", async () => {
      const org = await quota.newOrganization();
      const other = await quota.newOrganization();
      const ids: string[] = [];
      for (let n = 0; n < 3; n += 1) ids.push(await createdIn(quota, org, { metadata: { name: `filter ${n}` } }));

      expectQuotaRefusal(await createIn(quota, org, {}), countQuotaMessage(3, 3, '30 days'));
      expectQuotaRefusal(await createIn(quota, org, {}), countQuotaMessage(3, 3, '30 days'));
      // Another key of the same organisation shares its quota; another organisation has its own.
      const secondKey = await quota.keyFor(org.organizationId, ['shared-filters:write']);
      expectQuotaRefusal(await createIn(quota, secondKey, {}), countQuotaMessage(3, 3, '30 days'));
      await createdIn(quota, other, {});

      for (const id of ids) expect((await quota.http.get(`${URL}/${id}`).set(org.auth)).status).toBe(200);
      expect(await storedFilterIds(org.organizationId)).toEqual([...ids].sort());
    });

    it('refuses a filter that would take the organisation over SHARED_FILTER_QUOTA_MB with 403; a smaller one still fits', async () => {
      const org = await quota.newOrganization();
      const first = await createdIn(quota, org, configurationOfBytes(BIG, 'a'));
      const second = await createdIn(quota, org, configurationOfBytes(BIG, 'b'));
      expectQuotaRefusal(await createIn(quota, org, configurationOfBytes(BIG, 'c')), bytesQuotaMessage(2 * BIG, BIG, 1, '30 days'));
      // 2 × 400,000 + 248,576 = exactly 1 MiB: still allowed; then one byte more is not (count 3 would allow it).
      const rest = 1024 * 1024 - 2 * BIG;
      // Redis mode: a lost byte total is rebuilt from the members, never taken as 0.
      if (redis) await redis.del(`cost-insights:shared-filter-quota:${org.organizationId}:bytes`);
      expectQuotaRefusal(
        await createIn(quota, org, configurationOfBytes(rest + 1, 'd')),
        bytesQuotaMessage(2 * BIG, rest + 1, 1, '30 days'),
      );
      const third = await createdIn(quota, org, configurationOfBytes(rest, 'e'));
      expect(await storedFilterIds(org.organizationId)).toEqual([first, second, third].sort());
      if (redis) {
        const accounting = await quotaAccounting(redis!, org.organizationId);
        expect(accounting.ids).toEqual([first, second, third].sort());
        expect(accounting.total).toBe(1024 * 1024);
        expect(accounting.memberBytes).toBe(1024 * 1024);
      }
    });

    it('lets exactly SHARED_FILTER_QUOTA_COUNT of 10 concurrent creations through and stores nothing of the refused ones', async () => {
      const org = await quota.newOrganization();
      const responses = await Promise.all(Array.from({ length: 10 }, (_, n) => createIn(quota, org, { metadata: { name: `race ${n}` } })));
      const created = responses.filter((response) => response.status === 201).map((response) => response.body.data.filterId as string);
      const refused = responses.filter((response) => response.status === 403);
      expect([created.length, refused.length]).toEqual([3, 7]);
      for (const response of refused)
        expect(response.body).toEqual({ success: false, error: { message: countQuotaMessage(3, 3, '30 days') } });

      expect(await storedFilterIds(org.organizationId)).toEqual([...created].sort());
      if (redis) {
        const accounting = await quotaAccounting(redis!, org.organizationId);
        expect(accounting.ids).toEqual([...created].sort());
        // Each stored configuration is the defaults with a name of 6 characters ("race 0" … "race 9").
        expect(accounting.total).toBe(3 * storedBytes(storedForm([], '', 'race 0')));
        expect(accounting.memberBytes).toBe(accounting.total);
        // The accounting lives at least as long as the filters it counts (30 days).
        for (const ttl of accounting.ttlsMs) expect(ttl).toBeGreaterThan(30 * 86_400_000 - 60_000);
      }
    });

    (serverMode ? it : it.skip)('holds the quota across instances sharing Redis (server mode)', async () => {
      const org = await quota.newOrganization();
      const responses = await Promise.all(Array.from({ length: 10 }, (_, n) => createIn(n % 2 ? quota : shortLived, org, {})));
      expect(responses.filter((response) => response.status === 201)).toHaveLength(3);
      expect(responses.filter((response) => response.status === 403)).toHaveLength(7);
    });
  });

  describe('validation (400 with the full field path)', () => {
    let org: TestOrganization;
    beforeAll(async () => {
      org = await t.newOrganization();
    });

    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        'organizationId missing',
        { organizationId: undefined, filterConfiguration: {} },
        'organizationId: Expected string, received undefined',
      ],
      ['organizationId not a string', { organizationId: 42, filterConfiguration: {} }, 'organizationId: Expected string, received number'],
      [
        'organizationId not UUID-shaped',
        { organizationId: 'org-123', filterConfiguration: {} },
        'organizationId: Expected a UUID such as 3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d',
      ],
      ['filterConfiguration missing', {}, 'filterConfiguration: Expected object, received undefined'],
      ['filterConfiguration an array', { filterConfiguration: [] }, 'filterConfiguration: Expected object, received array'],
      [
        'bad dateGrouping',
        { filterConfiguration: { groupBy: { dateGrouping: 'hourly' } } },
        'filterConfiguration.groupBy.dateGrouping: Expected one of daily, weekly, monthly',
      ],
      [
        'bad dimension',
        { filterConfiguration: { groupBy: { dimension: 'colour' } } },
        'filterConfiguration.groupBy.dimension: "colour" is not a dimension: expected one of costLayer, cloud, service, resourceFamily, region, instanceType, usageType, billingPeriod, costType, account, integration, billingCurrency, allocatedMethod, or tag:<key> or costCategory:<key>',
      ],
      [
        'empty tag key in dimension',
        { filterConfiguration: { groupBy: { dimension: 'tag:' } } },
        'filterConfiguration.groupBy.dimension: "tag:" is not a dimension: expected one of costLayer, cloud, service, resourceFamily, region, instanceType, usageType, billingPeriod, costType, account, integration, billingCurrency, allocatedMethod, or tag:<key> or costCategory:<key>',
      ],
      [
        'dimension not a string',
        { filterConfiguration: { groupBy: { dimension: ['service'] } } },
        'filterConfiguration.groupBy.dimension: Expected string, received array',
      ],
      [
        'unknown filter field',
        { filterConfiguration: { filters: { inclusions: { service: ['Amazon EC2'] } } } },
        'filterConfiguration.filters.inclusions.service: unknown field',
      ],
      [
        'unknown top-level configuration field',
        { filterConfiguration: { dimension: 'service' } },
        'filterConfiguration.dimension: unknown field',
      ],
      [
        'dateRange not a real date',
        { filterConfiguration: { filters: { inclusions: { dateRange: { start: '2026-02-30', end: '2026-03-01' } } } } },
        'filterConfiguration.filters.inclusions.dateRange.start: "2026-02-30" is not a real calendar date',
      ],
      [
        'dateRange start after end',
        { filterConfiguration: { filters: { exclusions: { dateRange: { start: '2026-10-31', end: '2026-10-01' } } } } },
        'filterConfiguration.filters.exclusions.dateRange.end: start must be on or before end',
      ],
      [
        'bad billing period',
        { filterConfiguration: { filters: { inclusions: { billingPeriods: ['2026-13'] } } } },
        'filterConfiguration.filters.inclusions.billingPeriods: Expected a billing period in yyyy-MM format, e.g. 2026-10',
      ],
      [
        'bad metric',
        { filterConfiguration: { metric: 'profit' } },
        'filterConfiguration.metric: Expected one of amortized_cost, billed_cost, cash_cost, on_demand_cost, total_savings, commitment_savings, spot_savings, effective_savings_rate',
      ],
      [
        'comparisonEnabled not a boolean',
        { filterConfiguration: { comparisonEnabled: 'true' } },
        'filterConfiguration.comparisonEnabled: Expected boolean, received string',
      ],
      [
        'name too long',
        { filterConfiguration: { metadata: { name: 'n'.repeat(201) } } },
        'filterConfiguration.metadata.name: at most 200 characters',
      ],
      [
        'description too long',
        { filterConfiguration: { metadata: { description: 'd'.repeat(2001) } } },
        'filterConfiguration.metadata.description: at most 2000 characters',
      ],
      ['unknown body field', { filterConfiguration: {}, filterId: 'sf_x' }, 'filterId: unknown field'],
    ];

    it.each(cases)('%s', async (_name, body, detail) => {
      const response = await t.http
        .post(URL)
        .set(org.auth)
        .send({ organizationId: org.organizationId, ...body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, error: { message: `${PREFIX} ${detail}` } });
    });

    it('names the list field of an element of the wrong type', async () => {
      const response = await create(org, { filters: { inclusions: { services: ['Amazon EC2', 7] } } });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(
        /^Invalid request\. Please see message details\. filterConfiguration\.filters\.inclusions\.services(\[1\])?: Expected string/,
      );
    });

    it('accepts the longest name and description', async () => {
      const response = await create(org, { metadata: { name: 'n'.repeat(200), description: 'd'.repeat(2000) } });
      expect(response.status).toBe(201);
    });

    it('reports several errors together', async () => {
      const response = await t.http
        .post(URL)
        .set(org.auth)
        .send({
          organizationId: 'bad',
          filterConfiguration: { groupBy: { dateGrouping: 'yearly' }, metric: 1 },
        });
      expect(response.status).toBe(400);
      const message: string = response.body.error.message;
      expect(message.startsWith(PREFIX)).toBe(true);
      expect(message).toContain('organizationId: ');
      expect(message).toContain('filterConfiguration.groupBy.dateGrouping: ');
      expect(message).toContain('filterConfiguration.metric: ');
    });
  });

  describe('scopes', () => {
    it('needs shared-filters:write to create and shared-filters:read to read', async () => {
      const writer = await t.newOrganization(['shared-filters:write']);
      const reader = await t.keyFor(writer.organizationId, ['shared-filters:read']);
      const costOnly = await t.keyFor(writer.organizationId, ['cost:read']);

      const id = await createId(writer, { metadata: { name: 'scoped' } });
      for (const [org, expectedScope] of [
        [reader, 'shared-filters:write'],
        [costOnly, 'shared-filters:write'],
      ] as const) {
        const response = await create(org, {});
        expect(response.status).toBe(403);
        expect(response.body).toEqual({
          success: false,
          error: { message: `This API key lacks the scope required for this operation: ${expectedScope}.` },
        });
      }
      for (const org of [writer, costOnly]) {
        const response = await read(org, id);
        expect(response.status).toBe(403);
        expect(response.body.error.message).toContain('shared-filters:read');
      }
      expect((await read(reader, id)).status).toBe(200);
    });

    it('answers 401 without a key', async () => {
      expect((await t.http.get(`${URL}/sf_AAAAAAAAAAAAAAAAAAAAAAAA`)).body).toEqual({ message: 'Unauthorized' });
      const response = await t.http.post(URL).send({ organizationId: '3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d', filterConfiguration: {} });
      expect(response.status).toBe(401);
    });
  });

  it('keeps filters across a restart of the application (same store)', async () => {
    const org = await t.newOrganization();
    const id = await createId(org, { metadata: { name: 'durable' } });
    await t.close();
    t = await TestApp.start(); // afterAll closes this one
    redis = t.app.get<Redis | null>(REDIS);
    config = t.app.get<AppConfig>(APP_CONFIG);
    const response = await read(org, id);
    expect(response.status).toBe(200);
    expect(response.body.data.filterConfiguration.metadata.name).toBe('durable');
  });
});
