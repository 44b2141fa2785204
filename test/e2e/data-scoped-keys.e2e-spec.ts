// modes: embedded server cluster — the key's scope in every statement
import { createHash } from 'node:crypto';
import { sumDecimals } from '../support/decimals';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 19, data-scoped keys: a key created with a data scope (Filters without dates) sees only its slice
 * of the organisation on every endpoint, and no request can widen it. Every row outside the slice carries
 * a marker (account, service, tag value, category value) that must never appear in any answer.
 */
const API = '/v1/cost-insights';
const RANGE = { start: '2026-10-01', end: '2026-10-31' };
const OUTSIDE_ACCOUNT = '999999999999';
const OUTSIDE_TEAM = 'marker-team-outside';
const OUTSIDE_UNIT = 'marker-unit-outside';
const OUTSIDE_SERVICE = 'Marker Outside Service';

/** The payments team's slice: its tag, minus the Support service. */
const PAYMENTS_SCOPE = {
  inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] },
  exclusions: { services: ['Support'] },
};

const ROWS: RowInput[] = [
  // Inside the slice.
  {
    usage_date: '2026-10-01',
    account_id: '111111111111',
    service: 'Amazon EC2',
    amortized_cost: '10.25',
    resource_tags: { team: 'payments', env: 'prod' },
    cost_categories: { Unit: 'Retail' },
  },
  {
    usage_date: '2026-10-02',
    account_id: '222222222222',
    service: 'Amazon S3',
    amortized_cost: '0.0000000001',
    resource_tags: { team: 'payments' },
    cost_categories: { Unit: 'Retail' },
  },
  { usage_date: '2026-09-15', account_id: '111111111111', service: 'Amazon EC2', amortized_cost: '3', resource_tags: { team: 'payments' } },
  // Outside: another team, no tag, and the excluded service of the right team.
  {
    usage_date: '2026-10-01',
    account_id: OUTSIDE_ACCOUNT,
    account_name: 'Marker Account',
    service: OUTSIDE_SERVICE,
    amortized_cost: '1000',
    resource_tags: { team: OUTSIDE_TEAM, env: 'marker-env' },
    cost_categories: { Unit: OUTSIDE_UNIT },
  },
  {
    usage_date: '2026-10-03',
    account_id: OUTSIDE_ACCOUNT,
    service: OUTSIDE_SERVICE,
    amortized_cost: '500',
    cost_categories: { Unit: OUTSIDE_UNIT },
  },
  {
    usage_date: '2026-10-04',
    account_id: '111111111111',
    service: 'Support',
    amortized_cost: '77',
    resource_tags: { team: 'payments' },
    cost_categories: { Unit: OUTSIDE_UNIT },
  },
];
const inside = (row: RowInput) => row.resource_tags?.team === 'payments' && row.service !== 'Support';
const MARKERS = [
  OUTSIDE_ACCOUNT,
  OUTSIDE_TEAM,
  OUTSIDE_UNIT,
  OUTSIDE_SERVICE,
  'Marker Account',
  'marker-env',
  'Support',
  '"77"',
  ':77',
  ':1000',
  ':500',
];

