// modes: embedded server cluster — ClickHouse SQL
import { addDays, todayUtc } from '../../src/common/dates/calendar-date';
import { CostRow, RowInput, TestApp, TestOrganization } from '../support/test-app';

/** Every field of the /filters response, with the stored column each lists (map columns list keys). */
const FIELD_COLUMNS = {
  costLayers: 'cost_layer',
  clouds: 'cloud',
  services: 'service',
  resourceFamilies: 'resource_family',
  regions: 'region',
  instanceTypes: 'instance_type',
  usageTypes: 'usage_type',
  billingPeriods: 'billing_period',
  costTypes: 'cost_type',
  accounts: 'account_id',
  integrations: 'integration_id',
  billingCurrencies: 'billing_currency',
  allocatedMethods: 'allocated_method_id',
} as const;
const ALL_FIELDS = [...Object.keys(FIELD_COLUMNS), 'resourceTags', 'costCategories'];
type Field = keyof typeof FIELD_COLUMNS | 'resourceTags' | 'costCategories';

const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };

/** The documented bounds: options per field, tag keys tagValues covers, values per tag key. */
const MAX_OPTIONS = 10_000;
const MAX_TAG_KEYS = 100;
const MAX_TAG_VALUES = 100;

/** Exact sum of decimal strings (10 fractional digits, like the store), as a number. */
function sumDecimals(values: string[]): number {
  const scaled = values.reduce((total, value) => {
    const [whole, fraction = ''] = value.split('.');
    const negative = whole.startsWith('-');
    const units = BigInt(whole.replace('-', '') + fraction.padEnd(10, '0'));
    return total + (negative ? -units : units);
  }, 0n);
  return Number(scaled) / 1e10;
}

/** The options a field should list for the given rows, computed from the rows themselves. */
function expectedOptions(rows: CostRow[], field: Field): string[] {
  const values = new Set<string>();
  for (const row of rows) {
    if (field === 'resourceTags')
      Object.keys(row.resource_tags)
        .filter(Boolean)
        .forEach((key) => values.add(key));
    else if (field === 'costCategories')
      Object.keys(row.cost_categories)
        .filter(Boolean)
        .forEach((key) => values.add(key));
    else values.add(row[FIELD_COLUMNS[field]] || '(not set)');
  }
  return [...values].sort();
}

