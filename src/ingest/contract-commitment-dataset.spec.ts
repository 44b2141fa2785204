import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkedAcrossFiles,
  isContractCommitmentDataset,
  parseContractCommitments,
  type ParsedCommitment,
} from './contract-commitment-dataset';
import { FocusIngestError } from './focus-files';

const SCENARIO_1 = join(__dirname, '../../test/fixtures/focus/focus-spec-examples/contract_commitments/contract_commitment_scenario_1.csv');

/** A valid Spend commitment's columns; a test overrides or drops some. */
const BASE: Record<string, string> = {
  ContractId: 'AGR-1',
  ContractCommitmentId: 'CMT-1',
  ContractCommitmentCategory: 'Spend',
  ContractCommitmentType: 'Enterprise Agreement',
  ContractCommitmentDescription: 'Spend goal',
  ContractCommitmentCost: '1000',
  ContractCommitmentQuantity: '',
  ContractCommitmentUnit: '',
  ContractCommitmentPeriodStart: '2026-01-01',
  ContractCommitmentPeriodEnd: '2027-01-01',
  ContractPeriodStart: '2026-01-01',
  ContractPeriodEnd: '2028-01-01',
  BillingCurrency: 'EUR',
};

/** A file of the given rows (each BASE with its overrides; undefined drops a column from the header). */
function csv(...rows: Array<Record<string, string | undefined>>): string {
  const columns = Object.keys({ ...BASE, ...rows[0] }).filter((column) =>
    rows.every((row) => !(column in row) || row[column] !== undefined),
  );
  const lines = rows.map((row) => columns.map((column) => ({ ...BASE, ...row })[column]).join(','));
  return [columns.join(','), ...lines].join('\n') + '\n';
}

const parseOne = (overrides: Record<string, string | undefined>) => parseContractCommitments('c.csv', csv(overrides))[0].row;
const refusal = (overrides: Record<string, string | undefined>) => () => parseContractCommitments('c.csv', csv(overrides));

describe('isContractCommitmentDataset', () => {
  it('is the FOCUS Contract Commitment header, not a cost export’s', () => {
    const header = readFileSync(SCENARIO_1, 'utf8').split('\n')[0].split(',');
    expect(isContractCommitmentDataset(header)).toBe(true);
    // A cost export carries ContractApplied (naming commitments) and ChargePeriodStart.
    expect(isContractCommitmentDataset(['ChargePeriodStart', 'BilledCost', 'ContractId', 'ContractCommitmentId'])).toBe(false);
    expect(isContractCommitmentDataset(['ContractCommitmentId'])).toBe(false);
  });
});

