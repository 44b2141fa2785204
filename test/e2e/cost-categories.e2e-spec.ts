// modes: embedded server cluster — rule-defined categories computed by the store's SQL
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, todayUtc } from '../../src/common/dates/calendar-date';
import { SCOPES } from '../../src/common/http/principal';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { sumDecimals } from '../support/decimals';
import { TestApp, TestOrganization } from '../support/test-app';
import { FocusLine, focusLinesCsv, monthStart, periodOf } from '../support/focus-lines';

/**
 * Rule-defined cost categories (allocation rules): PUT/GET/DELETE /v1/admin/cost-categories/{key}, read wherever an
 * imported category is read (/data's groupBy and filters, a key's data scope, /cost-category-values, /filters),
 * versions in effect per billing month, the dryRun preview, permissions, refusals and the audit trail. Rows are
 * imported from a FOCUS export written here; every expected value is hand-labelled on the rows below (or written
 * out from a version's rules), every amount summed exactly from the export's decimal text.
 */
const ADMIN = '/v1/admin/cost-categories';
const ADMIN_SCOPE = 'cost-categories:admin';
const PREFIX = 'Invalid request. Please see message details. ';
const NOT_SET = '(not set)';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const SANDBOX = '333333333333';
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** One FOCUS line item. `expected`: its hand-computed values of Owner, Strict and Division (lines billed from 2026-10). */
interface Line extends FocusLine {
  expected?: { Owner: string; Strict: string; Division: string };
}

/**
 * Owner, in effect from 2026-10: Support is Shared; the sandbox account Sandbox; team payments (any case) Payments; else
 * the owner tag, else the imported Business Unit, S3 Storage, the rest Unallocated.
 */
const OWNER_RULES = [
  { when: { inclusions: { services: ['AWS Support'] } }, value: 'Shared' },
  { when: { inclusions: { accountIds: [SANDBOX] } }, value: 'Sandbox' },
  { when: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } }, caseInsensitive: true, value: 'Payments' },
  { inheritTag: 'owner' },
  { inheritCategory: 'Business Unit' },
  { when: { inclusions: { services: ['Amazon S3'] } }, value: 'Storage' },
];
/** Strict: the same payments rule, with case. */
const STRICT_RULES = [{ when: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } }, value: 'P' }];
/** Division reads Owner (defined before it): in its `when` and by inheriting it. */
const DIVISION_RULES = [
  { when: { inclusions: { costCategory: 'Owner', costCategoryValues: ['Payments', 'Shared'] } }, value: 'Fintech' },
  { when: { inclusions: { costCategory: 'Owner', costCategoryValues: ['Unallocated'] } }, value: 'Unknown' },
  { inheritCategory: 'Owner' },
];