describe('POST /v1/cost-insights/filters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (org: TestOrganization, body: unknown) =>
    t.http
      .post('/v1/cost-insights/filters')
      .set(org.auth)
      .send(body as object);

  /** Two organisations with data in the same days; only the first one's values may ever appear. */
  async function twoOrganizations(rowsA: RowInput[], rowsB: RowInput[] = [{ usage_date: '2026-10-15' }]) {
    const a = await t.newOrganization();
    const b = await t.newOrganization();
    const insertedA = await t.insertRows(a.organizationId, rowsA);
    const insertedB = await t.insertRows(b.organizationId, rowsB);
    return { a, b, insertedA, insertedB };
  }

  const ORG_B_ROW: RowInput = {
    usage_date: '2026-10-10',
    cost_layer: 'B-layer',
    cloud: 'B-cloud',
    service: 'B-service',
    resource_family: 'B-family',
    region: 'b-region-1',
    instance_type: 'b.large',
    usage_type: 'B-usage',
    cost_type: 'B-cost-type',
    account_id: '999999999999',
    account_name: 'Org B account',
    integration_id: 'b-integration',
    allocated_method_id: 'b-method',
    resource_tags: { 'b-tag': 'b-value' },
    cost_categories: { 'B Category': 'B' },
    amortized_cost: '1000',
  };

  it('lists every field from the organisation’s rows, sorted, with (not set) for empty columns and nothing of another organisation', async () => {
    const rows: RowInput[] = [
      {
        usage_date: '2026-10-01',
        cost_layer: 'Infrastructure',
        cloud: 'AWS',
        service: 'Amazon S3',
        resource_family: 'Storage',
        region: 'us-east-1',
        instance_type: '',
        usage_type: 'TimedStorage-ByteHrs',
        cost_type: 'Usage',
        account_id: '111111111111',
        account_name: 'Production',
        integration_id: 'aws-main',
        resource_tags: { env: 'prod', team: 'data' },
        cost_categories: { 'Business Unit': 'Platform' },
        amortized_cost: '10.5',
      },
      {
        usage_date: '2026-10-20',
        cost_layer: 'Marketplace',
        cloud: 'Azure',
        service: 'Virtual Machines',
        resource_family: 'Compute',
        region: 'westeurope',
        instance_type: 'D4s_v5',
        usage_type: 'Compute Hours',
        cost_type: 'Tax',
        account_id: 'sub-2',
        account_name: 'Azure dev',
        integration_id: 'azure-ea',
        allocated_method_id: 'cluster-cpu-share',
        resource_tags: { env: 'dev' },
        cost_categories: { Team: 'Web', 'Business Unit': 'Retail' },
        amortized_cost: '2.25',
      },
    ];
    const { a, insertedA, insertedB } = await twoOrganizations(rows, [ORG_B_ROW]);

    const response = await post(a, { filters: { inclusions: { dateRange: OCTOBER } } });

    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const data = response.body.data;
    expect(Object.keys(data).sort()).toEqual(
      [...ALL_FIELDS, 'accountIdToName', 'tagValues', 'enriched', 'dataThrough', 'dataImportedAt', 'currency'].sort(),
    );
    for (const field of ALL_FIELDS as Field[]) {
      expect({ field, options: data[field] }).toEqual({ field, options: expectedOptions(insertedA, field) });
    }
    expect(data.instanceTypes).toContain('(not set)');
    const everything = JSON.stringify(data);
    const orgBValues = [
      ...Object.values(insertedB[0]).filter((value): value is string => typeof value === 'string' && /^(B-|b-|b\.|999|Org B)/.test(value)),
      'b-tag',
      'b-value',
      'B Category',
    ];
    expect(orgBValues).toHaveLength(15);
    for (const value of orgBValues) expect(everything).not.toContain(value);
    expect(data.accountIdToName).toEqual({ '111111111111': 'Production', 'sub-2': 'Azure dev' });
    expect(data.tagValues).toEqual({ env: ['dev', 'prod'], team: ['data'] });
    expect(Object.keys(data.enriched).sort()).toEqual([...ALL_FIELDS].sort());
  });

  it('ranks enriched options by amortized cost (computed from the rows), then by value, with account names', async () => {
    const rows: RowInput[] = [
      { usage_date: '2026-10-02', service: 'Amazon S3', account_id: '1', account_name: 'One', amortized_cost: '0.1000000001' },
      { usage_date: '2026-10-03', service: 'Amazon S3', account_id: '2', account_name: 'Two', amortized_cost: '0.2' },
      { usage_date: '2026-10-04', service: 'Amazon EC2', account_id: '2', account_name: 'Two', amortized_cost: '7.75' },
      { usage_date: '2026-10-05', service: 'AWS Lambda', account_id: '3', account_name: 'Three', amortized_cost: '0.3000000001' },
      { usage_date: '2026-10-06', service: 'Amazon RDS', account_id: '3', account_name: 'Three', amortized_cost: '-1.5' },
    ];
    const { a, insertedA } = await twoOrganizations(rows, [{ ...ORG_B_ROW, service: 'Amazon S3', account_id: '1', amortized_cost: '500' }]);

    const response = await post(a, { fields: ['services', 'accounts'], filters: { inclusions: { dateRange: OCTOBER } } });

    expect(response.status).toBe(200);
    const { enriched } = response.body.data;
    expect(Object.keys(enriched).sort()).toEqual(['accounts', 'services']);
    const expectedRanking = (column: 'service' | 'account_id') => {
      const sums = new Map<string, string[]>();
      for (const row of insertedA) sums.set(row[column], [...(sums.get(row[column]) ?? []), row.amortized_cost]);
      return [...sums.entries()]
        .map(([value, costs]) => ({ value, cost: sumDecimals(costs) }))
        .sort((x, y) => y.cost - x.cost || (x.value < y.value ? -1 : 1));
    };
    const services = expectedRanking('service');
    // S3 (0.3000000001) and Lambda (0.3000000001) tie on cost: value decides.
    expect(services.map((s) => s.value)).toEqual(['Amazon EC2', 'AWS Lambda', 'Amazon S3', 'Amazon RDS']);
    expect(enriched.services.map((e: { value: string }) => e.value)).toEqual(services.map((s) => s.value));
    enriched.services.forEach((entry: { amortized_cost: number }, i: number) =>
      expect(entry.amortized_cost).toBeCloseTo(services[i].cost, 9),
    );

    const accounts = expectedRanking('account_id');
    const names: Record<string, string> = { '1': 'One', '2': 'Two', '3': 'Three' };
    expect(enriched.accounts).toEqual(
      accounts.map((account) => ({ value: account.value, name: names[account.value], amortized_cost: expect.any(Number) })),
    );
    enriched.accounts.forEach((entry: { amortized_cost: number }, i: number) =>
      expect(entry.amortized_cost).toBeCloseTo(accounts[i].cost, 9),
    );
  });

  describe('cross-filtering', () => {
    const ROWS: RowInput[] = [
      {
        usage_date: '2026-10-05',
        service: 'Amazon S3',
        region: 'us-east-1',
        amortized_cost: '1',
        resource_tags: { env: 'prod', 'it\'s "q" \\ ü🙂': 'x' },
        cost_categories: { Team: 'Data' },
      },
      {
        usage_date: '2026-10-06',
        service: 'Amazon EC2',
        region: 'eu-west-1',
        amortized_cost: '2',
        resource_tags: { env: 'dev', team: 'web' },
        cost_categories: { Team: 'Web' },
      },
      {
        usage_date: '2026-10-07',
        service: 'AWS Lambda',
        region: 'ap-south-1',
        amortized_cost: '4',
        resource_tags: {},
        cost_categories: { Unit: 'Retail' },
      },
    ];
    const ALL_SERVICES = ['AWS Lambda', 'Amazon EC2', 'Amazon S3'];

    it('narrows other fields by a services inclusion but lists every service', async () => {
      const { a } = await twoOrganizations(ROWS, [{ ...ORG_B_ROW, service: 'Amazon S3', region: 'b-region-1', usage_date: '2026-10-05' }]);
      const response = await post(a, { filters: { inclusions: { dateRange: OCTOBER, services: ['Amazon S3'] } } });
      expect(response.status).toBe(200);
      const data = response.body.data;
      expect(data.services).toEqual(ALL_SERVICES);
      expect(data.regions).toEqual(['us-east-1']);
      expect(data.resourceTags).toEqual(['env', 'it\'s "q" \\ ü🙂']);
      expect(data.costCategories).toEqual(['Team']);
      expect(data.enriched.regions).toEqual([{ value: 'us-east-1', amortized_cost: 1 }]);
      expect(data.enriched.services.map((e: { value: string }) => e.value)).toEqual(['AWS Lambda', 'Amazon EC2', 'Amazon S3']);
    });

    it('narrows other fields by a services exclusion but lists every service', async () => {
      const { a } = await twoOrganizations(ROWS);
      const response = await post(a, { filters: { inclusions: { dateRange: OCTOBER }, exclusions: { services: ['Amazon EC2'] } } });
      expect(response.status).toBe(200);
      expect(response.body.data.services).toEqual(ALL_SERVICES);
      expect(response.body.data.regions).toEqual(['ap-south-1', 'us-east-1']);
      expect(response.body.data.resourceTags).toEqual(['env', 'it\'s "q" \\ ü🙂']);
    });

    it('applies several filters to each other field, but never a field’s own', async () => {
      const { a } = await twoOrganizations(ROWS);
      const response = await post(a, {
        filters: { inclusions: { dateRange: OCTOBER, services: ['Amazon S3', 'Amazon EC2'], regions: ['eu-west-1', 'ap-south-1'] } },
      });
      const data = response.body.data;
      expect(data.services).toEqual(['AWS Lambda', 'Amazon EC2']); // narrowed by regions only
      expect(data.regions).toEqual(['eu-west-1', 'us-east-1']); // narrowed by services only
      expect(data.clouds).toEqual(['AWS']);
      expect(data.costCategories).toEqual(['Team']); // both filters: only the EC2 row
    });

    it('narrows other fields by a tag filter while resourceTags and tagValues still list every key and value', async () => {
      const { a } = await twoOrganizations(ROWS, [{ ...ORG_B_ROW, resource_tags: { env: 'b-env-value' }, usage_date: '2026-10-05' }]);
      const response = await post(a, {
        filters: { inclusions: { dateRange: OCTOBER, resourceTag: 'env', resourceTagValues: ['prod'] } },
      });
      expect(response.status).toBe(200);
      const data = response.body.data;
      expect(data.services).toEqual(['Amazon S3']);
      expect(data.regions).toEqual(['us-east-1']);
      expect(data.resourceTags).toEqual(['env', 'it\'s "q" \\ ü🙂', 'team']);
      expect(data.tagValues).toEqual({ 'it\'s "q" \\ ü🙂': ['x'], env: ['dev', 'prod'], team: ['web'] });
      expect(data.costCategories).toEqual(['Team']);
    });

    it('filters on a hostile tag key as plain data', async () => {
      const { a } = await twoOrganizations(ROWS);
      const response = await post(a, {
        filters: { inclusions: { dateRange: OCTOBER, resourceTag: 'it\'s "q" \\ ü🙂', resourceTagValues: ['x'] } },
      });
      expect(response.status).toBe(200);
      expect(response.body.data.services).toEqual(['Amazon S3']);
    });

    it('leaves out a tag exclusion for resourceTags and a category filter for costCategories', async () => {
      const { a } = await twoOrganizations(ROWS);
      const response = await post(a, {
        filters: {
          inclusions: { dateRange: OCTOBER, costCategory: 'Team', costCategoryValues: ['Web'] },
          exclusions: { resourceTag: 'team' },
        },
      });
      const data = response.body.data;
      // Category Team=Web keeps only EC2, whose row has the excluded tag "team": nothing left for the other fields.
      expect(data.services).toEqual([]);
      // resourceTags ignores the tag exclusion (category filter still applies): the EC2 row's keys.
      expect(data.resourceTags).toEqual(['env', 'team']);
      // costCategories ignores the category filter (tag exclusion applies): rows without tag "team".
      expect(data.costCategories).toEqual(['Team', 'Unit']);
    });
  });

  describe('date window', () => {
    it('respects the dateRange, both ends included', async () => {
      const { a } = await twoOrganizations([
        { usage_date: '2026-09-30', service: 'Before' },
        { usage_date: '2026-10-01', service: 'First day', billing_period: '2026-10' },
        { usage_date: '2026-10-31', service: 'Last day', billing_period: '2026-11' },
        { usage_date: '2026-11-01', service: 'After', resource_tags: { late: 'yes' } },
      ]);
      const response = await post(a, { filters: { inclusions: { dateRange: OCTOBER } } });
      expect(response.status).toBe(200);
      expect(response.body.data.services).toEqual(['First day', 'Last day']);
      expect(response.body.data.billingPeriods).toEqual(['2026-10', '2026-11']);
      expect(response.body.data.resourceTags).toEqual([]);
    });

    it('uses the default window (last 30 days up to today) without dateRange or billingPeriods', async () => {
      const today = todayUtc();
      const { a } = await twoOrganizations(
        [
          { usage_date: addDays(today, -5), service: 'Recent', account_id: 'recent', account_name: 'Recent account' },
          { usage_date: addDays(today, -60), service: 'Old', account_id: 'old', account_name: 'Old account', resource_tags: { old: 'x' } },
        ],
        [{ usage_date: addDays(today, -5), service: 'Org B recent' }],
      );
      const response = await post(a, {});
      expect(response.status).toBe(200);
      expect(response.body.data.services).toEqual(['Recent']);
      expect(response.body.data.accountIdToName).toEqual({ recent: 'Recent account' });
      expect(response.body.data.resourceTags).toEqual([]);
    });

    it('lets billingPeriods set the window when there is no dateRange', async () => {
      const { a } = await twoOrganizations([
        { usage_date: '2026-09-15', service: 'September' },
        { usage_date: '2026-10-15', service: 'October' },
      ]);
      const response = await post(a, { fields: ['services'], filters: { inclusions: { billingPeriods: ['2026-09'] } } });
      expect(response.status).toBe(200);
      expect(response.body.data.services).toEqual(['September']);
    });

    it('refuses a dateRange longer than MAX_DATE_RANGE_DAYS', async () => {
      const a = await t.newOrganization();
      const response = await post(a, { filters: { inclusions: { dateRange: { start: '2000-01-01', end: '2026-10-31' } } } });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(
        /^Invalid request\. Please see message details\. filters\.inclusions\.dateRange: spans \d+ days/,
      );
    });
  });

  describe('fields', () => {
    const ROWS: RowInput[] = [
      {
        usage_date: '2026-10-03',
        service: 'Amazon S3',
        account_id: '1',
        account_name: 'One',
        resource_tags: { env: 'prod' },
        cost_categories: { Team: 'A' },
      },
    ];

    it('returns only the requested fields; the others are empty and absent from enriched', async () => {
      const { a } = await twoOrganizations(ROWS);
      const response = await post(a, { fields: ['services', 'accounts', 'services'], filters: { inclusions: { dateRange: OCTOBER } } });
      expect(response.status).toBe(200);
      const data = response.body.data;
      expect(data.services).toEqual(['Amazon S3']);
      expect(data.accounts).toEqual(['1']);
      for (const field of ALL_FIELDS.filter((f) => f !== 'services' && f !== 'accounts')) expect(data[field]).toEqual([]);
      expect(data.accountIdToName).toEqual({ '1': 'One' });
      expect(data.tagValues).toEqual({});
      expect(Object.keys(data.enriched).sort()).toEqual(['accounts', 'services']);
    });

    it('treats an empty or null fields list like an omitted one: all fields', async () => {
      const { a } = await twoOrganizations(ROWS);
      for (const fields of [[], null]) {
        const response = await post(a, { fields, filters: { inclusions: { dateRange: OCTOBER } } });
        expect(response.status).toBe(200);
        expect(response.body.data.services).toEqual(['Amazon S3']);
        expect(response.body.data.costCategories).toEqual(['Team']);
        expect(response.body.data.tagValues).toEqual({ env: ['prod'] });
      }
    });

    it('gives tagValues with resourceTags alone, and no accountIdToName without accounts', async () => {
      const { a } = await twoOrganizations(ROWS);
      const response = await post(a, { fields: ['resourceTags'], filters: { inclusions: { dateRange: OCTOBER } } });
      expect(response.body.data.resourceTags).toEqual(['env']);
      expect(response.body.data.tagValues).toEqual({ env: ['prod'] });
      expect(response.body.data.accountIdToName).toEqual({});
    });
  });

  it('names each account with its latest non-empty name', async () => {
    const { a } = await twoOrganizations([
      { usage_date: '2026-10-01', account_id: '1', account_name: 'Old name' },
      { usage_date: '2026-10-20', account_id: '1', account_name: 'New name' },
      { usage_date: '2026-10-02', account_id: '2', account_name: 'Named once' },
      { usage_date: '2026-10-25', account_id: '2', account_name: '' },
      { usage_date: '2026-10-03', account_id: '3', account_name: '' },
    ]);
    const response = await post(a, { fields: ['accounts'], filters: { inclusions: { dateRange: OCTOBER } } });
    expect(response.body.data.accountIdToName).toEqual({ '1': 'New name', '2': 'Named once', '3': '' });
  });

  it('bounds tagValues to the 100 most expensive keys and 100 most expensive values per key', async () => {
    const keyRows: RowInput[] = Array.from({ length: 101 }, (_, i) => ({
      usage_date: '2026-10-10',
      resource_tags: { [`key-${String(i).padStart(3, '0')}`]: 'v' },
      amortized_cost: String(i + 1),
    }));
    const valueRows: RowInput[] = Array.from({ length: 101 }, (_, i) => ({
      usage_date: '2026-10-11',
      resource_tags: { 'wide-key': `value-${String(i).padStart(3, '0')}` },
      amortized_cost: String(1000 + i),
    }));
    const { a } = await twoOrganizations([...keyRows, ...valueRows]);
    const response = await post(a, { fields: ['resourceTags'], filters: { inclusions: { dateRange: OCTOBER } } });
    expect(response.status).toBe(200);
    const { resourceTags, tagValues } = response.body.data;
    expect(resourceTags).toHaveLength(102); // every key is listed
    const keys = Object.keys(tagValues);
    expect(keys).toHaveLength(100);
    // wide-key (most expensive) is kept; the two cheapest keys are dropped.
    expect(keys).toContain('wide-key');
    expect(keys).not.toContain('key-000');
    expect(keys).not.toContain('key-001');
    expect(keys).toContain('key-002');
    expect(tagValues['wide-key']).toHaveLength(100);
    expect(tagValues['wide-key']).not.toContain('value-000');
    expect(tagValues['wide-key'][0]).toBe('value-001');
  });

  describe('search', () => {
    /** Case-insensitive substring, as the API documents it (these values fold the same way in JavaScript and ClickHouse). */
    const matches = (value: string, search: string) => value.toLowerCase().includes(search.toLowerCase());
    const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

    const SEARCH_TAGS: Record<string, string>[] = [
      { Env: 'prod', team: 'a' },
      { ENVIRONMENT: 'dev' },
      { owner: 'x' },
      {},
      { 'cost%center': '1' },
      { cost_center: '2' },
    ];
    const SEARCH_CATEGORIES: Record<string, string>[] = [{ 'Prod Unit': 'A' }, {}, { Unit: 'B' }, {}, {}, {}];
    const ROWS: RowInput[] = [
      {
        usage_date: '2026-10-01',
        service: 'Amazon EC2',
        region: 'eu-west-1',
        instance_type: '',
        account_id: '100',
        account_name: 'Production',
      },
      { usage_date: '2026-10-02', service: 'amazon ec2 spot', region: 'us-east-1', account_id: '200', account_name: 'Sandbox' },
      { usage_date: '2026-10-03', service: 'Été Storage', region: 'ÉTÉ-1', account_id: 'prod-300', account_name: '' },
      { usage_date: '2026-10-04', service: 'ПРОД Compute', region: 'прод-2', account_id: '400', account_name: 'Legacy' },
      { usage_date: '2026-10-05', service: '100% Discount', region: '1000', account_id: '500', account_name: 'a_b team' },
      { usage_date: '2026-10-06', service: 'a_b', region: 'axb', account_id: '600', account_name: 'axb team' },
    ].map((row, i) => ({
      ...row,
      amortized_cost: String(i + 1),
      resource_tags: SEARCH_TAGS[i],
      cost_categories: SEARCH_CATEGORIES[i],
    }));

    it('keeps only the options containing the text, case-insensitively, in every requested list and its enriched entry', async () => {
      const { a, insertedA } = await twoOrganizations(ROWS, [{ ...ORG_B_ROW, service: 'Amazon EC2 org B', usage_date: '2026-10-01' }]);
      for (const search of ['ec2', 'ÉTÉ', 'été', 'прод', '%', '_', 'EC2 SPOT', 'nothing like it']) {
        const response = await post(a, {
          fields: ['services', 'regions', 'instanceTypes', 'costTypes'],
          filters: { inclusions: { dateRange: OCTOBER } },
          search,
        });
        expect(response.status).toBe(200);
        const data = response.body.data;
        for (const field of ['services', 'regions', 'instanceTypes', 'costTypes'] as const) {
          const expected = expectedOptions(insertedA, field).filter((value) => matches(value, search));
          expect({ search, field, options: data[field] }).toEqual({ search, field, options: expected });
          expect({ search, field, enriched: data.enriched[field].map((e: { value: string }) => e.value).sort(byBytes) }).toEqual({
            search,
            field,
            enriched: expected,
          });
        }
        expect(data.clouds).toEqual([]); // not requested
        expect(data).not.toHaveProperty('truncated');
      }
    });

    it('matches "%" and "_" literally, and (not set) as it is listed', async () => {
      const { a } = await twoOrganizations(ROWS);
      const ask = async (search: string) =>
        (await post(a, { fields: ['services', 'regions', 'instanceTypes'], filters: { inclusions: { dateRange: OCTOBER } }, search })).body
          .data;
      expect((await ask('%')).services).toEqual(['100% Discount']);
      expect((await ask('_')).services).toEqual(['a_b']);
      expect((await ask('a_b')).regions).toEqual([]); // axb does not match a_b
      expect((await ask('NOT SET')).instanceTypes).toEqual(['(not set)']);
      expect((await ask('(not')).services).toEqual([]);
    });

    it('matches accounts by ID or by name, and names only the matching accounts', async () => {
      const { a } = await twoOrganizations(ROWS);
      const ask = async (search: string) =>
        (await post(a, { fields: ['accounts'], filters: { inclusions: { dateRange: OCTOBER } }, search })).body.data;
      const prod = await ask('PROD');
      expect(prod.accounts).toEqual(['100', 'prod-300']); // by name (Production) and by ID (prod-300)
      expect(prod.accountIdToName).toEqual({ '100': 'Production', 'prod-300': '' });
      expect(prod.enriched.accounts).toEqual([
        { value: 'prod-300', name: '', amortized_cost: 3 },
        { value: '100', name: 'Production', amortized_cost: 1 },
      ]);
      expect((await ask('team')).accounts).toEqual(['500', '600']);
      expect((await ask('_')).accounts).toEqual(['500']);
    });

    it('matches tag and category keys; tagValues holds the values of the matching tag keys', async () => {
      const { a } = await twoOrganizations(ROWS);
      const ask = async (search: string) =>
        (await post(a, { fields: ['resourceTags', 'costCategories'], filters: { inclusions: { dateRange: OCTOBER } }, search })).body.data;
      const env = await ask('env');
      expect(env.resourceTags).toEqual(['ENVIRONMENT', 'Env']);
      expect(env.tagValues).toEqual({ ENVIRONMENT: ['dev'], Env: ['prod'] });
      expect(env.costCategories).toEqual([]);
      const prod = await ask('PROD');
      expect(prod.resourceTags).toEqual([]); // values are not keys
      expect(prod.tagValues).toEqual({});
      expect(prod.costCategories).toEqual(['Prod Unit']);
      const percent = await ask('%');
      expect(percent.resourceTags).toEqual(['cost%center']);
      expect(percent.tagValues).toEqual({ 'cost%center': ['1'] });
    });

    it('treats an empty or null search like none', async () => {
      const { a } = await twoOrganizations(ROWS);
      const body = { filters: { inclusions: { dateRange: OCTOBER } } };
      const all = (await post(a, body)).body;
      for (const search of ['', null]) expect((await post(a, { ...body, search })).body).toEqual(all);
    });
  });

  describe('bounds, said in the answer', () => {
    /**
     * `count` rows in October for a fresh organisation, generated inside ClickHouse: row i has service
     * svc-<i>, tag key key-<i> (value "v") and amortized cost i + 1, so svc-00000 / key-00000 are the cheapest.
     */
    async function generated(count: number): Promise<TestOrganization> {
      const org = await t.newOrganization();
      await t.clickhouse.command(
        `INSERT INTO ${t.clickhouse.table('cost_line_items')} (organization_id, usage_date, billing_period, service, resource_tags, amortized_cost)
         SELECT {org:UUID}, toDate('2026-10-01') + number % 28, '2026-10', concat('svc-', leftPad(toString(number), 5, '0')),
                map(concat('key-', leftPad(toString(number), 5, '0')), 'v'), toDecimal128(number + 1, 10)
         FROM numbers({rows:UInt64})`,
        { org: org.organizationId, rows: count },
      );
      return org;
    }
    const names = (prefix: string, count: number, from = 0) =>
      Array.from({ length: count }, (_, i) => `${prefix}-${String(from + i).padStart(5, '0')}`);
    const ask = (org: TestOrganization, body: object = {}) =>
      post(org, { fields: ['services', 'resourceTags'], filters: { inclusions: { dateRange: OCTOBER } }, ...body });

    it(`lists exactly ${MAX_OPTIONS} options without truncating, and names tagValues only because there are more than ${MAX_TAG_KEYS} tag keys`, async () => {
      const org = await generated(MAX_OPTIONS);
      const response = await ask(org);
      expect(response.status).toBe(200);
      const data = response.body.data;
      expect(data.services).toEqual(names('svc', MAX_OPTIONS));
      expect(data.resourceTags).toEqual(names('key', MAX_OPTIONS));
      expect(data.enriched.services).toHaveLength(MAX_OPTIONS);
      expect(data.truncated).toEqual(['tagValues']);
      // The most expensive keys: the last MAX_TAG_KEYS.
      expect(Object.keys(data.tagValues)).toEqual(names('key', MAX_TAG_KEYS, MAX_OPTIONS - MAX_TAG_KEYS));
      expect(data).not.toHaveProperty('truncatedTagValues');
    });

    it(`cuts ${MAX_OPTIONS + 1} options to the ${MAX_OPTIONS} most expensive and says so; a search reaches the cut one`, async () => {
      const org = await generated(MAX_OPTIONS + 1);
      const response = await ask(org);
      expect(response.status).toBe(200);
      const data = response.body.data;
      expect(data.truncated).toEqual(['services', 'resourceTags', 'tagValues']);
      expect(data.services).toEqual(names('svc', MAX_OPTIONS, 1)); // svc-00000, the cheapest, is cut
      expect(data.resourceTags).toEqual(names('key', MAX_OPTIONS, 1));
      expect(data.enriched.services.map((e: { value: string }) => e.value)).toEqual(names('svc', MAX_OPTIONS, 1).reverse());

      const searched = await ask(org, { search: 'SVC-00000' });
      expect(searched.body.data.services).toEqual(['svc-00000']);
      expect(searched.body.data.resourceTags).toEqual([]);
      expect(searched.body.data).not.toHaveProperty('truncated');
      const keys = await ask(org, { search: 'key-0000' }); // key-00000 … key-00009: ten keys, each with its value
      expect(keys.body.data.resourceTags).toEqual(names('key', 10));
      expect(Object.keys(keys.body.data.tagValues)).toEqual(names('key', 10));
      expect(keys.body.data).not.toHaveProperty('truncated');
    });

    it(`names tagValues at ${MAX_TAG_KEYS + 1} tag keys and a key at ${MAX_TAG_VALUES + 1} values, not at ${MAX_TAG_KEYS} and ${MAX_TAG_VALUES}`, async () => {
      const rows = (keys: number, values: number): RowInput[] => [
        ...names('key', keys - 1).map((key, i) => ({
          usage_date: '2026-10-10',
          resource_tags: { [key]: 'v' },
          amortized_cost: String(i + 1),
        })),
        ...names('value', values).map((value, i) => ({
          usage_date: '2026-10-11',
          resource_tags: { wide: value },
          amortized_cost: String(1000 + i),
        })),
      ];
      const atBounds = await twoOrganizations(rows(MAX_TAG_KEYS, MAX_TAG_VALUES));
      const fits = (await post(atBounds.a, { fields: ['resourceTags'], filters: { inclusions: { dateRange: OCTOBER } } })).body.data;
      expect(Object.keys(fits.tagValues)).toHaveLength(MAX_TAG_KEYS);
      expect(fits.tagValues.wide).toEqual(names('value', MAX_TAG_VALUES));
      expect(fits).not.toHaveProperty('truncated');
      expect(fits).not.toHaveProperty('truncatedTagValues');

      const overBounds = await twoOrganizations(rows(MAX_TAG_KEYS + 1, MAX_TAG_VALUES + 1));
      const cut = (await post(overBounds.a, { fields: ['resourceTags'], filters: { inclusions: { dateRange: OCTOBER } } })).body.data;
      expect(cut.resourceTags).toHaveLength(MAX_TAG_KEYS + 1);
      expect(cut.truncated).toEqual(['tagValues']);
      expect(Object.keys(cut.tagValues)).toHaveLength(MAX_TAG_KEYS);
      expect(cut.tagValues).not.toHaveProperty('key-00000'); // the cheapest key
      expect(cut.truncatedTagValues).toEqual(['wide']);
      expect(cut.tagValues.wide).toEqual(names('value', MAX_TAG_VALUES, 1)); // value-00000, the cheapest, is cut
    });
  });

  describe('validation and access', () => {
    let org: TestOrganization;
    beforeAll(async () => {
      org = await t.newOrganization();
    });

    const PREFIX = 'Invalid request. Please see message details. ';
    it.each([
      [
        { fields: ['services', 'nope'] },
        'fields[1]: Expected one of costLayers, clouds, services, resourceFamilies, regions, instanceTypes, usageTypes, billingPeriods, costTypes, accounts, integrations, billingCurrencies, allocatedMethods, resourceTags, costCategories, received "nope"',
      ],
      [{ fields: ['Services'] }, 'fields[0]: Expected one of'],
      [{ fields: 'services' }, 'fields: Expected array of strings, received string'],
      [{ fields: [3] }, 'fields[0]: Expected string, received number'],
      [{ filters: { inclusions: { service: ['Amazon S3'] } } }, 'filters.inclusions.service: unknown field'],
      [{ filters: 'all' }, 'filters: Expected object, received string'],
      [{ filters: { inclusions: { services: 'Amazon S3' } } }, 'filters.inclusions.services: Expected array of strings, received string'],
      [{ filters: { inclusions: { dateRange: { start: '2026-10-31', end: '2026-10-01' } } } }, 'filters.inclusions.dateRange'],
      [{ field: ['services'] }, 'field: unknown field'],
      [{ search: 'x'.repeat(257) }, 'search: at most 256 characters'],
      [{ search: 5 }, 'search: Expected string, received number'],
      [{ search: ['ec2'] }, 'search: Expected string, received array'],
    ])('answers 400 for %j', async (body, detail) => {
      const response = await post(org, body);
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.error.message.slice(0, (PREFIX + detail).length)).toBe(PREFIX + detail);
    });

    it('accepts a search of exactly 256 characters', async () => {
      const response = await post(org, { search: 'é'.repeat(256) });
      expect(response.status).toBe(200);
      expect(response.body.data.services).toEqual([]);
    });

    it('answers 400 for a body that is not an object', async () => {
      const response = await t.http.post('/v1/cost-insights/filters').set(org.auth).set('Content-Type', 'application/json').send('[]');
      expect(response.status).toBe(400);
    });

    it('answers 401 without a key', async () => {
      const response = await t.http.post('/v1/cost-insights/filters').send({});
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'Unauthorized' });
    });

    it('answers 403 to a key without cost:read', async () => {
      const limited = await t.newOrganization(['shared-filters:read', 'shared-filters:write']);
      const response = await post(limited, {});
      expect(response.status).toBe(403);
      expect(response.body.success).toBe(false);
      expect(response.body.error.message).toContain('cost:read');
    });
  });
});