describe('parseContractCommitments', () => {
  it('reads the FOCUS scenario 1 file with its stored values', () => {
    const parsed = parseContractCommitments('scenario_1.csv', readFileSync(SCENARIO_1, 'utf8'));
    const shared = {
      contract_id: 'AGR-99-BETA',
      contract_period_start: '2025-12-01 00:00:00',
      contract_period_end: '2028-12-01 00:00:00',
      billing_currency: 'EUR',
    };
    expect(parsed).toEqual([
      {
        where: 'line 2',
        row: {
          ...shared,
          contract_commitment_id: 'CMT-SPEND-001',
          category: 'Spend',
          type: 'Enterprise Agreement',
          description: '3yr Enterprise Spend Goal',
          cost: '925000.00',
          quantity: '1000000.00',
          unit: 'USD',
          period_start: '2025-12-01 00:00:00',
          period_end: '2028-12-01 00:00:00',
        },
      },
      {
        where: 'line 3',
        row: {
          ...shared,
          contract_commitment_id: 'CMT-RI-002',
          category: 'Usage',
          type: 'Reserved Instance',
          description: 'us-east-1 m5 Reservations',
          cost: '46250.00',
          quantity: '10.00',
          unit: 'Instance-Hours',
          period_start: '2025-12-01 00:00:00',
          period_end: '2026-12-01 00:00:00',
        },
      },
      {
        where: 'line 4',
        row: {
          ...shared,
          contract_commitment_id: 'CMT-SaaS-003',
          category: 'Spend',
          type: 'SaaS Subscription',
          description: 'DataStreamer Pro via Marketplace',
          cost: '111000.00',
          quantity: '120000.00',
          unit: 'Credits',
          period_start: '2026-01-15 00:00:00',
          period_end: '2027-01-15 00:00:00',
        },
      },
    ]);
  });

  it('matches the category case-insensitively, reads null and empty amounts as null, and date-times as UTC', () => {
    expect(
      parseOne({
        ContractCommitmentCategory: 'usage',
        ContractCommitmentCost: 'null',
        ContractCommitmentQuantity: '5.5',
        ContractCommitmentUnit: 'Hours',
      }),
    ).toMatchObject({ category: 'Usage', cost: null, quantity: '5.5', unit: 'Hours' });
    expect(parseOne({ ContractCommitmentCategory: 'SPEND', ContractCommitmentQuantity: 'NULL' })).toMatchObject({
      category: 'Spend',
      cost: '1000',
      quantity: null,
    });
    expect(
      parseOne({
        ContractCommitmentPeriodStart: '2026-01-15T14:30:00Z',
        ContractCommitmentPeriodEnd: '2026-02-01T00:00Z',
        ContractPeriodStart: '2026-01-01 08:15:30.250',
        ContractPeriodEnd: '2027-01-01T00:00:00+00:00',
      }),
    ).toMatchObject({
      period_start: '2026-01-15 14:30:00',
      period_end: '2026-02-01 00:00:00',
      contract_period_start: '2026-01-01 08:15:30',
      contract_period_end: '2027-01-01 00:00:00',
    });
    // Values and header names are trimmed; a missing optional column is ''.
    expect(parseOne({ ContractId: ' AGR-2 ', ContractCommitmentType: undefined })).toMatchObject({ contract_id: 'AGR-2', type: '' });
  });

  it('refuses a file missing a required column, naming it', () => {
    const withoutId = csv({ ContractId: undefined, ContractCommitmentPeriodEnd: undefined });
    expect(() => parseContractCommitments('c.csv', withoutId)).toThrow(
      new FocusIngestError('c.csv: a Contract Commitment dataset missing required column(s): ContractId, ContractCommitmentPeriodEnd'),
    );
    expect(() => parseContractCommitments('c.csv', '')).toThrow(
      /^c\.csv: a Contract Commitment dataset missing required column\(s\): ContractId,/,
    );
  });

  it('names the file, line and column of each value it refuses', () => {
    expect(refusal({ ContractId: '' })).toThrow(new FocusIngestError('c.csv:line 2: ContractId is empty'));
    expect(refusal({ ContractCommitmentId: ' ' })).toThrow(new FocusIngestError('c.csv:line 2: ContractCommitmentId is empty'));
    expect(refusal({ ContractCommitmentCategory: 'Other' })).toThrow(
      new FocusIngestError('c.csv:line 2: ContractCommitmentCategory is not one of Spend, Usage'),
    );
    expect(refusal({ BillingCurrency: 'usd' })).toThrow(
      new FocusIngestError('c.csv:line 2: BillingCurrency is not an ISO 4217 currency code: "usd"'),
    );
    expect(refusal({ ContractCommitmentCost: '-1' })).toThrow(
      new FocusIngestError('c.csv:line 2: ContractCommitmentCost is not a non-negative decimal of at most 10 places: "-1"'),
    );
    // 11 decimal places.
    expect(refusal({ ContractCommitmentQuantity: '1.00000000001' })).toThrow(
      new FocusIngestError('c.csv:line 2: ContractCommitmentQuantity is not a non-negative decimal of at most 10 places: "1.00000000001"'),
    );
    expect(refusal({ ContractCommitmentCost: '' })).toThrow(
      new FocusIngestError('c.csv:line 2: ContractCommitmentCost is empty: a Spend commitment commits a cost'),
    );
    expect(refusal({ ContractCommitmentCategory: 'Usage', ContractCommitmentUnit: 'Hours' })).toThrow(
      new FocusIngestError('c.csv:line 2: ContractCommitmentQuantity is empty: a Usage commitment commits a quantity in a unit'),
    );
    expect(refusal({ ContractCommitmentCategory: 'Usage', ContractCommitmentQuantity: '10' })).toThrow(
      new FocusIngestError('c.csv:line 2: ContractCommitmentUnit is empty: a Usage commitment commits a quantity in a unit'),
    );
    expect(refusal({ ContractCommitmentPeriodEnd: '2026-01-01T00:00:00Z' })).toThrow(
      new FocusIngestError(
        'c.csv:line 2: ContractCommitmentPeriodEnd 2026-01-01 00:00:00 is not after ContractCommitmentPeriodStart 2026-01-01 00:00:00',
      ),
    );
    expect(refusal({ ContractPeriodEnd: '2025-12-31' })).toThrow(
      new FocusIngestError('c.csv:line 2: ContractPeriodEnd 2025-12-31 00:00:00 is not after ContractPeriodStart 2026-01-01 00:00:00'),
    );
    const notADate = (given: string) => `is not an ISO 8601 UTC date or date-time from 2000 to 2099: "${given}"`;
    expect(refusal({ ContractCommitmentPeriodEnd: '2026-02-30' })).toThrow(
      new FocusIngestError(`c.csv:line 2: ContractCommitmentPeriodEnd ${notADate('2026-02-30')}`),
    );
    expect(refusal({ ContractCommitmentPeriodStart: '2026-01-01T24:00:00Z' })).toThrow(
      new FocusIngestError(`c.csv:line 2: ContractCommitmentPeriodStart ${notADate('2026-01-01T24:00:00Z')}`),
    );
    expect(refusal({ ContractCommitmentPeriodStart: '2026-01-01T14:30:60Z' })).toThrow(
      new FocusIngestError(`c.csv:line 2: ContractCommitmentPeriodStart ${notADate('2026-01-01T14:30:60Z')}`),
    );
    expect(refusal({ ContractPeriodStart: '2026-01-01T00:00:00+01:00' })).toThrow(
      new FocusIngestError(`c.csv:line 2: ContractPeriodStart ${notADate('2026-01-01T00:00:00+01:00')}`),
    );
    expect(refusal({ ContractPeriodStart: '1999-12-31' })).toThrow(
      new FocusIngestError(`c.csv:line 2: ContractPeriodStart ${notADate('1999-12-31')}`),
    );
  });

  it('names the line of a bad row after a multi-line field, and the line an unterminated quote opened on', () => {
    // Line 2 holds a description over two lines (2 and 3); the next row starts on line 4.
    const text = csv({ ContractCommitmentDescription: '"two\nlines"' }, { ContractCommitmentId: 'CMT-2', BillingCurrency: 'eur' });
    expect(() => parseContractCommitments('c.csv', text)).toThrow(
      new FocusIngestError('c.csv:line 4: BillingCurrency is not an ISO 4217 currency code: "eur"'),
    );
    expect(() => parseContractCommitments('c.csv', csv({ ContractCommitmentDescription: '"open' }))).toThrow(
      new FocusIngestError('c.csv:line 2: a quoted field is never closed'),
    );
  });
});

