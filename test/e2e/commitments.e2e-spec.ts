// modes: embedded server cluster — commitment figures summed by the store's SQL
import { parse } from 'csv-parse/sync';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { addDays, todayUtc } from '../../src/common/dates/calendar-date';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { COST_TYPES } from '../../src/demo/demo-data.generator';
import { loadDemoData } from '../../src/demo/demo-data.loader';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * POST /v1/cost-insights/commitments: a savings plan used on two days and left partly unused, a reservation, usage no
 * commitment covered (in an eligible service and in another) and a commitment purchase. Every expected figure is worked
 * out by hand beside it from the rows below.
 */
const DAY_1 = '2026-10-05';
const DAY_2 = '2026-10-06';
const WINDOW = { start: DAY_1, end: DAY_2 };
const SAVINGS_PLAN = {
  commitment_discount_id: 'arn:sp-1',
  commitment_discount_name: 'Compute SP',
  commitment_discount_type: 'Savings Plan',
  commitment_discount_category: 'Spend',
  billing_account_id: '123456789012',
};

const row = (usage_date: string, service: string, amortized: string, onDemand: string, extra: Partial<RowInput> = {}): RowInput => ({
  usage_date,
  service,
  amortized_cost: amortized,
  on_demand_cost: onDemand,
  charge_category: 'Usage',
  ...extra,
});
const ROWS: RowInput[] = [
  row(DAY_1, 'Amazon EC2', '6', '10', { ...SAVINGS_PLAN, commitment_discount_status: 'Used' }),
  row(DAY_2, 'Amazon EC2', '3', '5', { ...SAVINGS_PLAN, commitment_discount_status: 'Used' }),
  row(DAY_2, 'Amazon EC2', '1', '0', { ...SAVINGS_PLAN, commitment_discount_status: 'Unused', cost_type: 'Unused Commitment' }),
  row(DAY_1, 'Amazon EC2', '20', '20'),
  row(DAY_1, 'Amazon S3', '7', '7'),
  row(DAY_1, 'Amazon RDS', '2', '4', {
    commitment_discount_id: 'ri-1',
    commitment_discount_name: 'db.r6g',
    commitment_discount_type: 'Reserved Instance',
    commitment_discount_category: 'Usage',
    commitment_discount_status: 'Used',
    commitment_discount_quantity: '3',
    commitment_discount_unit: 'Hours',
    billing_account_id: '123456789012',
  }),
  row(DAY_1, 'Savings Plans for AWS Compute usage', '0', '0', { ...SAVINGS_PLAN, charge_category: 'Purchase', billed_cost: '100' }),
];

