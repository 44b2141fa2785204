// modes: embedded server cluster — allocated and unallocated cost computed by the store's SQL
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { todayUtc } from '../../src/common/dates/calendar-date';
import { SCOPES } from '../../src/common/http/principal';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { sumDecimals } from '../support/decimals';
import { TestApp, TestOrganization } from '../support/test-app';
import { FocusLine, focusLinesCsv, monthStart } from '../support/focus-lines';

/**
 * The allocation KPI: POST /v1/cost-insights/allocation, one category's allocated and unallocated amortized cost over
 * a window (total, per usage month, the services and accounts with the most unallocated cost). Unallocated: no value
 * for the category, or its default value (a rule-defined category's latest version's; none for an imported one).
 * Rows are imported from FOCUS exports written here; each row's value of the category in effect is hand-labelled
 * below, every amount summed exactly from the export's decimal text, every share worked out by hand.
 */
const ALLOCATION = '/v1/cost-insights/allocation';
const ADMIN = '/v1/admin/cost-categories';
const PREFIX = 'Invalid request. Please see message details. ';
const KEY = 'BusinessUnit';
const DEFAULT = 'Unallocated';

/** One FOCUS line item. */
interface Line extends FocusLine {
  /** Rules' organisation: the line's value of BusinessUnit once the definition is saved (absent: none). */
  value?: string;
}

/** BusinessUnit, in effect from billing month 2026-10: RDS is Data, else the team tag, else Unallocated. */
const DEFINITION = {
  effectiveFrom: '2026-10',
  defaultValue: DEFAULT,
  rules: [{ when: { inclusions: { services: ['Amazon RDS'] } }, value: 'Data' }, { inheritTag: 'team' }],
};

/**
 * The rules' organisation: September and October 2026 (two lines used in October but billed in September). Lines billed
 * in September read the imported BusinessUnit (no version is in effect for them); lines billed in October the rules.
 * One more line, in June, is outside every window but its own.
 */
const ESTATE: Line[] = [
  // Billed in June, long before the definition: imported as the definition's default value itself.
  { day: '2026-06-15', account: '111111111111', service: 'Amazon RDS', categories: { [KEY]: DEFAULT }, cost: '2.5', value: DEFAULT },
  // Billed in September: the imported value.
  {
    day: '2026-09-03',
    account: '111111111111',
    service: 'Amazon EC2',
    tags: { team: 'web' },
    categories: { [KEY]: 'Payments' },
    cost: '12.1',
    value: 'Payments',
  },
  // No imported value (its team tag counts only under the rules).
  { day: '2026-09-10', account: '222222222222', service: 'Amazon S3', tags: { team: 'web' }, cost: '3.3000000001' },
  { day: '2026-09-20', account: '111111111111', service: 'Amazon RDS', cost: '0.7' },
  // Late charges: used in October (the month they are counted in), billed in September (imported values).
  {
    day: '2026-10-02',
    period: '2026-09',
    account: '333333333333',
    service: 'Amazon EC2',
    categories: { [KEY]: 'Retail' },
    cost: '1.2',
    value: 'Retail',
  },
  // The RDS rule would give Data; no version is in effect for September.
  { day: '2026-10-05', period: '2026-09', account: '222222222222', service: 'Amazon RDS', cost: '5.05' },
  // Billed in October: the rules.
  { day: '2026-10-01', account: '111111111111', service: 'Amazon RDS', cost: '20.2', value: 'Data' },
  { day: '2026-10-04', account: '111111111111', service: 'Amazon EC2', tags: { team: 'Payments' }, cost: '15.15', value: 'Payments' },
  // The imported Payments is replaced from the definition's first month: no rule matches.
  {
    day: '2026-10-08',
    account: '222222222222',
    service: 'Amazon EC2',
    categories: { [KEY]: 'Payments' },
    cost: '4.4',
    value: DEFAULT,
  },
  { day: '2026-10-12', account: '222222222222', service: 'Amazon S3', cost: '2.2', value: DEFAULT },
  // A rule giving the default value is unallocated too.
  { day: '2026-10-15', account: '333333333333', service: 'AWS Lambda', tags: { team: DEFAULT }, cost: '0.1', value: DEFAULT },
  { day: '2026-10-20', account: '333333333333', service: 'Amazon S3', tags: { team: 'data' }, cost: '6.6000000003', value: 'data' },
  { day: '2026-10-22', account: '111111111111', service: 'Amazon DynamoDB', tags: { team: 'Payments' }, cost: '9', value: 'Payments' },
  // An empty team tag is none: the default.
  { day: '2026-10-31', account: '111111111111', service: 'Amazon CloudWatch', tags: { team: '' }, cost: '0.2', value: DEFAULT },
];
/** August (no cost) to October; June's line is outside. */
const AUG_TO_OCT = { start: '2026-08-01', end: '2026-10-31' };
const unallocatedByRules = (line: Line) => !line.value || line.value === DEFAULT;

