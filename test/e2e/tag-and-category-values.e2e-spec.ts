import { addDays, todayUtc } from '../../src/cost-query/date-bucketing';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/** Keys and values that must travel as data: quotes, backslashes, SQL, placeholders, control characters, unicode. */
const HOSTILE = [
  "it's",
  'say "hi"',
  'back\\slash\\',
  "x') OR 1=1 --",
  '{p0:String}',
  'tab\there',
  'line\nbreak',
  'ключ 🔑',
  '%_*',
];

const ENDPOINTS = [
  { path: '/v1/cost-insights/tag-values', keyField: 'tagKey', column: 'resource_tags' },
  { path: '/v1/cost-insights/cost-category-values', keyField: 'categoryKey', column: 'cost_categories' },
] as const;

describe('POST /v1/cost-insights/tag-values and /cost-category-values', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  describe.each(ENDPOINTS)('$path', ({ path, keyField, column }) => {
    const post = (org: TestOrganization, body: unknown) => t.http.post(path).set(org.auth).send(body as object);
    const row = (usage_date: string, map: Record<string, string>, amortized_cost = '1'): RowInput => ({
      usage_date,
      [column]: map,
      amortized_cost,
    });

    it('lists the distinct non-empty values of the key, ascending, over all time, for the caller’s organisation only', async () => {
      const a = await t.newOrganization();
      const b = await t.newOrganization();
      const today = todayUtc();
      const rowsA = [
        row('2026-10-01', { 'Business Unit': 'Retail', env: 'production' }),
        row('2026-10-02', { 'Business Unit': 'Platform', env: 'staging' }),
        row('2026-10-03', { 'Business Unit': 'Retail', env: 'production' }),
        row('2019-01-15', { 'Business Unit': 'Legacy', env: 'archive' }), // years ago: still listed
        row(addDays(today, -1), { 'Business Unit': 'data', env: 'development' }),
        row('2026-10-04', { 'Business Unit': '', env: '' }), // empty value: not listed
        row('2026-10-05', { other: 'x' }), // key absent
      ];
      await t.insertRows(a.organizationId, rowsA);
      await t.insertRows(b.organizationId, [
        row('2026-10-01', { 'Business Unit': 'Org B unit', env: 'org-b-env' }),
      ]);

      for (const key of ['Business Unit', 'env']) {
        const expected = [...new Set(rowsA.map((r) => (r[column] as Record<string, string>)[key]).filter(Boolean))].sort();
        const response = await post(a, { [keyField]: key });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ success: true, data: { values: expected } });
      }
      const responseB = await post(b, { [keyField]: 'env' });
      expect(responseB.body.data.values).toEqual(['org-b-env']);
    });

    it('answers [] for a key the organisation does not have (another organisation’s key included)', async () => {
      const a = await t.newOrganization();
      const b = await t.newOrganization();
      await t.insertRows(a.organizationId, [row('2026-10-01', { env: 'prod' })]);
      await t.insertRows(b.organizationId, [row('2026-10-01', { 'only-in-b': 'secret' })]);
      const response = await post(a, { [keyField]: 'only-in-b' });
      expect(response.status).toBe(200);
      expect(response.body.data.values).toEqual([]);
    });

    it('matches the key exactly (case-sensitive, no patterns)', async () => {
      const a = await t.newOrganization();
      await t.insertRows(a.organizationId, [row('2026-10-01', { Env: 'upper', env: 'lower', 'env%': 'percent' })]);
      expect((await post(a, { [keyField]: 'env' })).body.data.values).toEqual(['lower']);
      expect((await post(a, { [keyField]: 'Env' })).body.data.values).toEqual(['upper']);
      expect((await post(a, { [keyField]: 'en%' })).body.data.values).toEqual([]);
    });

    it('treats hostile keys and values as plain data', async () => {
      const a = await t.newOrganization();
      const b = await t.newOrganization();
      const map = Object.fromEntries(HOSTILE.map((key, i) => [key, `${HOSTILE[(i + 1) % HOSTILE.length]}`]));
      await t.insertRows(a.organizationId, [row('2026-10-01', map), row('2026-10-02', { [HOSTILE[0]]: HOSTILE[5] })]);
      await t.insertRows(b.organizationId, [row('2026-10-01', Object.fromEntries(HOSTILE.map((key) => [key, 'org-b'])))]);
      for (const [i, key] of HOSTILE.entries()) {
        const expected = i === 0 ? [HOSTILE[1], HOSTILE[5]].sort() : [HOSTILE[(i + 1) % HOSTILE.length]];
        const response = await post(a, { [keyField]: key });
        expect({ key, status: response.status, values: response.body.data?.values }).toEqual({ key, status: 200, values: expected });
      }
    });

    it('sorts by code point, not by locale', async () => {
      const a = await t.newOrganization();
      const values = ['b', 'B', 'a', 'é', '10', '9', 'Z'];
      await t.insertRows(a.organizationId, values.map((value, i) => row(`2026-10-${String(i + 1).padStart(2, '0')}`, { k: value })));
      expect((await post(a, { [keyField]: 'k' })).body.data.values).toEqual(['10', '9', 'B', 'Z', 'a', 'b', 'é']);
    });

    describe('validation and access', () => {
      let org: TestOrganization;
      beforeAll(async () => {
        org = await t.newOrganization();
      });
      const PREFIX = 'Invalid request. Please see message details. ';

      it.each([
        ['missing', {}, `${keyField}: Expected string, received undefined`],
        ['null', { [keyField]: null }, `${keyField}: Expected string, received null`],
        ['an empty string', { [keyField]: '' }, `${keyField}: must not be empty`],
        ['a number', { [keyField]: 42 }, `${keyField}: Expected string, received number`],
        ['an array', { [keyField]: ['env'] }, `${keyField}: Expected string, received array`],
        ['257 characters', { [keyField]: 'x'.repeat(257) }, `${keyField}: at most 256 characters`],
        ['with an unknown field', { [keyField]: 'env', extra: 1 }, 'extra: unknown field'],
      ])('answers 400 for a key that is %s', async (_label, body, detail) => {
        const response = await post(org, body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ success: false, error: { message: PREFIX + detail } });
      });

      it('accepts a key of exactly 256 characters', async () => {
        const response = await post(org, { [keyField]: 'x'.repeat(256) });
        expect(response.status).toBe(200);
        expect(response.body.data.values).toEqual([]);
      });

      it('answers 401 without a key', async () => {
        const response = await t.http.post(path).send({ [keyField]: 'env' });
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ message: 'Unauthorized' });
      });

      it('answers 403 to a key without cost:read', async () => {
        const limited = await t.newOrganization(['shared-filters:read']);
        const response = await post(limited, { [keyField]: 'env' });
        expect(response.status).toBe(403);
        expect(response.body.success).toBe(false);
      });
    });
  });

  it('stores tag and category maps in buckets (migration 0008) without automatic column statistics (0009), and reads them back whole', async () => {
    const [{ statement }] = await t.clickhouse.query<{ statement: string }>(`SHOW CREATE TABLE ${t.clickhouse.localTable('cost_line_items')}`);
    expect(statement).toMatch(/map_serialization_version = 'with_buckets'/);
    // Migration 0009: no automatic column statistics for the planner to read per part.
    expect(statement).toMatch(/auto_statistics_types = ''/);
    const a = await t.newOrganization();
    const tags = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`key-${i}`, `value-${i}`]));
    await t.insertRows(a.organizationId, [{ usage_date: '2026-10-01', resource_tags: tags, amortized_cost: '2' }]);
    const rows = await t.clickhouse.query<{ tags: Record<string, string>; team: string }>(
      `SELECT resource_tags AS tags, resource_tags['key-7'] AS team FROM ${t.clickhouse.table('cost_line_items')} WHERE organization_id = {org:UUID}`,
      { org: a.organizationId },
    );
    expect(rows).toEqual([{ tags, team: 'value-7' }]);
    const values = await t.http.post('/v1/cost-insights/tag-values').set(a.auth).send({ tagKey: 'key-7' });
    expect(values.body.data.values).toEqual(['value-7']);
  });

  it('keeps tags and cost categories apart', async () => {
    const a = await t.newOrganization();
    await t.insertRows(a.organizationId, [
      { usage_date: '2026-10-01', resource_tags: { shared: 'from-tag' }, cost_categories: { shared: 'from-category' } },
    ]);
    const tags = await t.http.post('/v1/cost-insights/tag-values').set(a.auth).send({ tagKey: 'shared' });
    const categories = await t.http.post('/v1/cost-insights/cost-category-values').set(a.auth).send({ categoryKey: 'shared' });
    expect(tags.body.data.values).toEqual(['from-tag']);
    expect(categories.body.data.values).toEqual(['from-category']);
  });
});