describe('checkedAcrossFiles', () => {
  const commitment = (line: number, id: string, contractId: string, currency: string): ParsedCommitment => ({
    where: `line ${line}`,
    row: { ...parseOne({}), contract_commitment_id: id, contract_id: contractId, billing_currency: currency },
  });
  const none = new Map<string, { currency: string; contractId: string }>();

  it('refuses a commitment listed twice, naming both places', () => {
    const files = [
      { name: 'a.csv', commitments: [commitment(2, 'CMT-1', 'AGR-1', 'EUR'), commitment(3, 'CMT-2', 'AGR-1', 'EUR')] },
      { name: 'b.csv', commitments: [commitment(2, 'CMT-3', 'AGR-2', 'EUR'), commitment(5, 'CMT-2', 'AGR-2', 'EUR')] },
    ];
    expect(() => checkedAcrossFiles(files, none)).toThrow(
      new FocusIngestError('b.csv:line 5: ContractCommitmentId CMT-2 is listed twice (first at a.csv:line 3)'),
    );
    expect(() => checkedAcrossFiles(files.slice(0, 1), none)).not.toThrow();
  });

  it('refuses another contract’s stored commitment in another currency; allows a replacement or the same currency', () => {
    const stored = new Map([['CMT-1', { currency: 'USD', contractId: 'AGR-OLD' }]]);
    expect(() => checkedAcrossFiles([{ name: 'a.csv', commitments: [commitment(4, 'CMT-1', 'AGR-1', 'EUR')] }], stored)).toThrow(
      new FocusIngestError('a.csv:line 4: BillingCurrency EUR differs from USD, the currency commitment CMT-1 has in contract AGR-OLD'),
    );
    // The same contract's load replaces its stored commitments: a new currency is fine.
    expect(() => checkedAcrossFiles([{ name: 'a.csv', commitments: [commitment(4, 'CMT-1', 'AGR-OLD', 'EUR')] }], stored)).not.toThrow();
    // Another contract, the same currency.
    expect(() => checkedAcrossFiles([{ name: 'a.csv', commitments: [commitment(4, 'CMT-1', 'AGR-1', 'USD')] }], stored)).not.toThrow();
  });
});