describe('data-scoped keys', () => {
  let t: TestApp;
  let orgId: string;
  let whole: TestOrganization;
  let payments: TestOrganization;

  beforeAll(async () => {
    // Background merges of this organisation's parts change its data version: read it once, so only this
    // app's own writes do (the cache checks below expect hits).
    t = await TestApp.start({ settings: { RESULT_CACHE_VERSION_CHECK_MS: '600000' } });
    whole = await t.newOrganization();
    orgId = whole.organizationId;
    payments = await t.keyFor(orgId, undefined, PAYMENTS_SCOPE);
    await t.insertRows(orgId, ROWS);
  });
  afterAll(() => t.close());

  const post = (key: TestOrganization, path: string, body: object) => t.http.post(`${API}/${path}`).set(key.auth).send(body);
  const expectNoMarker = (text: string) => {
    for (const marker of MARKERS) expect([marker, text.includes(marker)]).toEqual([marker, false]);
  };

  it('/data counts only rows inside the scope, in items and summary', async () => {
    const response = await post(payments, 'data', {
      filters: { inclusions: { dateRange: RANGE } },
      groupBy: { dateGrouping: 'monthly', dimension: 'account' },
    });
    expect(response.status).toBe(200);
    const october = ROWS.filter((row) => inside(row) && row.usage_date.startsWith('2026-10'));
    expect(response.body.data.summary.total_amortized_cost).toBe(sumDecimals(october.map((row) => row.amortized_cost!)));
    expect(response.body.data.items.map((item: { dimension_value: string }) => item.dimension_value)).toEqual([
      '111111111111',
      '222222222222',
    ]);
    expectNoMarker(response.text);
    // The whole-organisation key of the same organisation sees everything.
    const all = await post(whole, 'data', { filters: { inclusions: { dateRange: RANGE } }, groupBy: { dateGrouping: 'monthly' } });
    expect(all.body.data.summary.total_amortized_cost).toBe(
      sumDecimals(ROWS.filter((row) => row.usage_date.startsWith('2026-10')).map((row) => row.amortized_cost!)),
    );
  });

  it('cannot be widened by the request: asking for rows outside the scope finds nothing', async () => {
    for (const inclusions of [
      { accountIds: [OUTSIDE_ACCOUNT] },
      { services: ['Support'] },
      { resourceTag: 'team', resourceTagValues: [OUTSIDE_TEAM] },
      { costCategory: 'Unit', costCategoryValues: [OUTSIDE_UNIT] },
    ]) {
      const response = await post(payments, 'data', {
        filters: { inclusions: { ...inclusions, dateRange: RANGE } },
        groupBy: { dateGrouping: 'daily', dimension: 'service' },
      });
      expect([inclusions, response.status, response.body.data.items]).toEqual([inclusions, 200, []]);
      expect(response.body.data.summary.total_amortized_cost).toBe(0);
    }
    // Exclusions only narrow further.
    const narrower = await post(payments, 'data', {
      filters: { inclusions: { dateRange: RANGE }, exclusions: { services: ['Amazon S3'] } },
      groupBy: { dateGrouping: 'monthly' },
    });
    expect(narrower.body.data.summary.total_amortized_cost).toBe(10.25);
  });

  it('/compare compares only the slice', async () => {
    const response = await post(payments, 'compare', {
      baselinePeriod: { start: '2026-09-01', end: '2026-09-30' },
      comparisonPeriod: RANGE,
      metric: 'amortized_cost',
      groupBy: { dimension: 'service', dateGrouping: 'monthly' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.comparisons.map((row: { dimension_value: string }) => row.dimension_value).sort()).toEqual([
      'Amazon EC2',
      'Amazon S3',
    ]);
    expect(response.body.data.totals).toMatchObject({ baseline: 3, comparison: sumDecimals(['10.25', '0.0000000001']) });
    expectNoMarker(response.text);
  });

  it('/filters lists only the slice’s options, its own fields included, and tag values, names and enriched alike', async () => {
    const response = await post(payments, 'filters', { filters: { inclusions: { dateRange: RANGE, accountIds: [OUTSIDE_ACCOUNT] } } });
    expect(response.status).toBe(200);
    const data = response.body.data;
    // Cross-filtering leaves the accountIds filter out of the accounts list, but never the scope.
    expect(data.accounts).toEqual(['111111111111', '222222222222']);
    expect(data.services).toEqual([]);
    const unfiltered = (await post(payments, 'filters', { filters: { inclusions: { dateRange: RANGE } } })).body.data;
    expect(unfiltered.services).toEqual(['Amazon EC2', 'Amazon S3']);
    expect(unfiltered.tagValues).toEqual({ env: ['prod'], team: ['payments'] });
    expect(unfiltered.costCategories).toEqual(['Unit']);
    expect(Object.keys(unfiltered.accountIdToName).sort()).toEqual(['111111111111', '222222222222']);
    expectNoMarker(response.text);
    expectNoMarker(JSON.stringify(unfiltered));
  });

  it('/tag-values and /cost-category-values list only values seen inside the scope (paged too)', async () => {
    const teams = await post(payments, 'tag-values', { tagKey: 'team' });
    expect(teams.body.data).toEqual({ values: ['payments'] });
    const units = await post(payments, 'cost-category-values', { categoryKey: 'Unit' });
    expect(units.body.data).toEqual({ values: ['Retail'] });
    const paged = await post(payments, 'cost-category-values', { categoryKey: 'Unit', limit: 1 });
    expect(paged.body.data.values).toEqual(['Retail']);
    expect(paged.body.data.nextCursor).toBeUndefined();
    // The same organisation's whole key sees the rest.
    expect((await post(whole, 'tag-values', { tagKey: 'team' })).body.data.values).toEqual([OUTSIDE_TEAM, 'payments']);
  });

  it('never serves one scope’s cached answer to another, and tells the freshness of the slice', async () => {
    const question = { filters: { inclusions: { dateRange: RANGE } }, groupBy: { dateGrouping: 'monthly' } };
    const all = await post(whole, 'data', question);
    const again = await post(whole, 'data', question);
    expect(again.headers['cache-status']).toBe('cost-insights-api; hit');
    const scoped = await post(payments, 'data', question);
    expect(scoped.headers['cache-status']).toBe('cost-insights-api; fwd=miss');
    expect(scoped.body.data.summary.total_amortized_cost).not.toBe(all.body.data.summary.total_amortized_cost);
    // The organisation's last day is the excluded Support row's; the slice's is its own.
    expect(all.headers['x-data-through']).toBe('2026-10-04');
    expect(scoped.headers['x-data-through']).toBe('2026-10-02');
    expect(scoped.headers['x-data-imported-at']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const filters = await post(payments, 'filters', { fields: ['clouds'] });
    expect(filters.body.data).toMatchObject({ dataThrough: '2026-10-02', dataImportedAt: scoped.headers['x-data-imported-at'] });
    // A scope that sees nothing: no freshness at all.
    const nobody = await t.keyFor(orgId, undefined, { inclusions: { accountIds: ['000000000000'] } });
    const empty = await post(nobody, 'data', question);
    expect([empty.headers['x-data-through'], empty.headers['x-data-imported-at']]).toEqual([undefined, undefined]);
    // A second key with the very same scope (spelled differently) shares its answers.
    const sameScope = await t.keyFor(orgId, undefined, {
      exclusions: { services: ['Support'] },
      inclusions: { resourceTagValues: ['payments'], resourceTag: 'team' },
    });
    const shared = await post(sameScope, 'data', question);
    expect(shared.headers['cache-status']).toBe('cost-insights-api; hit');
    expect(shared.text).toBe(scoped.text);
  });

  it('reads a shared filter only under the scope it was created with; a whole-organisation key reads them all', async () => {
    const create = async (key: TestOrganization) =>
      (
        await post(key, 'shared-filters', {
          organizationId: orgId,
          filterConfiguration: { filters: { inclusions: { services: ['Amazon EC2'] } } },
        })
      ).body.data.filterId as string;
    const read = (key: TestOrganization, id: string) => t.http.get(`${API}/shared-filters/${id}`).set(key.auth);
    const byPayments = await create(payments);
    const byWhole = await create(whole);
    const samePayments = await t.keyFor(orgId, undefined, PAYMENTS_SCOPE);
    const otherTeam = await t.keyFor(orgId, undefined, { inclusions: { resourceTag: 'team', resourceTagValues: [OUTSIDE_TEAM] } });

    expect((await read(samePayments, byPayments)).status).toBe(200);
    expect((await read(whole, byPayments)).status).toBe(200);
    expect((await read(payments, byWhole)).status).toBe(500); // the spec's not-found
    const refused = await read(otherTeam, byPayments);
    const missing = await read(otherTeam, 'sf_AAAAAAAAAAAAAAAAAAAAAAAA');
    expect([refused.status, refused.body]).toEqual([missing.status, missing.body]);
  });

  it('gives anomaly feedback only on series inside its scope: outside is the 404 of an unknown id; ids are keyed; each feedback is audited', async () => {
    // Its own organisation: 60 days of EC2 (payments) and of the outside service (another team) at 100, each +400 five days ago.
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const daily = (service: string, team: string, amount: (ago: number) => number): RowInput[] =>
      Array.from({ length: 60 }, (_, i) => ({
        usage_date: day(60 - i),
        account_id: '111111111111',
        service,
        amortized_cost: String(amount(60 - i)),
        resource_tags: { team },
      }));
    const spike = (ago: number) => (ago === 5 ? 500 : 100);
    const own = await t.newOrganization();
    const scoped = await t.keyFor(own.organizationId, undefined, PAYMENTS_SCOPE);
    await t.insertRows(own.organizationId, [...daily('Amazon EC2', 'payments', spike), ...daily(OUTSIDE_SERVICE, OUTSIDE_TEAM, spike)]);
    const scan = async (key: TestOrganization) =>
      (await post(key, 'anomalies', {})).body.data.anomalies as Array<{ id: string; dimension_value: string; feedback: string | null }>;
    const feedback = (key: TestOrganization, id: string) =>
      t.http.post(`${API}/anomalies/${id}/feedback`).set(key.auth).send({ reason: 'expected' });

    const all = await scan(own);
    expect(all.map((anomaly) => anomaly.dimension_value).sort()).toEqual(['Amazon EC2', OUTSIDE_SERVICE]);
    const inside = all.find((anomaly) => anomaly.dimension_value === 'Amazon EC2')!;
    const outside = all.find((anomaly) => anomaly.dimension_value === OUTSIDE_SERVICE)!;
    // The slice's scan reports its own series' anomaly under the same id.
    expect((await scan(scoped)).map((anomaly) => anomaly.id)).toEqual([inside.id]);

    // Not computable: no unkeyed digest of (organisation, dimension, value, first day) gives the id.
    const firstDay = Math.round(Date.parse(`${day(5)}T00:00:00Z`) / 86_400_000);
    const unkeyed = (value: string) =>
      `an_${createHash('sha256')
        .update(JSON.stringify([own.organizationId, 'service', value, firstDay]))
        .digest('hex')
        .slice(0, 24)}`;
    expect([inside.id, outside.id]).not.toContain(unkeyed('Amazon EC2'));
    expect([inside.id, outside.id]).not.toContain(unkeyed(OUTSIDE_SERVICE));

    // Outside the slice: the very status and body of an id that does not exist; nothing recorded.
    const refused = await feedback(scoped, outside.id);
    const unknown = await feedback(scoped, 'an_000000000000000000000000');
    expect(refused.status).toBe(404);
    expect([refused.status, refused.body]).toEqual([unknown.status, unknown.body]);
    expect((await scan(own)).find((anomaly) => anomaly.id === outside.id)?.feedback).toBeNull();
    // Inside it: recorded, and in the audit trail with the scoped key as its actor.
    const given = await feedback(scoped, inside.id);
    expect([given.status, given.body.data.id]).toEqual([200, inside.id]);
    expect((await scan(own)).find((anomaly) => anomaly.id === inside.id)?.feedback).toBe('expected');
    const events = await t.http.get('/v1/admin/audit-events').set(own.auth);
    expect(events.body.data.events).toEqual([
      expect.objectContaining({
        action: 'anomaly.feedback-given',
        actor: { kind: 'api-key', id: scoped.keyId, email: null },
        target: inside.id,
        details: { reason: 'expected', dimension: 'service', dimensionValue: 'Amazon EC2', start: day(5), end: day(5) },
      }),
    ]);
  });

  it('is refused at creation when it names dates, unknown fields or bad values, and changes nothing for keys without one', async () => {
    for (const scope of [
      { inclusions: { dateRange: RANGE } },
      { inclusions: { billingPeriods: ['2026-10'] } },
      { inclusions: { team: ['payments'] } },
      { inclusions: { services: 'Amazon EC2' } },
      { inclusions: { resourceTagValues: ['payments'] } },
    ]) {
      await expect(t.keyFor(orgId, undefined, scope as never)).rejects.toMatchObject({ details: expect.any(Array) });
    }
    const plain = await t.keyFor(orgId);
    const response = await post(plain, 'tag-values', { tagKey: 'team' });
    expect(response.body.data.values).toEqual([OUTSIDE_TEAM, 'payments']);
  });
});
