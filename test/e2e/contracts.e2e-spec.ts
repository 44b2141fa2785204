// modes: embedded server cluster — the Contract Commitment dataset's loads and the ContractApplied sums are the store's
import { randomBytes } from 'node:crypto';
import { copyFileSync, createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { join, resolve } from 'node:path';
import { ContractCommitmentDto, ContractDto } from '../../src/commitments/dto/contracts.dto';
import { addDays, daysInRange } from '../../src/common/dates/calendar-date';
import { decimalText, scaled } from '../../src/common/money/scaled-decimal';
import { DEMO_CONTRACT, DEMO_DEFAULT_SEED, generateDemoRows } from '../../src/demo/demo-data.generator';
import { loadDemoData } from '../../src/demo/demo-data.loader';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * POST /v1/cost-insights/contracts on the FOCUS 1.3 specification's own Contract Commitment examples (contracts
 * AGR-99-BETA and AGR-44-GAMMA, copied into test/fixtures), imported by `ingest focus`, with cost rows whose
 * ContractApplied elements draw them down. Every expected figure is worked out by hand beside it.
 */
const FIXTURES = resolve(__dirname, '../fixtures/focus/focus-spec-examples/contract_commitments');
const AS_OF = '2026-11-20';
/** CMT-SPEND-001 (Spend, 925000.00 EUR, 2025-12-01 → 2028-12-01): 100 EUR applied every day of its period up to AS_OF. */
const SPEND_DAYS = 355; // 2025-12-01 … 2026-11-20: 31 (December) + 304 (January … October) + 20
const applied = (...elements: object[]) => JSON.stringify({ Elements: elements });
const spend = (cost: number | string) => ({
  ContractId: 'AGR-99-BETA',
  ContractCommitmentId: 'CMT-SPEND-001',
  ContractCommitmentAppliedCost: cost,
});

function rows(): RowInput[] {
  const daily = Array.from({ length: SPEND_DAYS }, (_, i) => ({
    usage_date: addDays('2025-12-01', i),
    billing_currency: 'EUR',
    amortized_cost: '100',
    contract_applied: applied(spend(100)),
  }));
  return [
    ...daily,
    // CMT-RI-002 (Usage, 10.00 Instance-Hours): 2 + 3 + 1.5 = 6.5 hours applied, 10 + 15 + 7.5 = 32.5 EUR; on Azure.
    { usage_date: '2026-03-02', billing_currency: 'EUR', cloud: 'Azure', contract_applied: applied(ri(2, 10)) },
    { usage_date: '2026-06-10', billing_currency: 'EUR', cloud: 'Azure', contract_applied: applied(ri(3, 15)) },
    // The `…ID` spelling of the 1.3 text and a quoted number are read too.
    {
      usage_date: '2026-09-15',
      billing_currency: 'EUR',
      cloud: 'Azure',
      contract_applied: applied({
        ContractID: 'AGR-99-BETA',
        ContractCommitmentID: 'CMT-RI-002',
        ContractCommitmentAppliedCost: '7.5',
        ContractCommitmentAppliedQuantity: 1.5,
      }),
    },
    // Not counted: before the period, after AS_OF, in another currency than the commitment's, another organisation's id.
    { usage_date: '2025-11-30', billing_currency: 'EUR', contract_applied: applied(spend(1000)) },
    { usage_date: '2026-11-21', billing_currency: 'EUR', contract_applied: applied(spend(1000)) },
    { usage_date: '2026-11-10', billing_currency: 'USD', contract_applied: applied(spend(1000)) },
    {
      usage_date: '2026-11-10',
      billing_currency: 'EUR',
      contract_applied: applied({ ContractCommitmentId: 'CMT-ELSEWHERE', ContractCommitmentAppliedCost: 5 }),
    },
  ];
}

function ri(hours: number, cost: number) {
  return {
    ContractId: 'AGR-99-BETA',
    ContractCommitmentId: 'CMT-RI-002',
    ContractCommitmentAppliedCost: cost,
    ContractCommitmentAppliedQuantity: hours,
    ContractCommitmentAppliedUnit: 'Instance-Hours',
  };
}