interface Figures {
  amortized_cost: number;
  allocated_cost: number;
  unallocated_cost: number;
  allocated_share: number;
}

/** The exact sums of the lines, split by `unallocated`; the share (4 decimals) is worked out by hand by the caller. */
function figures(lines: Line[], unallocated: (line: Line) => boolean, allocatedShare: number): Figures {
  const costs = (keep: (line: Line) => boolean) => lines.filter(keep).map((line) => line.cost);
  return {
    amortized_cost: sumDecimals(costs(() => true)),
    allocated_cost: sumDecimals(costs((line) => !unallocated(line))),
    unallocated_cost: sumDecimals(costs(unallocated)),
    allocated_share: allocatedShare,
  };
}

const within = (range: { start: string; end: string }) => (line: Line) => line.day >= range.start && line.day <= range.end;
const usedIn = (month: string) => (line: Line) => line.day.startsWith(month);

describe('allocation KPI (POST /v1/cost-insights/allocation)', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let dir: string;
  /** The rule-defined BusinessUnit's organisation (ESTATE) and the imported Business Unit's (IMPORTED). */
  let rules: TestOrganization;
  let imported: TestOrganization;

  const today = todayUtc();
  const currentMonth = today.slice(0, 7);
  const lastMonth = monthStart(today, -1).slice(0, 7);
  const defaultWindow = { start: monthStart(today, -2), end: today };
  const thisMonthDay = `${currentMonth}-01`;
  const lastMonthDay = `${lastMonth}-10`;
  const account = (n: number) => `2000000000${String(n).padStart(2, '0')}`;
  const service = (letter: string) => `Service ${letter}`;
  /**
   * The imported category's organisation, inside the default window (last month and this one): twelve services (each
   * on its own account) with cost lacking Business Unit, ranked A (12) to L (1) with J and K tied at 3; A also has
   * Payments cost; M only Retail cost. One line four months ago is outside the default window.
   */
  const IMPORTED: Line[] = [
    { day: lastMonthDay, account: account(1), service: service('A'), cost: '7.5' },
    { day: thisMonthDay, account: account(1), service: service('A'), cost: '4.5' },
    { day: thisMonthDay, account: account(1), service: service('A'), categories: { 'Business Unit': 'Payments' }, cost: '40.25' },
    { day: thisMonthDay, account: account(2), service: service('B'), cost: '11' },
    // Another category is no Business Unit.
    { day: lastMonthDay, account: account(3), service: service('C'), categories: { 'Cost Center': 'CC-1' }, cost: '10' },
    // An empty value is none.
    { day: thisMonthDay, account: account(4), service: service('D'), categories: { 'Business Unit': '' }, cost: '9' },
    { day: lastMonthDay, account: account(5), service: service('E'), cost: '8' },
    { day: thisMonthDay, account: account(6), service: service('F'), cost: '7' },
    { day: lastMonthDay, account: account(7), service: service('G'), cost: '6' },
    { day: thisMonthDay, account: account(8), service: service('H'), cost: '5' },
    { day: lastMonthDay, account: account(9), service: service('I'), cost: '4' },
    { day: thisMonthDay, account: account(10), service: service('J'), cost: '3' },
    { day: lastMonthDay, account: account(11), service: service('K'), cost: '3' },
    { day: thisMonthDay, account: account(12), service: service('L'), cost: '1' },
    { day: lastMonthDay, account: account(13), service: service('M'), categories: { 'Business Unit': 'Retail' }, cost: '19.75' },
    { day: `${monthStart(today, -4).slice(0, 7)}-15`, account: account(12), service: service('L'), cost: '1000' },
  ];
  const withoutBusinessUnit = (line: Line) => !line.categories?.['Business Unit'];

  async function importLines(org: TestOrganization, lines: Line[], name: string): Promise<void> {
    const file = join(dir, `${name}.csv`);
    writeFileSync(file, focusLinesCsv(lines));
    await ingestFocus(t.clickhouse, { paths: [file], organizationId: org.organizationId, integrationId: 'aws' });
  }

  beforeAll(async () => {
    t = await TestApp.start();
    dir = mkdtempSync(join(tmpdir(), 'allocation-'));
    [rules, imported] = [await t.newOrganization(), await t.newOrganization()];
    await importLines(rules, ESTATE, 'rules');
    await importLines(imported, IMPORTED, 'imported');
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const allocation = (org: TestOrganization, body: object) => t.http.post(ALLOCATION).set(org.auth).send(body);
  /** A 200's `data`, the envelope checked. */
  async function answer(org: TestOrganization, body: object) {
    const response = await allocation(org, body);
    expect([response.status, response.body.success]).toEqual([200, true]);
    return response.body.data as Record<string, unknown>;
  }
  const refused = (response: { status: number; body: { success?: boolean; error?: { message: string } } }) => {
    expect([response.status, response.body.success]).toEqual([400, false]);
    expect(response.body.error!.message.startsWith(PREFIX)).toBe(true);
    return response.body.error!.message.slice(PREFIX.length);
  };

  /** Everything the rules' organisation answers for `lines` of ESTATE, the monthly shares given by hand. */
  function estateFigures(lines: Line[], unallocated: (line: Line) => boolean, shares: Record<string, number>, totalShare: number) {
    return {
      total: figures(lines, unallocated, totalShare),
      months: Object.entries(shares).map(([month, share]) => ({ month, ...figures(lines.filter(usedIn(month)), unallocated, share) })),
    };
  }

  it('reads a rule-defined category: per billing month the version in effect (imported values before it), the default and no value unallocated, by usage month, services and accounts', async () => {
    // Before the definition, BusinessUnit is the imported category: no default, so only lines without it are unallocated
    // (12.1 + 1.2 + 4.4 = 17.7 allocated of 80.2000000004: 0.22069…; September 12.1 of 16.1000000001, October 5.6 of
    // 64.1000000003: 0.08736…).
    const asImported = (line: Line) => !line.categories?.[KEY];
    const before = await answer(rules, { category: KEY, dateRange: AUG_TO_OCT });
    expect(before).toMatchObject({
      category: KEY,
      date_range: AUG_TO_OCT,
      currency: 'USD',
      default_value: null,
      split_flows: [],
      ...estateFigures(ESTATE.filter(within(AUG_TO_OCT)), asImported, { '2026-09': 0.7516, '2026-10': 0.0874 }, 0.2207),
    });
    // June's imported `Unallocated` is, without a definition, a value like any other.
    const june = { start: '2026-06-01', end: '2026-06-30' };
    expect(await answer(rules, { category: KEY, dateRange: june })).toMatchObject({
      default_value: null,
      total: { amortized_cost: 2.5, allocated_cost: 2.5, unallocated_cost: 0, allocated_share: 1 },
    });

    const saved = await t.http.put(`${ADMIN}/${KEY}`).set(rules.auth).send(DEFINITION);
    expect([saved.status, saved.body.success]).toEqual([200, true]);

    // Allocated: 12.1 + 1.2 + 20.2 + 15.15 + 6.6000000003 + 9 = 64.2500000003 of 80.2000000004 (0.80112…); September
    // 12.1 of 16.1000000001 (0.75155…), October 52.1500000003 of 64.1000000003 (0.81357…). August has no cost.
    const expected = {
      category: KEY,
      date_range: AUG_TO_OCT,
      currency: 'USD',
      default_value: DEFAULT,
      ...estateFigures(ESTATE.filter(within(AUG_TO_OCT)), unallocatedByRules, { '2026-09': 0.7516, '2026-10': 0.8136 }, 0.8011),
      // DynamoDB (allocated only) is not listed.
      unallocated_services: [
        { service: 'Amazon RDS', unallocated_cost: sumDecimals(['0.7', '5.05']) },
        { service: 'Amazon S3', unallocated_cost: sumDecimals(['3.3000000001', '2.2']) },
        { service: 'Amazon EC2', unallocated_cost: 4.4 },
        { service: 'Amazon CloudWatch', unallocated_cost: 0.2 },
        { service: 'AWS Lambda', unallocated_cost: 0.1 },
      ],
      unallocated_accounts: [
        { account_id: '222222222222', unallocated_cost: sumDecimals(['3.3000000001', '5.05', '4.4', '2.2']) },
        { account_id: '111111111111', unallocated_cost: sumDecimals(['0.7', '0.2']) },
        { account_id: '333333333333', unallocated_cost: 0.1 },
      ],
      split_flows: [],
    };
    const response = await allocation(rules, { category: KEY, dateRange: AUG_TO_OCT });
    expect([response.status, response.body]).toEqual([200, { success: true, data: expected }]);
    // The exact sums: not the float difference of the total and its unallocated part.
    expect(expected.total.allocated_cost).toBe(64.2500000003);
    expect(expected.total.amortized_cost - expected.total.unallocated_cost).not.toBe(64.2500000003);

    // The currency named is the one answered in.
    expect(await answer(rules, { category: KEY, dateRange: AUG_TO_OCT, currency: 'USD' })).toEqual(expected);

    // The amounts are /data's for the same rows.
    const data = await t.http
      .post('/v1/cost-insights/data')
      .set(rules.auth)
      .send({ filters: { inclusions: { dateRange: AUG_TO_OCT } }, groupBy: { dateGrouping: 'monthly' } });
    expect(data.status).toBe(200);
    expect(data.body.data.summary.total_amortized_cost).toBe(expected.total.amortized_cost);
    expect(
      (data.body.data.items as Array<{ usage_date: string; amortized_cost: number }>).map((item) => [
        item.usage_date.slice(0, 7),
        item.amortized_cost,
      ]),
    ).toEqual(expected.months.map((month) => [month.month, month.amortized_cost]));
  });

  it('counts only the window of dateRange: whole months, and days cutting both months', async () => {
    const october = { start: '2026-10-01', end: '2026-10-31' };
    expect(await answer(rules, { category: KEY, dateRange: october })).toEqual({
      category: KEY,
      date_range: october,
      currency: 'USD',
      default_value: DEFAULT,
      // 52.1500000003 of 64.1000000003.
      ...estateFigures(ESTATE.filter(within(october)), unallocatedByRules, { '2026-10': 0.8136 }, 0.8136),
      // September's S3 and RDS lines are outside.
      unallocated_services: [
        { service: 'Amazon RDS', unallocated_cost: 5.05 },
        { service: 'Amazon EC2', unallocated_cost: 4.4 },
        { service: 'Amazon S3', unallocated_cost: 2.2 },
        { service: 'Amazon CloudWatch', unallocated_cost: 0.2 },
        { service: 'AWS Lambda', unallocated_cost: 0.1 },
      ],
      unallocated_accounts: [
        { account_id: '222222222222', unallocated_cost: sumDecimals(['5.05', '4.4', '2.2']) },
        { account_id: '111111111111', unallocated_cost: 0.2 },
        { account_id: '333333333333', unallocated_cost: 0.1 },
      ],
      split_flows: [],
    });

    // 2026-09-15 to 2026-10-10: September's RDS line without a value alone (0.7: a share of 0), October 36.55 of 46
    // (0.79456…); in all 36.55 of 46.7 (0.78265…; in doubles 46.7 − 10.15 is 36.550000000000004, not 36.55).
    const cut = { start: '2026-09-15', end: '2026-10-10' };
    expect(await answer(rules, { category: KEY, dateRange: cut })).toEqual({
      category: KEY,
      date_range: cut,
      currency: 'USD',
      default_value: DEFAULT,
      ...estateFigures(ESTATE.filter(within(cut)), unallocatedByRules, { '2026-09': 0, '2026-10': 0.7946 }, 0.7827),
      unallocated_services: [
        { service: 'Amazon RDS', unallocated_cost: sumDecimals(['0.7', '5.05']) },
        { service: 'Amazon EC2', unallocated_cost: 4.4 },
      ],
      unallocated_accounts: [
        { account_id: '222222222222', unallocated_cost: sumDecimals(['5.05', '4.4']) },
        { account_id: '111111111111', unallocated_cost: 0.7 },
      ],
      split_flows: [],
    });

    // A window without cost: zeros, a share of 0, no months.
    const empty = { start: '2025-01-01', end: '2025-01-31' };
    expect(await answer(rules, { category: KEY, dateRange: empty })).toEqual({
      category: KEY,
      date_range: empty,
      currency: 'USD',
      default_value: DEFAULT,
      total: { amortized_cost: 0, allocated_cost: 0, unallocated_cost: 0, allocated_share: 0 },
      months: [],
      unallocated_services: [],
      unallocated_accounts: [],
      split_flows: [],
    });
  });

  it('counts only the rows inside a data-scoped key’s scope: on services, and on a value of the category itself', async () => {
    const computeAndStorage = await t.keyFor(rules.organizationId, ['cost:read'], {
      inclusions: { services: ['Amazon EC2', 'Amazon S3'] },
    });
    const inServices = (line: Line) => ['Amazon EC2', 'Amazon S3'].includes(line.service);
    // 35.0500000003 of 44.9500000004 (0.77975…); September 12.1 of 15.4000000001 (0.78571…), October 22.9500000003
    // of 29.5500000003 (0.77664…).
    expect(await answer(computeAndStorage, { category: KEY, dateRange: AUG_TO_OCT })).toEqual({
      category: KEY,
      date_range: AUG_TO_OCT,
      currency: 'USD',
      default_value: DEFAULT,
      ...estateFigures(
        ESTATE.filter(within(AUG_TO_OCT)).filter(inServices),
        unallocatedByRules,
        { '2026-09': 0.7857, '2026-10': 0.7766 },
        0.7798,
      ),
      unallocated_services: [
        { service: 'Amazon S3', unallocated_cost: sumDecimals(['3.3000000001', '2.2']) },
        { service: 'Amazon EC2', unallocated_cost: 4.4 },
      ],
      unallocated_accounts: [{ account_id: '222222222222', unallocated_cost: sumDecimals(['3.3000000001', '4.4', '2.2']) }],
      split_flows: [],
    });

    // Payments: September's imported value and October's rules (the imported Payments of 2026-10-08 is no longer one).
    const payments = await t.keyFor(rules.organizationId, ['cost:read'], {
      inclusions: { costCategory: KEY, costCategoryValues: ['Payments'] },
    });
    const isPayments = (line: Line) => line.value === 'Payments';
    expect(await answer(payments, { category: KEY, dateRange: AUG_TO_OCT })).toEqual({
      category: KEY,
      date_range: AUG_TO_OCT,
      currency: 'USD',
      default_value: DEFAULT,
      ...estateFigures(ESTATE.filter(within(AUG_TO_OCT)).filter(isPayments), unallocatedByRules, { '2026-09': 1, '2026-10': 1 }, 1),
      unallocated_services: [],
      unallocated_accounts: [],
      split_flows: [],
    });
    expect(ESTATE.filter(isPayments).map((line) => line.cost)).toEqual(['12.1', '15.15', '9']);
  });

  it('reads an imported category (no default value) over the default window, the top ten services and accounts, ties by name', async () => {
    // Last month 19.75 of 58.25 (0.33905…), this month 40.25 of 80.75 (0.49845…); in all 60 of 139 (0.43165…).
    const inWindow = IMPORTED.filter(within(defaultWindow));
    expect(inWindow).toHaveLength(IMPORTED.length - 1);
    const expected = {
      category: 'Business Unit',
      date_range: defaultWindow,
      currency: 'USD',
      default_value: null,
      total: figures(inWindow, withoutBusinessUnit, 0.4317),
      months: [
        { month: lastMonth, ...figures(inWindow.filter(usedIn(lastMonth)), withoutBusinessUnit, 0.3391) },
        { month: currentMonth, ...figures(inWindow.filter(usedIn(currentMonth)), withoutBusinessUnit, 0.4985) },
      ],
      // A to J; K (tied with J, after it by name) and L are cut; M has no unallocated cost; the old 1000 is outside.
      unallocated_services: [
        [service('A'), 12],
        [service('B'), 11],
        [service('C'), 10],
        [service('D'), 9],
        [service('E'), 8],
        [service('F'), 7],
        [service('G'), 6],
        [service('H'), 5],
        [service('I'), 4],
        [service('J'), 3],
      ].map(([name, cost]) => ({ service: name, unallocated_cost: cost })),
      unallocated_accounts: [12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((cost, i) => ({ account_id: account(i + 1), unallocated_cost: cost })),
      split_flows: [],
    };
    expect(expected.total).toEqual({ amortized_cost: 139, allocated_cost: 60, unallocated_cost: 79, allocated_share: 0.4317 });
    const response = await allocation(imported, { category: 'Business Unit' });
    expect([response.status, response.body]).toEqual([200, { success: true, data: expected }]);

    // Data-scoped on one of its values: only that value's rows, all allocated.
    const payments = await t.keyFor(imported.organizationId, ['cost:read'], {
      inclusions: { costCategory: 'Business Unit', costCategoryValues: ['Payments'] },
    });
    expect(await answer(payments, { category: 'Business Unit' })).toMatchObject({
      total: { amortized_cost: 40.25, allocated_cost: 40.25, unallocated_cost: 0, allocated_share: 1 },
      months: [{ month: currentMonth, amortized_cost: 40.25, allocated_cost: 40.25, unallocated_cost: 0, allocated_share: 1 }],
      unallocated_services: [],
      unallocated_accounts: [],
    });
  });

  it('answers a category nobody defined or imported with everything unallocated', async () => {
    const inWindow = IMPORTED.filter(within(defaultWindow));
    const everything = () => true;
    // Unallocated, the costliest first: A 7.5 + 4.5 + 40.25, M 19.75, then B to I; J, K and L cut.
    const services: Array<[string, number]> = [
      ['A', 52.25],
      ['M', 19.75],
      ['B', 11],
      ['C', 10],
      ['D', 9],
      ['E', 8],
      ['F', 7],
      ['G', 6],
      ['H', 5],
      ['I', 4],
    ];
    const accountOf = (letter: string) => account(letter.charCodeAt(0) - 'A'.charCodeAt(0) + 1);
    const expectedFor = (category: string) => ({
      category,
      date_range: defaultWindow,
      currency: 'USD',
      default_value: null,
      total: figures(inWindow, everything, 0),
      months: [lastMonth, currentMonth].map((month) => ({ month, ...figures(inWindow.filter(usedIn(month)), everything, 0) })),
      unallocated_services: services.map(([letter, cost]) => ({ service: service(letter), unallocated_cost: cost })),
      unallocated_accounts: services.map(([letter, cost]) => ({ account_id: accountOf(letter), unallocated_cost: cost })),
      split_flows: [],
    });
    expect(expectedFor('Nobody').total).toEqual({ amortized_cost: 139, allocated_cost: 0, unallocated_cost: 139, allocated_share: 0 });
    expect(await answer(imported, { category: 'Nobody' })).toEqual(expectedFor('Nobody'));
    // The longest key allowed (256 characters).
    const longest = 'x'.repeat(256);
    expect(await answer(imported, { category: longest })).toEqual(expectedFor(longest));
    // Another organisation's rule-defined category is not this one's.
    expect(await answer(imported, { category: KEY })).toEqual(expectedFor(KEY));
  });

  it('counts a value equal to default_value as unallocated in any month: an imported one billed before the definition', async () => {
    // The contract: unallocated is no value or `default_value` (the latest version's), whichever month the row is billed
    // in; June has no version in effect, and its imported value is the default's text.
    const june = { start: '2026-06-01', end: '2026-06-30' };
    expect(await answer(rules, { category: KEY, dateRange: june })).toEqual({
      category: KEY,
      date_range: june,
      currency: 'USD',
      default_value: DEFAULT,
      total: { amortized_cost: 2.5, allocated_cost: 0, unallocated_cost: 2.5, allocated_share: 0 },
      months: [{ month: '2026-06', amortized_cost: 2.5, allocated_cost: 0, unallocated_cost: 2.5, allocated_share: 0 }],
      unallocated_services: [{ service: 'Amazon RDS', unallocated_cost: 2.5 }],
      unallocated_accounts: [{ account_id: '111111111111', unallocated_cost: 2.5 }],
      split_flows: [],
    });
  });

  it('refuses bad bodies with 400 naming the field, a key without cost:read with 403, no key with 401', async () => {
    const cases: Array<[object, string]> = [
      [{}, 'category'],
      [{ dateRange: AUG_TO_OCT }, 'category'],
      [{ category: '' }, 'category'],
      [{ category: 'x'.repeat(257) }, 'category'],
      [{ category: 7 }, 'category'],
      [{ category: KEY, colour: 'red' }, 'colour'],
      [{ category: KEY, dateRange: { start: '2026-10-31', end: '2026-10-01' } }, 'dateRange'],
      [{ category: KEY, dateRange: { start: '2026-10-01', end: '2026-10-31', step: 'month' } }, 'step'],
      [{ category: KEY, dateRange: { start: '2026-02-30', end: '2026-03-01' } }, 'dateRange'],
      [{ category: KEY, dateRange: { start: '2026-10-01' } }, 'dateRange'],
    ];
    for (const [body, field] of cases) expect(refused(await allocation(rules, body))).toContain(field);
    // Every offending field is named.
    const both = refused(await allocation(rules, { colour: 'red' }));
    expect(both).toContain('colour');
    expect(both).toContain('category');

    const withoutRead = await t.keyFor(
      rules.organizationId,
      SCOPES.filter((scope: string) => scope !== 'cost:read'),
    );
    const forbidden = await allocation(withoutRead, { category: KEY });
    expect([forbidden.status, forbidden.body]).toEqual([
      403,
      { success: false, error: { message: 'This API key lacks the scope required for this operation: cost:read.' } },
    ]);
    // The scope is checked before the body.
    expect((await allocation(withoutRead, {})).status).toBe(403);

    const anonymous = await t.http.post(ALLOCATION).send({ category: KEY });
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: 'Unauthorized' }]);
  });
});
