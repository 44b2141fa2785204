// modes: embedded server cluster — the organisation in every statement
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Response } from 'supertest';
import { TestApp, TestOrganization } from '../support/test-app';
import { sumDecimals } from '../support/decimals';

/**
 * BOLA matrix: organisation A's keys against every endpoint, aimed at everything of organisation B
 * (data, tag and cost-category keys and values, accounts, integrations, shared filters), each with a
 * distinctive marker. Nothing of B may appear in any of A's answers (the raw JSON text is scanned), and
 * A cannot tell B's shared filter from one that does not exist (identical status and body).
 * Positive control: the same requests with B's key do show the markers, so the scan can see them.
 */
const MARK = `bsecret${randomBytes(4).toString('hex')}`;
const B_AMOUNT = '987654.3219876543';
const RANGE = { start: '2026-10-01', end: '2026-10-31' };
const DIMENSIONS = [
  'costLayer',
  'cloud',
  'service',
  'resourceFamily',
  'region',
  'instanceType',
  'usageType',
  'billingPeriod',
  'costType',
  'account',
  'integration',
];
const B_TAG = `${MARK}-tagkey`;
/** A bound against a hang, not a speed: the matrix's ~100 requests took over 60 s on a loaded cluster. */
const MATRIX_TIMEOUT_MS = 180_000;
const B_CATEGORY = `${MARK}-category`;