describe('POST /v1/cost-insights/contracts', () => {
  let t: TestApp;
  let tmp: string;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await TestApp.start();
    tmp = join(process.env.E2E_TMP_DIR ?? '.test-tmp', `contracts-${randomBytes(4).toString('hex')}`);
    mkdirSync(tmp, { recursive: true });
    org = await t.newOrganization();
    await t.insertRows(org.organizationId, rows());
    const summary = await importInto(org, [
      join(FIXTURES, 'contract_commitment_scenario_1.csv'),
      join(FIXTURES, 'contract_commitment_scenario_2.csv'),
    ]);
    expect(summary.contracts).toEqual({ contracts: ['AGR-44-GAMMA', 'AGR-99-BETA'], commitments: 6 });
    expect(summary.rows).toBe(0);
  });
  afterAll(async () => {
    rmSync(tmp, { recursive: true, force: true });
    await t?.close();
  });

  const importInto = (who: TestOrganization, paths: string[]) => ingestFocus(t.clickhouse, { paths, organizationId: who.organizationId });
  const ask = (who: TestOrganization, body: object) => t.http.post('/v1/cost-insights/contracts').set(who.auth).send(body);
  const commitmentsOf = async (who: TestOrganization, body: object = { asOf: AS_OF }): Promise<Record<string, ContractCommitmentDto>> => {
    const response = await ask(who, body);
    expect(response.status).toBe(200);
    return Object.fromEntries(
      (response.body.data.contracts as ContractDto[]).flatMap((contract) =>
        contract.commitments.map((commitment) => [commitment.contract_commitment_id, commitment]),
      ),
    );
  };
  const file = (name: string, lines: string[]) => {
    const path = join(tmp, name);
    writeFileSync(path, lines.join('\n') + '\n');
    return path;
  };
  const HEADER =
    'ContractId,ContractCommitmentId,ContractCommitmentCategory,ContractCommitmentCost,ContractCommitmentQuantity,ContractCommitmentUnit,' +
    'ContractCommitmentPeriodStart,ContractCommitmentPeriodEnd,ContractPeriodStart,ContractPeriodEnd,BillingCurrency';

  it('burns a spend pool down by the applied cost and projects it to the period end', async () => {
    const response = await ask(org, { asOf: AS_OF, contractIds: ['AGR-99-BETA'] });
    expect(response.status).toBe(200);
    const { as_of, level, contracts } = response.body.data;
    expect([as_of, level]).toEqual([AS_OF, 80]);
    expect(contracts.map((c: { contract_id: string }) => c.contract_id)).toEqual(['AGR-99-BETA']);
    expect(contracts[0]).toMatchObject({ period_start: '2025-12-01T00:00:00Z', period_end: '2028-12-01T00:00:00Z' });
    const pool = contracts[0].commitments.find((c: { contract_commitment_id: string }) => c.contract_commitment_id === 'CMT-SPEND-001');
    // Days left: 2026-11-21 … 2028-11-30 = 10 + 31 + 365 + 335 (2028 a leap year, to November) = 741.
    expect(pool).toEqual({
      contract_commitment_id: 'CMT-SPEND-001',
      category: 'Spend',
      type: 'Enterprise Agreement',
      description: '3yr Enterprise Spend Goal',
      currency: 'EUR',
      period_start: '2025-12-01T00:00:00Z',
      period_end: '2028-12-01T00:00:00Z',
      committed_cost: 925000,
      committed_quantity: 1000000,
      unit: 'USD',
      burn_measure: 'cost',
      applied_cost: 35500, // 355 days × 100
      applied_quantity: null,
      burned: 0.038378, // 35500 / 925000 = 0.0383783…
      days_elapsed: SPEND_DAYS,
      days_left: 741,
      // 100 a day, every day: the model fits it exactly, so 35500 + 741 × 100, no spread; 109600 / 925000 = 0.1184864…
      projected: { applied: 109600, lower: 109600, upper: 109600, burned: 0.118486 },
    });
  });

  it('burns a usage commitment down by the applied quantity, read in either key spelling', async () => {
    const { 'CMT-RI-002': reservation, 'CMT-SaaS-003': saas } = await commitmentsOf(org);
    expect(reservation).toMatchObject({
      category: 'Usage',
      committed_cost: 46250,
      committed_quantity: 10,
      unit: 'Instance-Hours',
      burn_measure: 'quantity',
      applied_cost: 32.5, // 10 + 15 + 7.5
      applied_quantity: 6.5, // 2 + 3 + 1.5
      burned: 0.65, // 6.5 / 10
      days_elapsed: SPEND_DAYS,
      days_left: 10, // 2026-11-21 … 2026-11-30 (the period ends 2026-12-01, exclusive)
    });
    expect(reservation.projected!.lower).toBeLessThanOrEqual(reservation.projected!.applied);
    expect(reservation.projected!.applied).toBeLessThanOrEqual(reservation.projected!.upper);
    // Nothing applied to the marketplace pool (2026-01-15 → 2027-01-15): all zeros, never NaN.
    expect(saas).toMatchObject({
      burn_measure: 'cost',
      applied_cost: 0,
      burned: 0,
      days_elapsed: 310, // 2026-01-15 … 2026-11-20: 17 + 28 + 31 + 30 + 31 + 30 + 31 + 31 + 30 + 31 + 20
      days_left: 55, // 2026-11-21 … 2027-01-14: 10 + 31 + 14
      projected: { applied: 0, lower: 0, upper: 0, burned: 0 },
    });
  });

  it('says why there is no projection: a period ended, one too young', async () => {
    const { 'CMT-AI-888': ended, 'CMT-SEC-999': seats } = await commitmentsOf(org);
    // 2026-02-01 → 2026-05-01: ended before AS_OF; 89 days (28 + 31 + 30).
    expect(ended).toMatchObject({
      days_elapsed: 89,
      days_left: 0,
      projected: null,
      projection_note: 'the period has ended: applied is final',
    });
    // As of 2026-02-10, ten days of 2026-02-01 → 2027-02-01 have passed.
    const young = (await commitmentsOf(org, { asOf: '2026-02-10' }))['CMT-SEC-999'];
    expect(young).toMatchObject({ days_elapsed: 10, days_left: 355, projected: null });
    expect(young.projection_note).toMatch(/fewer than 14 days/);
    expect(seats.days_left).toBe(72); // 2026-11-21 … 2027-01-31
  });

  it('counts what a data-scoped key sees', async () => {
    const awsOnly = await t.keyFor(org.organizationId, undefined, { inclusions: { clouds: ['AWS'] } });
    const { 'CMT-RI-002': reservation, 'CMT-SPEND-001': pool } = await commitmentsOf(awsOnly);
    expect([reservation.applied_cost, reservation.applied_quantity, reservation.burned]).toEqual([0, null, 0]);
    expect(pool.applied_cost).toBe(35500);
  });

  it('replaces a re-imported contract whole and keeps the others; a load cut short is never read', async () => {
    const other = await t.newOrganization();
    await importInto(other, [join(FIXTURES, 'contract_commitment_scenario_1.csv'), join(FIXTURES, 'contract_commitment_scenario_2.csv')]);
    const replacement = file('agr-99-v2.csv', [
      HEADER,
      'AGR-99-BETA,CMT-SPEND-001,Spend,900000.50,,,2025-12-01T00:00:00Z,2028-12-01T00:00:00Z,2025-12-01,2028-12-01,EUR',
    ]);
    const summary = await importInto(other, [replacement]);
    expect(summary.contracts).toEqual({ contracts: ['AGR-99-BETA'], commitments: 1 });
    const after = await commitmentsOf(other);
    expect(Object.keys(after).sort()).toEqual(['CMT-AI-888', 'CMT-DATA-111', 'CMT-SEC-999', 'CMT-SPEND-001']);
    expect(after['CMT-SPEND-001'].committed_cost).toBe(900000.5);

    // A load with its `started` mark and rows but no `complete` (cut short): not read.
    const loadedAt = '2030-01-01 00:00:00.000000';
    await t.clickhouse.insert('contract_commitment_loads', [
      { organization_id: other.organizationId, loaded_at: loadedAt, state: 'started' },
    ]);
    await t.clickhouse.insert('contract_commitments', [
      {
        organization_id: other.organizationId,
        contract_id: 'AGR-44-GAMMA',
        loaded_at: loadedAt,
        contract_commitment_id: 'CMT-HALF',
        category: 'Spend',
        type: '',
        description: '',
        cost: '1',
        quantity: null,
        unit: '',
        period_start: '2026-01-01 00:00:00',
        period_end: '2027-01-01 00:00:00',
        contract_period_start: '2026-01-01 00:00:00',
        contract_period_end: '2027-01-01 00:00:00',
        billing_currency: 'USD',
      },
    ]);
    const cut = await ask(other, { asOf: AS_OF, contractIds: ['AGR-44-GAMMA'] });
    expect(cut.body.data.contracts[0].commitments.map((c: { contract_commitment_id: string }) => c.contract_commitment_id)).toEqual([
      'CMT-AI-888',
      'CMT-DATA-111',
      'CMT-SEC-999',
    ]);
  });

  it('refuses a bad Contract Commitment file whole, naming line and column, and changes nothing', async () => {
    const who = await t.newOrganization();
    await importInto(who, [join(FIXTURES, 'contract_commitment_scenario_2.csv')]);
    const good = 'AGR-1,CMT-A,Spend,10,,,2026-01-01,2027-01-01,2026-01-01,2027-01-01,USD';
    const refused = async (name: string, lines: string[], message: RegExp) => {
      const path = file(name, lines);
      await expect(importInto(who, [path])).rejects.toThrow(message);
    };
    await refused(
      'missing.csv',
      [HEADER.replace(',BillingCurrency', ''), good.replace(/,USD$/, '')],
      /missing\.csv: a Contract Commitment dataset missing required column\(s\): BillingCurrency/,
    );
    await refused(
      'backwards.csv',
      [HEADER, good, 'AGR-1,CMT-B,Spend,10,,,2026-06-01,2026-05-01,2026-01-01,2027-01-01,USD'],
      /backwards\.csv:line 3: ContractCommitmentPeriodEnd 2026-05-01 00:00:00 is not after ContractCommitmentPeriodStart/,
    );
    await refused(
      'currency.csv',
      [HEADER, good.replace(/USD$/, 'usd')],
      /currency\.csv:line 2: BillingCurrency is not an ISO 4217 currency code: "usd"/,
    );
    await refused(
      'reused.csv',
      [HEADER, 'AGR-1,CMT-SEC-999,Usage,,500,Seats,2026-02-01,2027-02-01,2026-02-01,2029-02-01,EUR'],
      /reused\.csv:line 2: BillingCurrency EUR differs from USD, the currency commitment CMT-SEC-999 has in contract AGR-44-GAMMA/,
    );
    await refused(
      'twice.csv',
      [HEADER, good, good],
      /twice\.csv:line 3: ContractCommitmentId CMT-A is listed twice \(first at .*twice\.csv:line 2\)/,
    );
    await refused(
      'usage.csv',
      [HEADER, 'AGR-1,CMT-U,Usage,5,,,2026-01-01,2027-01-01,2026-01-01,2027-01-01,USD'],
      /usage\.csv:line 2: ContractCommitmentQuantity is empty/,
    );
    const { contracts } = (await ask(who, { asOf: AS_OF })).body.data;
    expect(contracts.map((c: { contract_id: string }) => c.contract_id)).toEqual(['AGR-44-GAMMA']);
  });

  it('reads the dataset from Parquet too (typed columns, written by ClickHouse), naming a bad row', async () => {
    const who = await t.newOrganization();
    const at = (time: string) => `toDateTime('${time}', 'UTC')`;
    const commitment = (id: string, category: string, cost: string, quantity: string, unit: string, end: string) =>
      `SELECT 'AGR-P' AS ContractId, '${id}' AS ContractCommitmentId, '${category}' AS ContractCommitmentCategory,
              ${cost} AS ContractCommitmentCost, ${quantity} AS ContractCommitmentQuantity, '${unit}' AS ContractCommitmentUnit,
              ${at('2026-01-01 00:00:00')} AS ContractCommitmentPeriodStart, ${at(end)} AS ContractCommitmentPeriodEnd,
              ${at('2026-01-01 00:00:00')} AS ContractPeriodStart, ${at('2029-01-01 00:00:00')} AS ContractPeriodEnd,
              'USD' AS BillingCurrency, 'read past' AS x_Note`;
    /** Two commitments as typed Parquet columns (decimals, timestamps, a NULL quantity), the second ending at `usageEnd`. */
    const parquet = async (name: string, usageEnd: string) => {
      const path = join(tmp, name);
      const spend = commitment(
        'CMT-P-SPEND',
        'Spend',
        'toDecimal64(120000.5, 2)',
        'CAST(NULL AS Nullable(Decimal64(2)))',
        '',
        '2027-01-01 00:00:00',
      );
      const usage = commitment('CMT-P-USAGE', 'Usage', 'toDecimal64(9000, 2)', 'toNullable(toDecimal64(300, 2))', 'Hours', usageEnd);
      const result = await t.clickhouse.client.exec({
        query: `SELECT * FROM (${spend} UNION ALL ${usage}) ORDER BY ContractCommitmentId FORMAT Parquet`,
      });
      await pipeline(result.stream, createWriteStream(path));
      return path;
    };
    const summary = await importInto(who, [await parquet('contracts.parquet', '2027-01-01 00:00:00')]);
    expect(summary.contracts).toEqual({ contracts: ['AGR-P'], commitments: 2 });
    const { 'CMT-P-SPEND': spend, 'CMT-P-USAGE': usage } = await commitmentsOf(who);
    expect(spend).toMatchObject({ committed_cost: 120000.5, committed_quantity: null, unit: null, period_end: '2027-01-01T00:00:00Z' });
    expect(usage).toMatchObject({ committed_cost: 9000, committed_quantity: 300, unit: 'Hours', burn_measure: 'quantity' });
    await expect(importInto(who, [await parquet('backwards.parquet', '2025-06-01 00:00:00')])).rejects.toThrow(
      /backwards\.parquet:row 2: ContractCommitmentPeriodEnd 2025-06-01 00:00:00 is not after ContractCommitmentPeriodStart/,
    );
  });

  it('imports a cost export and a Contract Commitment file in one run', async () => {
    const who = await t.newOrganization();
    const costs = join(tmp, 'costs.csv');
    copyFileSync(resolve(__dirname, '../fixtures/focus/focus_sample.csv'), costs);
    const summary = await importInto(who, [costs, join(FIXTURES, 'contract_commitment_scenario_2.csv')]);
    expect(summary.rows).toBe(1000);
    expect(summary.contracts).toEqual({ contracts: ['AGR-44-GAMMA'], commitments: 3 });

    // A dataset refused beside a cost export (a commitment kept in USD by AGR-44-GAMMA, given in EUR by another
    // contract): refused before anything is written, the cost rows of the export too.
    const other = await t.newOrganization();
    await importInto(other, [join(FIXTURES, 'contract_commitment_scenario_2.csv')]);
    const reused = file('reused-beside-costs.csv', [
      HEADER,
      'AGR-2,CMT-SEC-999,Usage,,500,Seats,2026-02-01,2027-02-01,2026-02-01,2029-02-01,EUR',
    ]);
    await expect(importInto(other, [costs, reused])).rejects.toThrow(/differs from USD/);
    const [{ rows }] = await t.clickhouse.query<{ rows: string }>(
      `SELECT toString(count()) AS rows FROM ${t.clickhouse.table('cost_line_items')} WHERE organization_id = {org:UUID}`,
      { org: other.organizationId },
    );
    expect(rows).toBe('0');
  });

  it("answers the demo estate's contract, burned by its AWS usage billed in USD", async () => {
    const demo = await t.newOrganization();
    const { from, to } = await loadDemoData(t.clickhouse, { organizationId: demo.organizationId, days: 40 });
    // The same rows, summed here: the effective cost of each row the loader gave a ContractApplied element.
    let expected = 0n;
    for (const day of generateDemoRows({ organizationId: demo.organizationId, from, to, seed: DEMO_DEFAULT_SEED }))
      for (const row of day) if (row.contract_applied) expected += scaled(row.amortized_cost);
    const response = await ask(demo, {});
    expect(response.status).toBe(200);
    expect(response.body.data.as_of).toBe(to);
    const [contract] = response.body.data.contracts as ContractDto[];
    expect(contract.contract_id).toBe(DEMO_CONTRACT.contractId);
    const [pool] = contract.commitments;
    expect([pool.currency, pool.burn_measure, pool.days_elapsed]).toEqual(['USD', 'cost', daysInRange(`${from.slice(0, 7)}-01`, to)]);
    expect(pool.applied_cost).toBe(Number(decimalText(expected)));
    expect(pool.burned).toBeGreaterThan(0);
    expect(pool.projected!.applied).toBeGreaterThan(pool.applied_cost);
  });

  it('answers an organisation without contracts with an empty list', async () => {
    const empty = await t.newOrganization();
    const response = await ask(empty, {});
    expect(response.status).toBe(200);
    expect(response.body.data.contracts).toEqual([]);
    expect(response.body.data.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it.each([
    [{ level: 120 }, 'level'],
    [{ asOf: '2026-02-30' }, 'asOf'],
    [{ contractIds: 'AGR-99-BETA' }, 'contractIds'],
    [{ window: 'all' }, 'window'],
  ])('400 for %j naming %s', async (body, field) => {
    const response = await ask(org, body);
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(JSON.stringify(response.body)).toContain(field);
  });

  it('401 without a key', async () => {
    expect((await t.http.post('/v1/cost-insights/contracts').send({})).status).toBe(401);
  });
});