/** August to October 2026 (one line billed in September though used in October), imported for two organisations. */
const ESTATE: Line[] = [
  {
    day: '2026-08-05',
    account: '111111111111',
    service: 'Amazon EC2',
    tags: { team: 'payments' },
    categories: { 'Cost Center': 'CC-1', 'Business Unit': 'Retail' },
    cost: '11.5',
  },
  { day: '2026-08-20', account: '222222222222', service: 'Amazon S3', categories: { 'Cost Center': 'CC-2' }, cost: '2.0000000003' },
  {
    day: '2026-09-02',
    account: '111111111111',
    service: 'Amazon EC2',
    tags: { team: 'platform' },
    categories: { 'Cost Center': 'CC-1' },
    cost: '12.25',
  },
  {
    day: '2026-09-15',
    account: SANDBOX,
    service: 'Amazon RDS',
    categories: { 'Cost Center': 'CC-2', 'Business Unit': 'Wholesale' },
    cost: '4.75',
  },
  { day: '2026-09-30', account: '111111111111', service: 'Amazon S3', tags: { team: 'payments' }, cost: '0.5' },
  // A late charge: used in October, billed in September, so no version from 2026-10 applies to it.
  {
    day: '2026-10-03',
    period: '2026-09',
    account: SANDBOX,
    service: 'Amazon EC2',
    tags: { team: 'data' },
    categories: { 'Cost Center': 'CC-3' },
    cost: '1.25',
  },
  {
    day: '2026-10-01',
    account: '111111111111',
    service: 'Amazon EC2',
    tags: { team: 'Payments' },
    categories: { 'Cost Center': 'CC-1' },
    cost: '10.5',
    expected: { Owner: 'Payments', Strict: 'other', Division: 'Fintech' },
  },
  {
    day: '2026-10-02',
    account: '111111111111',
    service: 'Amazon EC2',
    tags: { team: 'PAYMENTS' },
    cost: '20.25',
    expected: { Owner: 'Payments', Strict: 'other', Division: 'Fintech' },
  },
  // Payments before Storage: the first matching rule wins.
  {
    day: '2026-10-03',
    account: '111111111111',
    service: 'Amazon S3',
    tags: { team: 'payments' },
    cost: '1.0000000001',
    expected: { Owner: 'Payments', Strict: 'P', Division: 'Fintech' },
  },
  {
    day: '2026-10-04',
    account: '111111111111',
    service: 'AWS Support',
    tags: { team: 'payments' },
    cost: '7',
    expected: { Owner: 'Shared', Strict: 'P', Division: 'Fintech' },
  },
  {
    day: '2026-10-05',
    account: SANDBOX,
    service: 'Amazon EC2',
    tags: { team: 'payments', owner: 'bob' },
    cost: '3.5',
    expected: { Owner: 'Sandbox', Strict: 'P', Division: 'Sandbox' },
  },
  // The owner tag before the imported Business Unit.
  {
    day: '2026-10-06',
    account: '111111111111',
    service: 'Amazon EC2',
    tags: { owner: 'ana' },
    categories: { 'Cost Center': 'CC-2', 'Business Unit': 'Retail' },
    cost: '4',
    expected: { Owner: 'ana', Strict: 'other', Division: 'ana' },
  },
  // An empty owner tag is none: it falls through to Business Unit.
  {
    day: '2026-10-07',
    account: '111111111111',
    service: 'Amazon EC2',
    tags: { owner: '' },
    categories: { 'Business Unit': 'Retail' },
    cost: '5',
    expected: { Owner: 'Retail', Strict: 'other', Division: 'Retail' },
  },
  {
    day: '2026-10-08',
    account: '111111111111',
    service: 'Amazon RDS',
    categories: { 'Business Unit': 'Wholesale' },
    cost: '6',
    expected: { Owner: 'Wholesale', Strict: 'other', Division: 'Wholesale' },
  },
  {
    day: '2026-10-09',
    account: '111111111111',
    service: 'Amazon S3',
    cost: '8',
    expected: { Owner: 'Storage', Strict: 'other', Division: 'Storage' },
  },
  {
    day: '2026-10-10',
    account: '111111111111',
    service: 'Amazon RDS',
    cost: '9',
    expected: { Owner: 'Unallocated', Strict: 'other', Division: 'Unknown' },
  },
  // Neither another team nor a longer value matches `payments`.
  {
    day: '2026-10-12',
    account: '111111111111',
    service: 'Amazon EC2',
    tags: { team: 'Payments-EU' },
    cost: '1.5',
    expected: { Owner: 'Unallocated', Strict: 'other', Division: 'Unknown' },
  },
  {
    day: '2026-10-31',
    account: '111111111111',
    service: 'Amazon EC2',
    tags: { team: 'Platform' },
    cost: '2.75',
    expected: { Owner: 'Unallocated', Strict: 'other', Division: 'Unknown' },
  },
];
const AUG_TO_OCT = { start: '2026-08-01', end: '2026-10-31' };

interface Cell {
  month: string;
  value: string;
  cost: number;
}
const byCell = (a: Cell, b: Cell) => (a.month === b.month ? byBytes(a.value, b.value) : byBytes(a.month, b.month));

/** /data's monthly buckets (by usage month) of the lines, each under `valueOf` (absent or empty: not set). */
function expectedCells(lines: Line[], valueOf: (line: Line) => string | undefined): Cell[] {
  const groups = new Map<string, string[]>();
  for (const line of lines) {
    const key = JSON.stringify([`${line.day.slice(0, 7)}-01`, valueOf(line) || NOT_SET]);
    groups.set(key, [...(groups.get(key) ?? []), line.cost]);
  }
  return [...groups.entries()]
    .map(([key, costs]) => {
      const [month, value] = JSON.parse(key) as [string, string];
      return { month, value, cost: sumDecimals(costs) };
    })
    .sort(byCell);
}

interface Version {
  version: number;
  effectiveFrom: string;
  defaultValue: string;
  rules: unknown[];
  splits: unknown[];
  createdAt: string;
  createdBy: string;
  deleted: boolean;
}

interface PreviewValue {
  value: string;
  amortizedCost: number;
  rows: number;
}