describe('POST /v1/cost-insights/commitments', () => {
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await TestApp.start();
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, ROWS);
  });
  afterAll(async () => {
    await t?.close();
  });

  const ask = (who: TestOrganization, body: object) => t.http.post('/v1/cost-insights/commitments').set(who.auth).send(body);

  it('measures each commitment and the total: used, unused, utilisation, coverage of eligible usage, savings', async () => {
    const response = await ask(org, { filters: { inclusions: { dateRange: WINDOW } } });
    expect(response.status).toBe(200);
    const { eligible_services, total, commitments } = response.body.data;
    // Services where a commitment covered usage; S3 and the purchase's service are not.
    expect(eligible_services).toEqual(['Amazon EC2', 'Amazon RDS']);
    expect(total).toEqual({
      used_cost: 11, // 6 + 3 + 2
      unused_cost: 1,
      utilization: 0.916667, // 11 / 12
      coverage: 0.487179, // covered list 10 + 5 + 4 = 19 of eligible 19 + 20 = 39
      on_demand_equivalent: 19,
      savings: 7, // 19 − 11 − 1
      effective_savings_rate: 0.368421, // 7 / 19
    });
    expect(commitments).toEqual([
      {
        commitment_discount_id: 'arn:sp-1',
        name: 'Compute SP',
        type: 'Savings Plan',
        category: 'Spend',
        provider: 'AWS',
        billing_account_id: '123456789012',
        used_cost: 9,
        unused_cost: 1,
        utilization: 0.9,
        coverage: null,
        on_demand_equivalent: 15,
        savings: 5, // 15 − 9 − 1
        effective_savings_rate: 0.333333,
      },
      {
        commitment_discount_id: 'ri-1',
        name: 'db.r6g',
        type: 'Reserved Instance',
        category: 'Usage',
        provider: 'AWS',
        billing_account_id: '123456789012',
        used_cost: 2,
        unused_cost: 0,
        utilization: 1,
        coverage: null,
        on_demand_equivalent: 4,
        savings: 2,
        effective_savings_rate: 0.5,
        quantities: { unit: 'Hours', used: 3, unused: 0, utilization: 1 },
      },
    ]);
  });

  it('gives a series per day with dateGrouping, eligible services as asked, and the key’s data scope', async () => {
    const daily = await ask(org, {
      filters: { inclusions: { dateRange: WINDOW } },
      dateGrouping: 'daily',
      eligibleServices: ['Amazon EC2'],
    });
    expect(daily.status).toBe(200);
    const { series, commitments, total } = daily.body.data;
    expect(series.map((bucket: Record<string, number>) => [bucket.date, bucket.used_cost, bucket.unused_cost, bucket.coverage])).toEqual([
      [DAY_1, 8, 0, 0.333333], // EC2 only: covered 10 of 10 + 20
      [DAY_2, 3, 1, 1], // 5 of 5
    ]);
    expect(total.coverage).toBe(0.428571); // 15 of 35
    expect(commitments[0].series.map((bucket: Record<string, number>) => [bucket.date, bucket.used_cost, bucket.utilization])).toEqual([
      [DAY_1, 6, 1],
      [DAY_2, 3, 0.75],
    ]);

    const rdsOnly = await t.keyFor(org.organizationId, ['cost:read'], { inclusions: { services: ['Amazon RDS'] } });
    const scoped = (await ask(rdsOnly, { filters: { inclusions: { dateRange: WINDOW } } })).body.data;
    expect([scoped.eligible_services, scoped.total.used_cost, scoped.total.coverage]).toEqual([['Amazon RDS'], 2, 1]);
    expect(scoped.commitments.map((commitment: { commitment_discount_id: string }) => commitment.commitment_discount_id)).toEqual(['ri-1']);
  });

  it('counts a row carrying FOCUS 1.4 CommitmentProgramEligibilityDetails as eligible by its programs, whatever its service', async () => {
    const who = await t.newOrganization();
    const programs = (...types: string[]) => JSON.stringify({ CommitmentPrograms: types.map((ProgramType) => ({ ProgramType })) });
    const spend = { ...SAVINGS_PLAN, commitment_discount_id: 'sp-9' };
    await t.insertRows(who.organizationId, [
      // Covered by a savings plan: list 10, carrying its program.
      row(DAY_1, 'Amazon EC2', '6', '10', {
        ...spend,
        commitment_discount_status: 'Used',
        commitment_program_eligibility: programs('Savings Plan'),
      }),
      // Eligible for a savings plan by its details, in a service no commitment covered: list 5, eligible.
      row(DAY_1, 'AWS Lambda', '5', '5', { commitment_program_eligibility: programs('Savings Plan') }),
      // Eligible only for a capacity program no commitment of the window is: list 7, not eligible, though in EC2.
      row(DAY_1, 'Amazon EC2', '7', '7', { commitment_program_eligibility: programs('AdvanceResourceCommitment') }),
      // Without details: by service, EC2 eligible (list 3), S3 not (list 4).
      row(DAY_1, 'Amazon EC2', '3', '3'),
      row(DAY_1, 'Amazon S3', '4', '4'),
    ]);
    const answer = (await ask(who, { filters: { inclusions: { dateRange: WINDOW } } })).body.data;
    expect([answer.eligible_services, answer.eligible_program_types]).toEqual([['Amazon EC2'], ['Savings Plan']]);
    expect(answer.total.coverage).toBe(0.555556); // covered 10 of eligible 10 + 5 + 3 = 18
  });

  it('rounds rates half away from zero at the sixth place, exactly, keeps large sums whole, and orders equal costs by id and account', async () => {
    const who = await t.newOrganization();
    const plan = (id: string, account: string) => ({ ...SAVINGS_PLAN, commitment_discount_id: id, billing_account_id: account });
    const used = (id: string, account: string, amortized: string, onDemand: string) =>
      row(DAY_1, 'Amazon EC2', amortized, onDemand, { ...plan(id, account), commitment_discount_status: 'Used' });
    const unused = (id: string, account: string, amortized: string) =>
      row(DAY_1, 'Amazon EC2', amortized, '0', { ...plan(id, account), commitment_discount_status: 'Unused' });
    await t.insertRows(who.organizationId, [
      // Cost 3 each: b, then a in two accounts (listed a/1, a/2, b).
      used('sp-b', '1', '2', '4'),
      unused('sp-b', '1', '1'), // utilisation 2/3 = 0.6666666… → 0.666667; savings 4 − 3 = 1, rate 0.25
      used('sp-a', '2', '1', '2'),
      unused('sp-a', '2', '2'), // utilisation 1/3 → 0.333333; savings −1, rate −0.5
      used('sp-a', '1', '2.000001', '2'),
      unused('sp-a', '1', '0.999999'), // utilisation 2.000001/3 = 0.666667 exactly; savings −1, rate −0.5
      // Cost 2.000001: savings 2 − 2.000001 = −0.000001 of 2 = −0.0000005 → −0.000001 (away from zero).
      used('sp-e', '1', '2.000001', '2'),
      // Cost 1: utilisation 0.0000005 → 0.000001; no on-demand equivalent: rate 0.
      used('sp-c', '1', '0.0000005', '0'),
      unused('sp-c', '1', '0.9999995'),
      // Cost 0.000003: savings 1.999997 of 2 = 0.9999985 → 0.999999 (half away, not to even).
      used('sp-d', '1', '0.000003', '2'),
      // The largest: 900 trillion used, 100 trillion unused; savings −1e-10 of 1e15 rounds to 0.
      used('sp-big', '1', '900000000000000.0000000001', '1000000000000000'),
      unused('sp-big', '1', '100000000000000'),
    ]);
    const { commitments } = (await ask(who, { filters: { inclusions: { dateRange: WINDOW } } })).body.data;
    const figures = (c: Record<string, unknown>) => [
      c.commitment_discount_id,
      c.billing_account_id,
      c.utilization,
      c.savings,
      c.effective_savings_rate,
    ];
    expect(commitments.map(figures)).toEqual([
      ['sp-big', '1', 0.9, -1e-10, 0],
      ['sp-a', '1', 0.666667, -1, -0.5],
      ['sp-a', '2', 0.333333, -1, -0.5],
      ['sp-b', '1', 0.666667, 1, 0.25],
      ['sp-e', '1', 1, -0.000001, -0.000001],
      ['sp-c', '1', 0.000001, -1, 0],
      ['sp-d', '1', 1, 1.999997, 0.999999],
    ]);
  });

  it('answers the demo estate’s savings plans and reservations as /data sums their covered usage', async () => {
    const demo = await t.newOrganization();
    await loadDemoData(t.clickhouse, { organizationId: demo.organizationId, days: 40 });
    const window = { start: addDays(todayUtc(), -29), end: todayUtc() };
    const answer = (await ask(demo, { filters: { inclusions: { dateRange: window } }, currency: 'USD' })).body.data;
    const covered = await t.http
      .post('/v1/cost-insights/data')
      .set(demo.auth)
      .send({
        currency: 'USD',
        filters: { inclusions: { dateRange: window, costTypes: [COST_TYPES.savingsPlanCovered, COST_TYPES.reservationCovered] } },
        groupBy: { dateGrouping: 'monthly' },
      });
    const { total_amortized_cost, total_on_demand_cost } = covered.body.data.summary;
    expect(answer.total.used_cost).toBeCloseTo(total_amortized_cost, 6);
    expect(answer.total.on_demand_equivalent).toBeCloseTo(total_on_demand_cost, 6);
    // The demo leaves no commitment unused; each cloud's kinds are there.
    expect(answer.total.utilization).toBe(1);
    expect(answer.total.coverage).toBeGreaterThan(0);
    expect(answer.total.coverage).toBeLessThan(1);
    expect(new Set(answer.commitments.map((commitment: { type: string }) => commitment.type))).toEqual(
      new Set(['Savings Plan', 'Reserved Instance', 'Reservation', 'Committed Use Discount']),
    );
  });

  it('answers zeros and an empty list for a window without commitments, and refuses bad input with a 400', async () => {
    const empty = await ask(org, { filters: { inclusions: { dateRange: { start: '2026-09-01', end: '2026-09-30' } } } });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({
      eligible_services: [],
      commitments: [],
      total: { used_cost: 0, unused_cost: 0, utilization: 0, coverage: 0, on_demand_equivalent: 0, savings: 0, effective_savings_rate: 0 },
    });
    for (const body of [{ dateGrouping: 'hourly' }, { eligibleServices: 'EC2' }, { colour: 'red' }]) {
      const response = await ask(org, body);
      expect([response.status, response.body.success]).toEqual([400, false]);
    }
    expect((await t.http.post('/v1/cost-insights/commitments').send({})).status).toBe(401);
  });

  /**
   * The FOCUS specification's own commitment examples (test/fixtures/focus/focus-spec-examples), imported by `ingest
   * focus`: each a subset of columns, completed here with the required ones it lacks (one currency, account, service
   * and provider; ListCost, where absent, the row's EffectiveCost) and the examples' `null` written as empty.
   * Expected figures worked out by hand from each file, beside them.
   */
  describe('POST /v1/cost-insights/commitments on the FOCUS specification examples', () => {
    const EXAMPLES = resolve(__dirname, '../fixtures/focus/focus-spec-examples');
    const JANUARY = { start: '2023-01-01', end: '2023-01-31' };
    const ID = '<my-commitment-discount-id>';
    let tmp: string;

    beforeAll(() => {
      tmp = join(process.env.E2E_TMP_DIR ?? '.test-tmp', `commitment-examples-${randomBytes(4).toString('hex')}`);
      mkdirSync(tmp, { recursive: true });
    });
    afterAll(() => rmSync(tmp, { recursive: true, force: true }));

    /** The example imported into a fresh organisation, and its /commitments answer for January 2023. */
    async function answerFor(example: string, eligibleServices?: string[]) {
      const records = parse(readFileSync(join(EXAMPLES, example), 'utf8'), { columns: true, skip_empty_lines: true }) as Record<
        string,
        string
      >[];
      const added = { BillingCurrency: 'USD', BillingAccountId: 'BA-1', ServiceName: 'Virtual Machines', ProviderName: 'Example Cloud' };
      const columns = [...new Set([...Object.keys(records[0]), 'ListCost', ...Object.keys(added)])];
      const cell = (value: string | undefined) => `"${(value === undefined || value === 'null' ? '' : value).replace(/"/g, '""')}"`;
      const lines = records.map((record) => {
        const row: Record<string, string> = { ...added, ListCost: record.EffectiveCost, ...record };
        return columns.map((column) => cell(row[column])).join(',');
      });
      const file = join(tmp, example.replace(/\//g, '-'));
      writeFileSync(file, [columns.join(','), ...lines].join('\n') + '\n');
      const org = await t.newOrganization();
      await ingestFocus(t.clickhouse, { paths: [file], organizationId: org.organizationId });
      const response = await t.http
        .post('/v1/cost-insights/commitments')
        .set(org.auth)
        .send({ filters: { inclusions: { dateRange: JANUARY } }, ...(eligibleServices ? { eligibleServices } : {}) });
      expect(response.status).toBe(200);
      return response.body.data;
    }

    it('flexibility across one resource: a large VM a third covered, the rest on demand', async () => {
      const answer = await answerFor(
        'commitment_discount_flexibility/one_hundred_percent_utilization_with_commitment_discount_flexibility_with_1_resource.csv',
      );
      // Used: EffectiveCost 0.50 at ListCost 3.00 (the purchase counts in neither); on demand: 2.25 at 2.25.
      expect(answer.total).toEqual({
        used_cost: 0.5,
        unused_cost: 0,
        utilization: 1,
        coverage: 0.571429, // covered list 3.00 of eligible 3.00 + 2.25 = 5.25
        on_demand_equivalent: 3,
        savings: 2.5, // 3.00 − 0.50
        effective_savings_rate: 0.833333, // 2.5 / 3
      });
      expect(answer.commitments).toHaveLength(1);
      expect(answer.commitments[0]).toMatchObject({
        commitment_discount_id: ID,
        category: 'Usage',
        quantities: { unit: 'Normalized Hour', used: 1, unused: 0, utilization: 1 },
      });
    });

    it('flexibility across two resources: two medium VMs share one normalised commitment', async () => {
      const answer = await answerFor(
        'commitment_discount_flexibility/one_hundred_percent_utilization_with_commitment_discount_flexibility_with_2_resources.csv',
      );
      // Two used rows, each EffectiveCost 1.00 at ListCost 2.00, 2 normalised hours.
      expect(answer.total).toEqual({
        used_cost: 2,
        unused_cost: 0,
        utilization: 1,
        coverage: 1, // all of the eligible usage (4.00) is covered
        on_demand_equivalent: 4,
        savings: 2,
        effective_savings_rate: 0.5,
      });
      expect(answer.commitments[0].quantities).toEqual({ unit: 'Normalized Hour', used: 4, unused: 0, utilization: 1 });
    });

    it('no flexibility: an hour used, then an hour unused beside on-demand usage', async () => {
      const used = await answerFor(
        'commitment_discount_flexibility/one_hundred_percent_utilization_without_commitment_discount_flexibility.csv',
      );
      expect(used.total).toEqual({
        used_cost: 1.5,
        unused_cost: 0,
        utilization: 1,
        coverage: 1,
        on_demand_equivalent: 3,
        savings: 1.5,
        effective_savings_rate: 0.5,
      });
      expect(used.commitments[0].quantities).toEqual({ unit: 'Hour', used: 1, unused: 0, utilization: 1 });
      const idle = await answerFor('commitment_discount_flexibility/zero_percent_utilization_without_commitment_discount_flexibility.csv');
      // Unused: EffectiveCost 1.50; the medium VM on demand 2.00. No commitment was used: no service is eligible.
      expect(idle.eligible_services).toEqual([]);
      expect(idle.total).toEqual({
        used_cost: 0,
        unused_cost: 1.5,
        utilization: 0,
        coverage: 0,
        on_demand_equivalent: 0,
        savings: -1.5, // 0 − 0 − 1.50: the waste
        effective_savings_rate: 0,
      });
      expect(idle.commitments[0].quantities).toEqual({ unit: 'Hour', used: 0, unused: 1, utilization: 0 });
      // Named as eligible, the service's on-demand usage (2.00) is what the commitment failed to cover.
      expect(
        (
          await answerFor('commitment_discount_flexibility/zero_percent_utilization_without_commitment_discount_flexibility.csv', [
            'Virtual Machines',
          ])
        ).total.coverage,
      ).toBe(0);
    });

    it.each([
      // [scenario, used, unused, utilisation, coverage]
      ['commitment_discount_usage_scenario_1.csv', 1, 0, 1, 1],
      ['commitment_discount_usage_scenario_2.csv', 0, 1, 0, 0], // unused only: nothing eligible
      ['commitment_discount_usage_scenario_3.csv', 0.75, 0.25, 0.75, 1],
      ['commitment_discount_usage_scenario_4.csv', 1, 0, 1, 0.666667], // covered 1.00 of 1.00 + 0.50 on demand
    ])('usage %s: used %d, unused %d, utilisation %d, coverage %d', async (scenario, used, unused, utilization, coverage) => {
      const answer = await answerFor(`commitment_discount_scenarios/${scenario}`);
      expect(answer.total).toMatchObject({ used_cost: used, unused_cost: unused, utilization, coverage });
    });
  });
});
