import { addDays } from '../common/dates/calendar-date';
import type { AppliedDayRow, ContractCommitmentInForce } from '../cost-query/contracts.query';
import { burnDown, commitmentDays } from './contract-burn-down';

/** A Spend commitment of 1000 EUR for January 2026 (the end exclusive: the last day is 2026-01-31). */
const SPEND: ContractCommitmentInForce = {
  contract_id: 'AGR-1',
  contract_commitment_id: 'CMT-1',
  category: 'Spend',
  type: 'Enterprise Agreement',
  description: 'Spend goal',
  cost: '1000',
  quantity: null,
  unit: '',
  period_start: '2026-01-01 00:00:00',
  period_end: '2026-02-01 00:00:00',
  contract_period_start: '2026-01-01 00:00:00',
  contract_period_end: '2027-01-01 00:00:00',
  billing_currency: 'EUR',
};

const row = (day: string, cost: string, quantity: string | null = null, id = 'CMT-1', currency = 'EUR'): AppliedDayRow => ({
  day,
  contract_commitment_id: id,
  billing_currency: currency,
  applied_cost: cost,
  applied_quantity: quantity,
});

const FEW_DAYS = 'fewer than 14 days of the period have passed: too few to forecast from';
const ENDED = 'the period has ended: applied is final';

describe('commitmentDays', () => {
  it('ends the day before an end at midnight, on the end’s day for an end with a time; counts up to min(asOf, last)', () => {
    expect(commitmentDays(SPEND, '2026-01-10')).toEqual({ first: '2026-01-01', last: '2026-01-31', counted: '2026-01-10' });
    expect(commitmentDays({ period_start: '2026-02-01 00:00:00', period_end: '2026-03-01 00:00:00' }, '2026-12-31')).toEqual({
      first: '2026-02-01',
      last: '2026-02-28',
      counted: '2026-02-28',
    });
    expect(commitmentDays({ period_start: '2026-01-15 14:30:00', period_end: '2026-02-01 12:00:00' }, '2026-03-01')).toEqual({
      first: '2026-01-15',
      last: '2026-02-01',
      counted: '2026-02-01',
    });
    // Not started yet: counted is before first.
    expect(commitmentDays(SPEND, '2025-12-20')).toEqual({ first: '2026-01-01', last: '2026-01-31', counted: '2025-12-20' });
  });
});