describe('rule-defined cost categories', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let dir: string;
  /** The rules' organisation (Owner, Strict, Division), the versions' one (Cost Center) and the preview's. */
  let rules: TestOrganization;
  let versions: TestOrganization;
  let preview: TestOrganization;

  const today = todayUtc();
  const currentMonth = today.slice(0, 7);
  /** The preview's rows: in the current month (inside the default window), and one four months before (outside it). */
  const oldMonth = monthStart(today, -4).slice(0, 7);
  const PREVIEW_LINES: Line[] = [
    { day: `${currentMonth}-01`, account: '111111111111', service: 'Amazon EC2', tags: { team: 'payments' }, cost: '40' },
    { day: today, account: '111111111111', service: 'Amazon S3', tags: { team: 'data' }, cost: '20' },
    { day: `${currentMonth}-01`, account: '222222222222', service: 'Amazon RDS', cost: '15' },
    { day: today, account: '111111111111', service: 'AWS Lambda', cost: '25' },
    { day: `${oldMonth}-15`, account: '111111111111', service: 'Amazon EC2', tags: { team: 'payments' }, cost: '50' },
  ];

  async function importLines(org: TestOrganization, lines: Line[], name: string): Promise<void> {
    const file = join(dir, `${name}.csv`);
    writeFileSync(file, focusLinesCsv(lines));
    await ingestFocus(t.clickhouse, { paths: [file], organizationId: org.organizationId, integrationId: 'aws' });
  }

  beforeAll(async () => {
    t = await TestApp.start();
    dir = mkdtempSync(join(tmpdir(), 'cost-categories-'));
    [rules, versions, preview] = [await t.newOrganization(), await t.newOrganization(), await t.newOrganization()];
    await importLines(rules, ESTATE, 'rules');
    await importLines(versions, ESTATE, 'versions');
    await importLines(preview, PREVIEW_LINES, 'preview');
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const at = (key: string) => `${ADMIN}/${encodeURIComponent(key)}`;
  const put = (org: TestOrganization, key: string, body: object, query: Record<string, string> = {}) =>
    t.http.put(at(key)).query(query).set(org.auth).send(body);
  const get = (org: TestOrganization, key: string) => t.http.get(at(key)).set(org.auth);
  const list = async (org: TestOrganization) => {
    const response = await t.http.get(ADMIN).set(org.auth);
    expect(response.status).toBe(200);
    return response.body.data.categories as Array<Record<string, unknown>>;
  };
  const data = (org: TestOrganization, body: object) => t.http.post('/v1/cost-insights/data').set(org.auth).send(body);
  /** Saves a version; answers the saved versions. */
  const save = async (org: TestOrganization, key: string, body: object): Promise<Version[]> => {
    const response = await put(org, key, body);
    expect([response.status, response.body.success, response.body.data?.key]).toEqual([200, true, key]);
    return response.body.data.versions as Version[];
  };
  /** /data by month and `costCategory:<key>`. */
  async function cells(org: TestOrganization, key: string, range: { start: string; end: string } = AUG_TO_OCT): Promise<Cell[]> {
    const response = await data(org, {
      filters: { inclusions: { dateRange: range } },
      groupBy: { dateGrouping: 'monthly', dimension: `costCategory:${key}` },
    });
    expect(response.status).toBe(200);
    return (response.body.data.items as Array<{ usage_date: string; dimension_value: string; amortized_cost: number }>)
      .map((item) => ({ month: item.usage_date, value: item.dimension_value, cost: item.amortized_cost }))
      .sort(byCell);
  }
  const total = async (org: TestOrganization, filters: object) => {
    const response = await data(org, { filters, groupBy: { dateGrouping: 'monthly' } });
    expect(response.status).toBe(200);
    return response.body.data.summary.total_amortized_cost as number;
  };
  const categoryValues = async (org: TestOrganization, categoryKey: string) => {
    const response = await t.http.post('/v1/cost-insights/cost-category-values').set(org.auth).send({ categoryKey });
    expect(response.status).toBe(200);
    return response.body.data.values as string[];
  };
  const categoryKeys = async (org: TestOrganization, dateRange: { start: string; end: string }) => {
    const response = await t.http
      .post('/v1/cost-insights/filters')
      .set(org.auth)
      .send({ fields: ['costCategories'], filters: { inclusions: { dateRange } } });
    expect(response.status).toBe(200);
    return response.body.data.costCategories as string[];
  };
  const auditTrail = async (org: TestOrganization) => {
    const response = await t.http.get('/v1/admin/audit-events').set(org.auth);
    expect(response.status).toBe(200);
    return (response.body.data.events as Array<{ action: string; target: string; actor: { kind: string; id: string } }>).filter((event) =>
      event.action.startsWith('cost-category.'),
    );
  };
  const refused = (response: { status: number; body: { success?: boolean; error?: { message: string } } }) => {
    expect([response.status, response.body.success]).toEqual([400, false]);
    expect(response.body.error!.message.startsWith(PREFIX)).toBe(true);
    return response.body.error!.message.slice(PREFIX.length);
  };
  const expected = (key: 'Owner' | 'Strict' | 'Division') => (line: Line) => line.expected?.[key];

  it('reads a rule-defined category like an imported one: rules in order, value, inheritTag and inheritCategory with fall-through, the default, tag values without case', async () => {
    const owner = await save(rules, 'Owner', { effectiveFrom: '2026-10', defaultValue: 'Unallocated', rules: OWNER_RULES });
    expect(owner).toEqual([
      {
        version: 1,
        effectiveFrom: '2026-10',
        defaultValue: 'Unallocated',
        rules: OWNER_RULES,
        splits: [],
        createdAt: expect.stringMatching(ISO),
        createdBy: rules.keyId,
        deleted: false,
      },
    ]);
    await save(rules, 'Strict', { effectiveFrom: '2026-10', defaultValue: 'other', rules: STRICT_RULES, splits: [] });

    // Every line billed from 2026-10 has its labelled value; those billed before (the late charge too) have none.
    expect(await cells(rules, 'Owner')).toEqual(expectedCells(ESTATE, expected('Owner')));
    // Without caseInsensitive only `payments` itself matches.
    expect(await cells(rules, 'Strict')).toEqual(expectedCells(ESTATE, expected('Strict')));
    // The imported categories read as before.
    expect(await cells(rules, 'Business Unit')).toEqual(expectedCells(ESTATE, (line) => line.categories?.['Business Unit']));
  });

  it('reads a category defined from an earlier rule-defined one (its `when` and inheritCategory)', async () => {
    await save(rules, 'Division', { effectiveFrom: '2026-10', defaultValue: 'never', rules: DIVISION_RULES });
    expect(await cells(rules, 'Division')).toEqual(expectedCells(ESTATE, expected('Division')));
    expect(await cells(rules, 'Owner')).toEqual(expectedCells(ESTATE, expected('Owner')));
  });

  it('filters on it in inclusions and exclusions; /cost-category-values and /filters list it and its values', async () => {
    const costOf = (keep: (line: Line) => boolean) => sumDecimals(ESTATE.filter(keep).map((line) => line.cost));
    const owner = expected('Owner');
    expect(
      await total(rules, { inclusions: { dateRange: AUG_TO_OCT, costCategory: 'Owner', costCategoryValues: ['Payments', 'ana'] } }),
    ).toBe(costOf((line) => ['Payments', 'ana'].includes(owner(line)!)));
    expect(
      await total(rules, {
        inclusions: { dateRange: AUG_TO_OCT },
        exclusions: { costCategory: 'Owner', costCategoryValues: ['Unallocated', 'Storage'] },
      }),
    ).toBe(costOf((line) => !['Unallocated', 'Storage'].includes(owner(line)!)));
    // (not set): the lines billed before its first version.
    expect(await total(rules, { inclusions: { dateRange: AUG_TO_OCT, costCategory: 'Owner', costCategoryValues: [NOT_SET] } })).toBe(
      costOf((line) => owner(line) === undefined),
    );
    expect(
      await total(rules, {
        inclusions: { dateRange: AUG_TO_OCT, costCategory: 'Division', costCategoryValues: ['Fintech'] },
        exclusions: { services: ['AWS Support'] },
      }),
    ).toBe(costOf((line) => line.expected?.Division === 'Fintech' && line.service !== 'AWS Support'));

    const valuesOf = (key: 'Owner' | 'Division') => [...new Set(ESTATE.map(expected(key)).filter((v): v is string => !!v))].sort(byBytes);
    expect(await categoryValues(rules, 'Owner')).toEqual(valuesOf('Owner'));
    expect(await categoryValues(rules, 'Division')).toEqual(valuesOf('Division'));
    expect(await categoryKeys(rules, { start: '2026-10-01', end: '2026-10-31' })).toEqual([
      'Business Unit',
      'Cost Center',
      'Division',
      'Owner',
      'Strict',
    ]);
    // Before their versions' month, only the imported keys.
    expect(await categoryKeys(rules, { start: '2026-09-01', end: '2026-09-30' })).toEqual(['Business Unit', 'Cost Center']);
  });

  it('confines a key whose data scope names a rule-defined value to those rows', async () => {
    const payments = await t.keyFor(rules.organizationId, ['cost:read'], {
      inclusions: { costCategory: 'Owner', costCategoryValues: ['Payments'] },
    });
    const inside = ESTATE.filter((line) => line.expected?.Owner === 'Payments');
    const response = await data(payments, {
      filters: { inclusions: { dateRange: AUG_TO_OCT } },
      groupBy: { dateGrouping: 'monthly', dimension: 'service' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.summary.total_amortized_cost).toBe(sumDecimals(inside.map((line) => line.cost)));
    // Its freshness is that of the rows its scope holds, as the rules give them.
    expect(response.headers['x-data-through']).toBe(
      inside
        .map((line) => line.day)
        .sort()
        .at(-1),
    );
    expect(
      (response.body.data.items as Array<{ usage_date: string; dimension_value: string; amortized_cost: number }>).map((item) => [
        item.usage_date,
        item.dimension_value,
        item.amortized_cost,
      ]),
    ).toEqual([
      ['2026-10-01', 'Amazon EC2', sumDecimals(['10.5', '20.25'])],
      ['2026-10-01', 'Amazon S3', 1.0000000001],
    ]);
    // Rows outside stay outside, even when asked for.
    expect(
      await total(payments, {
        inclusions: { dateRange: AUG_TO_OCT, costCategory: 'Owner', costCategoryValues: ['Shared', 'Unallocated'] },
      }),
    ).toBe(0);
    expect(await categoryValues(payments, 'Owner')).toEqual(['Payments']);
    const teams = await t.http.post('/v1/cost-insights/tag-values').set(payments.auth).send({ tagKey: 'team' });
    expect(teams.body.data.values).toEqual(['PAYMENTS', 'Payments', 'payments']);
  });

  it('applies versions per billing month: imported values before the first, a later version with an earlier month takes over from it', async () => {
    const imported = (line: Line) => line.categories?.['Cost Center'];
    const v1 = {
      effectiveFrom: '2026-10',
      defaultValue: 'Other',
      rules: [{ when: { inclusions: { services: ['Amazon EC2'] } }, value: 'Compute' }],
    };
    const v2 = { effectiveFrom: '2026-09', defaultValue: 'No team', rules: [{ inheritTag: 'team' }] };
    const v3 = {
      effectiveFrom: '2026-10',
      defaultValue: 'Other',
      rules: [{ when: { inclusions: { accountIds: [SANDBOX] } }, value: 'Sandbox' }, { inheritCategory: 'Business Unit' }],
    };
    const byV1 = (line: Line) => (line.service === 'Amazon EC2' ? 'Compute' : 'Other');
    const byV2 = (line: Line) => line.tags?.team || 'No team';
    const byV3 = (line: Line) => (line.account === SANDBOX ? 'Sandbox' : line.categories?.['Business Unit'] || 'Other');
    expect(await cells(versions, 'Cost Center')).toEqual(expectedCells(ESTATE, imported));
    expect((await get(versions, 'Cost Center')).status).toBe(404);

    const [first] = await save(versions, 'Cost Center', v1);
    // The imported key is replaced from 2026-10 on (by billing month: the late charge keeps its imported value).
    expect(await cells(versions, 'Cost Center')).toEqual(
      expectedCells(ESTATE, (line) => (periodOf(line) >= '2026-10' ? byV1(line) : imported(line))),
    );

    const afterV2 = await save(versions, 'Cost Center', v2);
    expect(afterV2).toEqual([
      first,
      { version: 2, ...v2, splits: [], createdAt: expect.stringMatching(ISO), createdBy: versions.keyId, deleted: false },
    ]);
    expect(await cells(versions, 'Cost Center')).toEqual(
      expectedCells(ESTATE, (line) => (periodOf(line) >= '2026-09' ? byV2(line) : imported(line))),
    );

    const afterV3 = await save(versions, 'Cost Center', v3);
    expect(afterV3.map(({ version, effectiveFrom, deleted }) => ({ version, effectiveFrom, deleted }))).toEqual([
      { version: 1, effectiveFrom: '2026-10', deleted: false },
      { version: 2, effectiveFrom: '2026-09', deleted: false },
      { version: 3, effectiveFrom: '2026-10', deleted: false },
    ]);
    expect(afterV3.slice(0, 2)).toEqual(afterV2);
    expect(Date.parse(afterV3[2].createdAt)).toBeGreaterThanOrEqual(Date.parse(afterV3[1].createdAt));
    const byMonth = (line: Line) => (periodOf(line) >= '2026-10' ? byV3(line) : periodOf(line) >= '2026-09' ? byV2(line) : imported(line));
    expect(await cells(versions, 'Cost Center')).toEqual(expectedCells(ESTATE, byMonth));
    expect(await categoryValues(versions, 'Cost Center')).toEqual(
      [...new Set(ESTATE.map(byMonth).filter((v): v is string => !!v))].sort(byBytes),
    );

    expect(await get(versions, 'Cost Center').then((response) => [response.status, response.body])).toEqual([
      200,
      { success: true, data: { key: 'Cost Center', versions: afterV3 } },
    ]);
    expect(await list(versions)).toEqual([
      { key: 'Cost Center', version: 3, effectiveFrom: '2026-10', defaultValue: 'Other', ruleCount: 2, updatedAt: afterV3[2].createdAt },
    ]);
  });

  it('DELETE ends the definition: the imported values again, gone from the list; unknown keys are 404', async () => {
    const before = (await get(versions, 'Cost Center')).body.data.versions as Version[];
    const response = await t.http.delete(at('Cost Center')).set(versions.auth);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.key).toBe('Cost Center');
    const after = response.body.data.versions as Version[];
    expect(after.slice(0, -1)).toEqual(before);
    expect(after[after.length - 1]).toMatchObject({ deleted: true, createdBy: versions.keyId });

    expect(await list(versions)).toEqual([]);
    expect(await cells(versions, 'Cost Center')).toEqual(expectedCells(ESTATE, (line) => line.categories?.['Cost Center']));
    expect(await categoryValues(versions, 'Cost Center')).toEqual(['CC-1', 'CC-2', 'CC-3']);
    const history = await get(versions, 'Cost Center');
    expect([history.status, history.body.data?.versions]).toEqual([200, after]);

    for (const response of [await t.http.delete(at('Never Defined')).set(versions.auth), await get(versions, 'Never Defined')]) {
      expect([response.status, response.body.success]).toEqual([404, false]);
    }
    // The other organisation's categories are not this one's.
    expect((await get(versions, 'Owner')).status).toBe(404);
  });

  it('records each saved version and the deletion in the audit trail, by the acting key', async () => {
    expect((await auditTrail(versions)).map(({ action, target, actor }) => [action, target, actor.kind, actor.id])).toEqual([
      ['cost-category.deleted', 'Cost Center', 'api-key', versions.keyId],
      ['cost-category.changed', 'Cost Center', 'api-key', versions.keyId],
      ['cost-category.changed', 'Cost Center', 'api-key', versions.keyId],
      ['cost-category.changed', 'Cost Center', 'api-key', versions.keyId],
    ]);
    expect((await auditTrail(rules)).map(({ action, target }) => [action, target])).toEqual([
      ['cost-category.changed', 'Division'],
      ['cost-category.changed', 'Strict'],
      ['cost-category.changed', 'Owner'],
    ]);
  });

  it('previews a definition with ?dryRun=true, saving nothing; the preview equals /data once saved', async () => {
    const window = { from: monthStart(today, -2), to: today };
    const d1 = {
      defaultValue: 'Unallocated',
      rules: [{ when: { inclusions: { services: ['Amazon EC2'] } }, value: 'Compute' }, { inheritTag: 'team' }],
    };
    const d2 = {
      defaultValue: 'Unallocated',
      rules: [{ when: { inclusions: { services: ['Amazon EC2', 'AWS Lambda'] } }, value: 'Compute' }, { inheritTag: 'team' }],
    };
    const sorted = (values: PreviewValue[]) => [...values].sort((a, b) => byBytes(a.value, b.value));
    // By hand from PREVIEW_LINES inside the window (the old line is outside it): 40 EC2 payments, 20 S3 data, 15 RDS, 25 Lambda.
    const underD1 = [
      { value: 'Compute', amortizedCost: 40, rows: 1 },
      { value: 'Unallocated', amortizedCost: 40, rows: 2 },
      { value: 'data', amortizedCost: 20, rows: 1 },
    ];
    const underD2 = [
      { value: 'Compute', amortizedCost: 65, rows: 2 },
      { value: 'Unallocated', amortizedCost: 15, rows: 1 },
      { value: 'data', amortizedCost: 20, rows: 1 },
    ];

    const first = await put(preview, 'Product', d1, { dryRun: 'true' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      success: true,
      data: {
        key: 'Product',
        window,
        currency: 'USD',
        values: expect.any(Array),
        unallocatedShare: { before: expect.any(Number), after: 0.4 },
        changes: expect.any(Array),
      },
    });
    expect(sorted(first.body.data.values)).toEqual(underD1);
    // Nothing saved.
    expect((await get(preview, 'Product')).status).toBe(404);
    expect(await list(preview)).toEqual([]);

    // Saved without effectiveFrom: the current month.
    const saved = await save(preview, 'Product', d1);
    expect(saved).toEqual([
      {
        version: 1,
        effectiveFrom: currentMonth,
        ...d1,
        splits: [],
        createdAt: expect.stringMatching(ISO),
        createdBy: preview.keyId,
        deleted: false,
      },
    ]);
    const answered = await cells(preview, 'Product', { start: window.from, end: window.to });
    expect(answered).toEqual(
      sorted(first.body.data.values).map(({ value, amortizedCost }) => ({ month: `${currentMonth}-01`, value, cost: amortizedCost })),
    );

    // Against the saved version: before and after, and what moves.
    const second = await put(preview, 'Product', d2, { dryRun: 'true' });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ key: 'Product', window, currency: 'USD', unallocatedShare: { before: 0.4, after: 0.15 } });
    expect(sorted(second.body.data.values)).toEqual(underD2);
    const beforeOf = Object.fromEntries(underD1.map(({ value, amortizedCost }) => [value, amortizedCost]));
    const afterOf = Object.fromEntries(underD2.map(({ value, amortizedCost }) => [value, amortizedCost]));
    const changes = second.body.data.changes as Array<{ value: string; before: number; after: number }>;
    expect(changes).toEqual(
      expect.arrayContaining([
        { value: 'Compute', before: 40, after: 65 },
        { value: 'Unallocated', before: 40, after: 15 },
      ]),
    );
    for (const change of changes)
      expect(change).toEqual({ value: change.value, before: beforeOf[change.value], after: afterOf[change.value] });
    const stillOne = await get(preview, 'Product');
    expect([stillOne.status, stillOne.body.data.versions]).toEqual([200, saved]);
    expect(await cells(preview, 'Product', { start: window.from, end: window.to })).toEqual(answered);

    // An explicit window: the old month alone, for a version in effect from it.
    const old = await put(
      preview,
      'Product',
      { ...d2, effectiveFrom: oldMonth },
      { dryRun: 'true', from: `${oldMonth}-01`, to: addDays(monthStart(`${oldMonth}-01`, 1), -1) },
    );
    expect(old.status).toBe(200);
    expect(old.body.data).toMatchObject({
      window: { from: `${oldMonth}-01`, to: addDays(monthStart(`${oldMonth}-01`, 1), -1) },
      values: [{ value: 'Compute', amortizedCost: 50, rows: 1 }],
      unallocatedShare: { after: 0 },
    });
    expect((await get(preview, 'Product')).body.data.versions).toEqual(saved);
    // Previews are no changes: one event, the save.
    expect((await auditTrail(preview)).map(({ action, target }) => [action, target])).toEqual([['cost-category.changed', 'Product']]);
  });

  it('refuses a key without cost-categories:admin, and a data-scoped key with it (403)', async () => {
    const org = await t.newOrganization();
    const withoutAdmin = await t.keyFor(
      org.organizationId,
      SCOPES.filter((scope: string) => scope !== ADMIN_SCOPE),
    );
    const scoped = await t.keyFor(
      org.organizationId,
      SCOPES.filter((scope: string) => scope === ADMIN_SCOPE || scope === 'cost:read'),
      { inclusions: { services: ['Amazon EC2'] } },
    );
    const body = { defaultValue: 'x', rules: [{ value: 'y' }] };
    for (const key of [withoutAdmin, scoped]) {
      for (const response of [
        await t.http.get(ADMIN).set(key.auth),
        await t.http.get(at('Team')).set(key.auth),
        await t.http.put(at('Team')).set(key.auth).send(body),
        await t.http.put(at('Team')).query({ dryRun: 'true' }).set(key.auth).send(body),
        await t.http.delete(at('Team')).set(key.auth),
      ]) {
        expect([response.status, response.body.success]).toEqual([403, false]);
      }
    }
    const lacking = await t.http.get(ADMIN).set(withoutAdmin.auth);
    expect(lacking.body.error.message).toBe(`This API key lacks the scope required for this operation: ${ADMIN_SCOPE}.`);
    expect(await list(org)).toEqual([]);
    expect(await auditTrail(org)).toEqual([]);
  });

  it('refuses bad definitions with 400 naming the field, saving nothing', async () => {
    const org = await t.newOrganization();
    const valid = { effectiveFrom: '2026-10', defaultValue: 'Other', rules: [{ value: 'Shared' }] };
    expect(refused(await put(org, 'Team', { ...valid, rules: [] }))).toMatch(/\brules\b/);
    expect(refused(await put(org, 'Team', { ...valid, colour: 'red' }))).toContain('colour');
    expect(refused(await put(org, 'Team', { ...valid, effectiveFrom: '2026-13' }))).toBe('effectiveFrom: a billing month, yyyy-MM');
    // A null is no absent field: a rule whose value is null would give nothing.
    expect(refused(await put(org, 'Team', { ...valid, rules: [{ value: null }] }))).toMatch(/^rules\[0\]\.value: /);
    expect(refused(await put(org, 'Team', { ...valid, effectiveFrom: null }))).toBe('effectiveFrom: a billing month, yyyy-MM');
    // A mistyped dryRun or a misspelt parameter previews nothing and saves nothing.
    expect(refused(await put(org, 'Team', valid, { dryRun: 'yes' }))).toBe('dryRun: true or false');
    expect(refused(await put(org, 'Team', valid, { dryrun: 'true' }))).toContain('dryrun');
    expect(
      refused(await put(org, 'Team', { ...valid, rules: [{ when: { inclusions: { team: ['payments'] } }, value: 'Payments' }] })),
    ).toMatch(/rules.*team/);
    const splits = refused(
      await put(org, 'Team', {
        ...valid,
        splits: [
          { source: { value: 'Shared' }, targets: ['Nowhere'], method: 'even' },
          { source: { value: 'Shared' }, targets: ['Other', 'Shared'], method: 'fixed', percentages: [60, 30] },
        ],
      }),
    );
    expect(splits).toBe(
      'splits[0].targets[0]: "Nowhere" is not a value the rules can give; splits[1].percentages: must sum to 100, they sum to 90',
    );
    for (const key of [' ', 'Team ', ' Team']) expect(refused(await put(org, key, valid))).toBe('key: starts or ends with a space');
    // The same refusals in a preview.
    expect(refused(await put(org, 'Team', { ...valid, rules: [] }, { dryRun: 'true' }))).toMatch(/\brules\b/);

    // A cycle: Alpha inherits Beta (not defined yet: an imported key), then Beta inherits Alpha.
    await save(org, 'Cycle Alpha', { ...valid, rules: [{ inheritCategory: 'Cycle Beta' }] });
    const cycle = refused(await put(org, 'Cycle Beta', { ...valid, rules: [{ inheritCategory: 'Cycle Alpha' }] }));
    expect(cycle).toContain('Cycle Alpha');
    expect(cycle).toContain('Cycle Beta');

    for (const key of ['Team', 'Cycle Beta']) expect((await get(org, key)).status).toBe(404);
    expect((await list(org)).map((category) => category.key)).toEqual(['Cycle Alpha']);
    expect((await auditTrail(org)).map(({ action, target }) => [action, target])).toEqual([['cost-category.changed', 'Cycle Alpha']]);
  });

  it('answers with 150 rules in a category, and a category reading it, grouped and filtered at once; refuses more SQL than a question can hold', async () => {
    const big = await t.newOrganization();
    await importLines(big, PREVIEW_LINES, 'big');
    const many = (make: (i: number) => object) => Array.from({ length: 149 }, (_, i) => make(i));
    const from = oldMonth;
    await save(big, 'Big', {
      effectiveFrom: from,
      defaultValue: 'Nobody',
      rules: [
        ...many((i) => ({
          value: `V${i}`,
          caseInsensitive: true,
          when: { inclusions: { services: [`svc-${i}`], resourceTag: 'team', resourceTagValues: [`t${i}`] } },
        })),
        { value: 'Payments', when: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } } },
      ],
    });
    await save(big, 'BigReader', {
      effectiveFrom: from,
      defaultValue: 'Rest',
      rules: [
        ...many((i) => ({ value: `R${i}`, when: { inclusions: { costCategory: 'Big', costCategoryValues: [`V${i}`] } } })).slice(0, 20),
        { inheritCategory: 'Big', when: { exclusions: { costCategory: 'Big', costCategoryValues: ['Nobody'] } } },
      ],
    });
    const response = await data(big, {
      filters: {
        inclusions: { dateRange: { start: `${from}-01`, end: today } },
        exclusions: { costCategory: 'Big', costCategoryValues: ['V1'] },
      },
      groupBy: { dateGrouping: 'monthly', dimensions: ['costCategory:BigReader', 'costCategory:Big'] },
    });
    expect([response.status, response.body.error?.message]).toEqual([200, undefined]);
    // A second category of 150 rules with conditions would make the questions naming them all too long: refused.
    const tooMuch = await put(big, 'BigToo', {
      effectiveFrom: from,
      defaultValue: 'Rest',
      rules: many((i) => ({
        value: `T${i}`,
        when: { inclusions: { services: [`svc-${i}`], resourceTag: 'team', resourceTagValues: [`t${i}`] } },
      })),
    });
    expect(refused(tooMuch)).toMatch(
      /^rules: the organisation's rule-defined categories would compile to \d+ characters of SQL, more than 25000; /,
    );
    const sums = new Map<string, string[]>();
    for (const item of response.body.data.items as Array<{ dimension_values: Record<string, string>; amortized_cost: number }>) {
      const value = `${item.dimension_values['costCategory:BigReader']}/${item.dimension_values['costCategory:Big']}`;
      sums.set(value, [...(sums.get(value) ?? []), String(item.amortized_cost)]);
    }
    // EC2 tagged payments: 40 this month and 50 four months ago; S3, RDS and Lambda (20 + 15 + 25) match no rule.
    expect(new Map([...sums].map(([value, costs]) => [value, sumDecimals(costs)]))).toEqual(
      new Map([
        ['Payments/Payments', sumDecimals(['40', '50'])],
        ['Rest/Nobody', sumDecimals(['20', '15', '25'])],
      ]),
    );
  });
});