describe('tenant isolation (BOLA matrix)', () => {
  let t: TestApp;
  let a: TestOrganization;
  let b: TestOrganization;
  let bFilterId: string;
  const aRows = [
    { usage_date: '2026-10-02', amortized_cost: '10.5', resource_tags: { env: 'prod' }, cost_categories: { 'Business Unit': 'Core' } },
    { usage_date: '2026-10-20', service: 'Amazon S3', amortized_cost: '4.25' },
  ];

  const sourcesRoot = resolve(process.env.E2E_TMP_DIR ?? '.test-tmp', `tenant-sources-${randomUUID()}`);

  beforeAll(async () => {
    t = await TestApp.start({ settings: { INGEST_FILE_ROOT: sourcesRoot } });
    a = await t.newOrganization();
    b = await t.newOrganization();
    await t.insertRows(a.organizationId, aRows);
    // Every attribute of B carries the marker; B shares A's tag and category keys too (with marked values).
    await t.insertRows(b.organizationId, [
      {
        usage_date: '2026-10-02',
        cost_layer: `${MARK}-layer`,
        cloud: `${MARK}-cloud`,
        service: `${MARK}-service`,
        resource_family: `${MARK}-family`,
        region: `${MARK}-region`,
        instance_type: `${MARK}-itype`,
        usage_type: `${MARK}-utype`,
        cost_type: `${MARK}-ctype`,
        account_id: `${MARK}-account`,
        account_name: `${MARK}-account-name`,
        integration_id: `${MARK}-integration`,
        billing_currency: 'CHF',
        billing_account_id: `${MARK}-billing-account`,
        invoice_id: `${MARK}-invoice`,
        invoice_issuer: `${MARK}-issuer`,
        resource_tags: { [B_TAG]: `${MARK}-tagvalue`, env: `${MARK}-env` },
        cost_categories: { [B_CATEGORY]: `${MARK}-catvalue`, 'Business Unit': `${MARK}-bu` },
        amortized_cost: B_AMOUNT,
        on_demand_cost: B_AMOUNT,
        billed_cost: B_AMOUNT,
        cash_cost: B_AMOUNT,
        commitment_savings: B_AMOUNT,
      },
      // Same values as A's rows, so "B's data merged in" would change A's totals.
      { usage_date: '2026-10-20', service: 'Amazon S3', amortized_cost: B_AMOUNT },
    ]);
    const created = await t.http
      .post('/v1/cost-insights/shared-filters')
      .set(b.auth)
      .send({
        organizationId: b.organizationId,
        filterConfiguration: {
          filters: { inclusions: { services: [`${MARK}-service`], resourceTag: B_TAG, resourceTagValues: [`${MARK}-tagvalue`] } },
          metadata: { name: `${MARK}-filter-name`, description: `${MARK}-filter-description` },
        },
      });
    expect(created.status).toBe(201);
    bFilterId = created.body.data.filterId;
    const rates = await t.http
      .post(`/v1/admin/exchange-rates?source=${MARK}-source`)
      .set(b.auth)
      .set('Content-Type', 'text/csv')
      .send('date,from,to,rate\n2026-10-02,CHF,USD,1.13\n2026-10-02,CHF,SEK,12.25\n');
    expect(rates.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  const bValues = {
    costLayers: [`${MARK}-layer`],
    clouds: [`${MARK}-cloud`],
    services: [`${MARK}-service`],
    resourceFamilies: [`${MARK}-family`],
    regions: [`${MARK}-region`],
    instanceTypes: [`${MARK}-itype`],
    usageTypes: [`${MARK}-utype`],
    costTypes: [`${MARK}-ctype`],
    accountIds: [`${MARK}-account`],
    integrationIds: [`${MARK}-integration`],
  };

  /** Every request of the matrix, for a given organisation's key. */
  function matrix(org: TestOrganization): Array<() => Promise<Response>> {
    const post = (path: string, body: object) => () => t.http.post(`/v1/cost-insights/${path}`).set(org.auth).send(body);
    const groupings = [...DIMENSIONS, `tag:${B_TAG}`, 'tag:env', `costCategory:${B_CATEGORY}`, 'costCategory:Business Unit'];
    const filterSets: object[] = [
      { inclusions: { dateRange: RANGE } },
      ...Object.entries(bValues).map(([field, values]) => ({ inclusions: { dateRange: RANGE, [field]: values } })),
      { inclusions: { dateRange: RANGE, resourceTag: B_TAG } },
      { inclusions: { dateRange: RANGE, resourceTag: 'env', resourceTagValues: [`${MARK}-env`] } },
      { inclusions: { dateRange: RANGE, costCategory: B_CATEGORY, costCategoryValues: [`${MARK}-catvalue`] } },
      { inclusions: { dateRange: RANGE }, exclusions: { services: ['Amazon EC2'] } },
    ];
    const requests: Array<() => Promise<Response>> = [];
    for (const dimension of groupings) {
      requests.push(post('data', { filters: { inclusions: { dateRange: RANGE } }, groupBy: { dateGrouping: 'monthly', dimension } }));
      requests.push(
        post('compare', {
          baselinePeriod: { start: '2026-09-01', end: '2026-09-30' },
          comparisonPeriod: RANGE,
          metric: 'amortized_cost',
          groupBy: { dateGrouping: 'monthly', dimension },
        }),
      );
    }
    requests.push(
      post('data', {
        filters: { inclusions: { dateRange: RANGE } },
        groupBy: { dateGrouping: 'daily', dimensions: ['service', `tag:${B_TAG}`, 'account'] },
      }),
    );
    for (const filters of filterSets) {
      requests.push(post('data', { filters, groupBy: { dateGrouping: 'daily', dimension: 'service' } }));
      requests.push(post('filters', { filters }));
      requests.push(post('filters', { filters, fields: ['resourceTags', 'costCategories', 'accounts'] }));
    }
    requests.push(post('tag-values', { tagKey: B_TAG }), post('tag-values', { tagKey: 'env' }));
    requests.push(
      post('cost-category-values', { categoryKey: B_CATEGORY }),
      post('cost-category-values', { categoryKey: 'Business Unit' }),
    );
    // Attempts to name B's organisation in a body: refused, never widening the scope.
    requests.push(post('data', { organizationId: b.organizationId, groupBy: { dateGrouping: 'monthly' } }));
    requests.push(post('filters', { organizationId: b.organizationId }));
    requests.push(post('shared-filters', { organizationId: b.organizationId, filterConfiguration: { metadata: { name: 'x' } } }));
    requests.push(() => t.http.get(`/v1/cost-insights/shared-filters/${bFilterId}`).set(org.auth));
    // Invoices, under every filter; the currency settings (billing currencies, loaded rates and their sources).
    for (const filters of filterSets) requests.push(post('invoices', { filters }));
    requests.push(post('invoices', {}));
    requests.push(() => t.http.get('/v1/admin/currency').set(org.auth));
    // Forecasts of every grouping (history: the last 119 complete days, whenever the suite runs).
    const forecastEnd = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    for (const dimension of groupings) requests.push(post('forecast', { forecastEnd, groupBy: { dimension } }));
    // Anomalies monitored by every grouping, under every filter, with root causes over every tag.
    for (const dimension of groupings) requests.push(post('anomalies', { dimension, minImpact: 0, minImpactPercentage: 0 }));
    for (const filters of filterSets) requests.push(post('anomalies', { filters, minImpact: 0, minImpactPercentage: 0 }));
    return requests;
  }

  it(
    "never shows anything of B in A's answers, on every endpoint",
    async () => {
      let requests = 0;
      let bytes = 0;
      const leaks: string[] = [];
      const statuses = new Map<number, number>();
      for (const request of matrix(a)) {
        const response = await request();
        requests += 1;
        bytes += response.text.length;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status).not.toBe(401);
        // A's own request echoed back (the dimension names A grouped by) is not B's data.
        const text = response.text
          .split(JSON.stringify(`tag:${B_TAG}`))
          .join('')
          .split(JSON.stringify(`costCategory:${B_CATEGORY}`))
          .join('');
        for (const needle of [MARK, b.organizationId, '987654', bFilterId.slice(3), 'CHF']) {
          if (text.includes(needle)) leaks.push(`${response.status} ${needle}: ${text.slice(0, 300)}`);
        }
      }
      console.log(
        `tenant-isolation[${process.env.E2E_MODE}]: ${requests} requests by A aimed at B (${bytes} bytes of answers scanned), ` +
          `statuses ${JSON.stringify(Object.fromEntries(statuses))}, leaks ${leaks.length}`,
      );
      expect(leaks).toEqual([]);
      expect(statuses.get(200)).toBeGreaterThan(50);
    },
    MATRIX_TIMEOUT_MS,
  );

  it("answers A's queries from A's rows only (totals exact)", async () => {
    const response = await t.http
      .post('/v1/cost-insights/data')
      .set(a.auth)
      .send({ filters: { inclusions: { dateRange: RANGE } }, groupBy: { dateGrouping: 'monthly', dimension: 'service' } });
    expect(response.status).toBe(200);
    expect(response.body.data.summary.total_amortized_cost).toBe(sumDecimals(aRows.map((r) => r.amortized_cost)));
    const tags = await t.http.post('/v1/cost-insights/tag-values').set(a.auth).send({ tagKey: 'env' });
    expect(tags.body.data).toEqual({ values: ['prod'] });
    const foreignTag = await t.http.post('/v1/cost-insights/tag-values').set(a.auth).send({ tagKey: B_TAG });
    expect(foreignTag.body).toEqual({ success: true, data: { values: [] } });
  });

  it(
    'shows the markers to B itself (the scan would see a leak)',
    async () => {
      let seen = 0;
      for (const request of matrix(b)) {
        const response = await request();
        if (response.text.includes(MARK)) seen += 1;
      }
      expect(seen).toBeGreaterThan(30);
    },
    MATRIX_TIMEOUT_MS,
  );

  it("does not let A tell B's shared filter from a missing one", async () => {
    const randomId = `sf_${randomBytes(18).toString('base64url')}`;
    const forB = await t.http.get(`/v1/cost-insights/shared-filters/${bFilterId}`).set(a.auth);
    const forRandom = await t.http.get(`/v1/cost-insights/shared-filters/${randomId}`).set(a.auth);
    expect({ status: forB.status, body: forB.body }).toEqual({ status: forRandom.status, body: forRandom.body });
    expect(forB.body).toEqual({ success: false, error: { message: 'Shared filter not found or has expired.' } });
    // Same headers apart from the per-request ones.
    const stable = (r: Response) =>
      Object.keys(r.headers)
        .filter((h) => !/^(date|x-ratelimit-remaining|x-ratelimit-reset|etag|x-request-id)$/.test(h))
        .sort();
    expect(stable(forB)).toEqual(stable(forRandom));
    // B reads it.
    // Deleting answers as reading does, and B's filter stays.
    const deleteB = await t.http.delete(`/v1/cost-insights/shared-filters/${bFilterId}`).set(a.auth);
    const deleteRandom = await t.http.delete(`/v1/cost-insights/shared-filters/${randomId}`).set(a.auth);
    expect({ status: deleteB.status, body: deleteB.body }).toEqual({ status: deleteRandom.status, body: deleteRandom.body });
    expect(deleteB.body).toEqual(forB.body);
    const own = await t.http.get(`/v1/cost-insights/shared-filters/${bFilterId}`).set(b.auth);
    expect(own.status).toBe(200);
    expect(own.body.data.filterConfiguration.metadata.name).toBe(`${MARK}-filter-name`);
  });

  it("does not let A tell B's anomaly from a missing one, nor give it feedback", async () => {
    // An organisation of B's with an anomaly (40 days at 100, 500 three days ago), apart from B's rows above.
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const bAnomalies = await t.newOrganization();
    await t.insertRows(
      bAnomalies.organizationId,
      Array.from({ length: 40 }, (_, i) => ({
        usage_date: day(40 - i),
        service: `${MARK}-service`,
        amortized_cost: 40 - i === 3 ? '500' : '100',
      })),
    );
    const [anomaly] = (await t.http.post('/v1/cost-insights/anomalies').set(bAnomalies.auth).send({})).body.data.anomalies as Array<{
      id: string;
    }>;
    const feedback = (key: TestOrganization, id: string) =>
      t.http.post(`/v1/cost-insights/anomalies/${id}/feedback`).set(key.auth).send({ reason: 'expected' });
    const forB = await feedback(a, anomaly.id);
    const forRandom = await feedback(a, `an_${randomBytes(12).toString('hex')}`);
    expect({ status: forB.status, body: forB.body }).toEqual({ status: forRandom.status, body: forRandom.body });
    expect(forB.status).toBe(404);
    expect(forB.text).not.toContain(MARK);
    const again = (await t.http.post('/v1/cost-insights/anomalies').set(bAnomalies.auth).send({})).body.data.anomalies;
    expect(again).toEqual([expect.objectContaining({ id: anomaly.id, feedback: null })]);
  });

  it("does not let A see, run, read or remove B's data source, nor add B's folder as its own", async () => {
    const bFolder = join(sourcesRoot, b.organizationId, `${MARK}-folder`);
    mkdirSync(bFolder, { recursive: true });
    const settled = new Date(Date.now() - 3_600_000); // older than INGEST_SETTLE_SECONDS: B's delivery is complete
    writeFileSync(
      join(bFolder, 'b.csv'),
      'BilledCost,EffectiveCost,ListCost,ChargeCategory,ChargePeriodStart,BillingPeriodStart,BillingAccountId,ServiceName,ProviderName,BillingCurrency\n' +
        `1,1,1,Usage,2026-10-03T00:00:00Z,2026-10-01T00:00:00Z,1,${MARK}-source-service,AWS,USD\n`,
    );
    utimesSync(join(bFolder, 'b.csv'), settled, settled);
    const added = await t.http
      .post('/v1/admin/sources')
      .set(b.auth)
      .send({ integrationId: `${MARK}-source`, kind: 'focus-files', url: `file://${bFolder}` });
    expect(added.status).toBe(201);
    const bSource = added.body.data.sourceId as string;
    expect((await t.http.post(`/v1/admin/sources/${bSource}/run`).set(b.auth)).status).toBe(200);

    const listed = await t.http.get('/v1/admin/sources').set(a.auth);
    expect([listed.status, listed.text]).toEqual([200, expect.not.stringContaining(MARK)]);
    const answers = async (id: string) =>
      Promise.all([
        t.http.post(`/v1/admin/sources/${id}/run`).set(a.auth),
        t.http.get(`/v1/admin/sources/${id}/history`).set(a.auth),
        t.http.delete(`/v1/admin/sources/${id}`).set(a.auth),
      ]).then((responses) => responses.map((r) => ({ status: r.status, body: r.body as unknown })));
    const forB = await answers(bSource);
    expect(forB).toEqual(await answers(randomUUID()));
    expect(forB.map((r) => r.status)).toEqual([404, 404, 404]);
    const add = (url: string) => t.http.post('/v1/admin/sources').set(a.auth).send({ integrationId: 'x', kind: 'focus-files', url });
    const theirs = await add(`file://${bFolder}`);
    const nowhere = await add(`file://${join(sourcesRoot, randomUUID(), 'x')}`);
    expect({ status: theirs.status, body: theirs.body }).toEqual({ status: nowhere.status, body: nowhere.body });
    expect([theirs.status, theirs.text]).toEqual([403, expect.not.stringContaining(MARK)]);
    // B's source is still B's, with its history.
    expect((await t.http.get(`/v1/admin/sources/${bSource}/history`).set(b.auth)).body.data).toHaveLength(1);
  });

  it("refuses to create a filter in B's name (403) and B's filters stay B's", async () => {
    const response = await t.http
      .post('/v1/cost-insights/shared-filters')
      .set(a.auth)
      .send({ organizationId: b.organizationId, filterConfiguration: {} });
    expect(response.status).toBe(403);
    expect(response.body.success).toBe(false);
    expect(response.text).not.toContain(MARK);
  });
});