describe('burnDown', () => {
  it('sums its own rows of its currency and period up to asOf, exactly', () => {
    const applied = [
      row('2026-01-02', '0.1'),
      row('2026-01-03', '0.2'),
      row('2026-01-03', '5', null, 'CMT-1', 'USD'), // another currency
      row('2025-12-31', '7'), // before the period
      row('2026-01-06', '9'), // after asOf
      row('2026-01-03', '11', null, 'CMT-2'), // another commitment
    ];
    // applied 0.1 + 0.2 = 0.3 (exactly); burned 0.3 / 1000 = 0.0003; elapsed Jan 1–5 = 5; left Jan 6–31 = 26.
    expect(burnDown(SPEND, applied, '2026-01-05', 80)).toEqual({
      contract_commitment_id: 'CMT-1',
      category: 'Spend',
      type: 'Enterprise Agreement',
      description: 'Spend goal',
      currency: 'EUR',
      period_start: '2026-01-01T00:00:00Z',
      period_end: '2026-02-01T00:00:00Z',
      committed_cost: 1000,
      committed_quantity: null,
      unit: null,
      burn_measure: 'cost',
      applied_cost: 0.3,
      applied_quantity: null,
      burned: 0.0003,
      days_elapsed: 5,
      days_left: 26,
      projected: null,
      projection_note: FEW_DAYS,
    });
  });

  it('rounds burned half up to 6 places; null when nothing is committed', () => {
    const burned = (cost: string | null, applied: string) =>
      burnDown({ ...SPEND, cost }, [row('2026-01-02', applied)], '2026-01-05', 80).burned;
    expect(burned('3', '1')).toBe(0.333333); // 0.3333333…
    expect(burned('3', '2')).toBe(0.666667); // 0.6666666…
    expect(burned('2', '0.000001')).toBe(0.000001); // 0.0000005 exactly: half up
    expect(burned('2', '0.0000009')).toBe(0); // 0.00000045
    expect(burned('1000', '1500')).toBe(1.5);
    expect(burned('0', '1')).toBeNull();
    expect(burned(null, '1')).toBeNull();
  });

  it('burns a Usage commitment with a quantity by quantity, one without by cost', () => {
    const usage = { ...SPEND, category: 'Usage', cost: '500', quantity: '100', unit: 'Hours' };
    const applied = [row('2026-01-02', '10', '2.5'), row('2026-01-03', '5'), row('2026-01-04', '1', '0.25')];
    // quantity 2.5 + 0.25 = 2.75 of 100 → 0.0275; cost 10 + 5 + 1 = 16.
    expect(burnDown(usage, applied, '2026-01-05', 80)).toMatchObject({
      committed_cost: 500,
      committed_quantity: 100,
      unit: 'Hours',
      burn_measure: 'quantity',
      applied_cost: 16,
      applied_quantity: 2.75,
      burned: 0.0275,
    });
    // Without a committed quantity: 16 of 500 → 0.032.
    expect(burnDown({ ...usage, quantity: null }, applied, '2026-01-05', 80)).toMatchObject({
      committed_quantity: null,
      burn_measure: 'cost',
      burned: 0.032,
    });
    // A committed quantity with no quantity applied: 0 burned.
    expect(burnDown(usage, [row('2026-01-02', '3')], '2026-01-05', 80)).toMatchObject({ applied_quantity: null, burned: 0 });
  });

  it('projects nothing for an ended period, or with fewer than 14 days elapsed', () => {
    const applied = [row('2026-01-10', '100'), row('2026-01-31', '50')];
    // asOf after the end: counted = Jan 31; 31 days elapsed, none left; 150 of 1000.
    expect(burnDown(SPEND, applied, '2026-02-15', 80)).toMatchObject({
      applied_cost: 150,
      burned: 0.15,
      days_elapsed: 31,
      days_left: 0,
      projected: null,
      projection_note: ENDED,
    });
    // asOf on the last day: the period is over too.
    expect(burnDown(SPEND, applied, '2026-01-31', 80)).toMatchObject({ days_left: 0, projected: null, projection_note: ENDED });
    // 13 days elapsed (Jan 1–13), 18 left.
    expect(burnDown(SPEND, applied, '2026-01-13', 80)).toMatchObject({
      applied_cost: 100,
      days_elapsed: 13,
      days_left: 18,
      projected: null,
      projection_note: FEW_DAYS,
    });
    // Not started: nothing elapsed, all 31 days left.
    expect(burnDown(SPEND, applied, '2025-12-20', 80)).toMatchObject({
      applied_cost: 0,
      burned: 0,
      days_elapsed: 0,
      days_left: 31,
      projected: null,
      projection_note: FEW_DAYS,
    });
  });

  it('projects a constant daily series as applied + days left × the daily value, with no spread', () => {
    // January to March 2026 (last day 2026-03-31), 10 a day from Jan 1; asOf Feb 4: 31 + 4 = 35 days elapsed,
    // applied 350; days left Feb 5–28 (24) + March (31) = 55; projected 350 + 55 × 10 = 900, burned 900 / 1000 = 0.9.
    const quarter = { ...SPEND, period_end: '2026-04-01 00:00:00' };
    const applied = Array.from({ length: 40 }, (_, i) => row(addDays('2026-01-01', i), '10'));
    const result = burnDown(quarter, applied, '2026-02-04', 80);
    expect(result).toMatchObject({ applied_cost: 350, burned: 0.35, days_elapsed: 35, days_left: 55 });
    expect(result.projected).toEqual({ applied: 900, lower: 900, upper: 900, burned: 0.9 });
    expect(result.projection_note).toBeUndefined();
    // 14 days elapsed is enough: 140 + 76 × 10 = 900 (Jan 15 to Mar 31 is 17 + 28 + 31 = 76 days).
    expect(burnDown(quarter, applied, '2026-01-14', 80).projected).toEqual({ applied: 900, lower: 900, upper: 900, burned: 0.9 });
  });
});
