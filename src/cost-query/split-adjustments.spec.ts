import { MEASURE_COLUMNS } from './metrics';
import type { SplitSegment } from './filters.types';
import {
  BasisRow,
  mergeAdjustments,
  onlyCategory,
  PortionRow,
  portionsOfTwoReads,
  splitAdjustments,
  SplitPlan,
  splitPlanOf,
  withoutCategory,
} from './split-adjustments';

const SEGMENTS: SplitSegment[] = [
  { from: '2026-01', splits: [] },
  {
    from: '2026-10',
    splits: [
      { source: { value: 'Shared' }, targets: ['data', 'payments'], method: 'proportional' },
      { source: { filters: { inclusions: { services: ['Amazon CloudWatch'] } } }, targets: ['data', 'search'], method: 'even' },
    ],
  },
];
const PLAN: SplitPlan = {
  category: 'Team',
  dimensionIndex: 1,
  segments: SEGMENTS,
  filterSources: [{ inclusions: { services: ['Amazon CloudWatch'] } }],
};

/** A portion row with every measure `amount` but the second (billed), which is `billed`. */
function portion(day: string, value: string, group: string[], amount: string, flags: number[] = [0], billed = amount): PortionRow {
  return {
    split_day: day,
    split_period: day.slice(0, 7),
    split_currency: 'USD',
    split_value: value,
    split_group: JSON.stringify(group),
    split_flags: flags,
    split_sums: MEASURE_COLUMNS.map((column) => (column === 'billed_cost' ? billed : amount)),
  };
}
const basis = (day: string, value: string, amount: string): BasisRow => ({
  split_day: day,
  split_period: day.slice(0, 7),
  split_currency: 'USD',
  split_value: value,
  basis: amount,
});
const amortized = MEASURE_COLUMNS.indexOf('amortized_cost');
const billed = MEASURE_COLUMNS.indexOf('billed_cost');

describe('which category a question splits', () => {
  const splits = new Map([
    ['Team', SEGMENTS],
    ['Owner', SEGMENTS],
  ]);

  it('the first grouping dimension with splits, else the category the filters name, else the data scope’s; none without splits', () => {
    const byOwner = splitPlanOf(splits, {}, [
      { kind: 'column' },
      { kind: 'costCategory', key: 'Owner' },
      { kind: 'costCategory', key: 'Team' },
    ]);
    expect([byOwner?.category, byOwner?.dimensionIndex]).toEqual(['Owner', 1]);
    const filtered = splitPlanOf(splits, { exclusions: { costCategory: 'Team', costCategoryValues: ['Shared'] } }, [{ kind: 'column' }]);
    expect([filtered?.category, filtered?.dimensionIndex, filtered?.filterSources]).toEqual(['Team', undefined, PLAN.filterSources]);
    expect(
      splitPlanOf(splits, { inclusions: { costCategory: 'Cost Center' } }, [{ kind: 'costCategory', key: 'Business Unit' }]),
    ).toBeUndefined();
    expect(splitPlanOf(undefined, {}, [{ kind: 'costCategory', key: 'Team' }])).toBeUndefined();
    const scoped = splitPlanOf(splits, {}, [{ kind: 'column' }], { inclusions: { costCategory: 'Owner', costCategoryValues: ['data'] } });
    expect([scoped?.category, scoped?.dimensionIndex]).toEqual(['Owner', undefined]);
  });

  it('takes the condition on the category out of the filters, and keeps it alone for the moved rows', () => {
    const filters = {
      inclusions: { services: ['Amazon EC2'], costCategory: 'Team', costCategoryValues: ['data'] },
      exclusions: { costCategory: 'Owner', costCategoryValues: ['x'] },
    };
    expect(withoutCategory(filters, 'Team')).toEqual({ inclusions: { services: ['Amazon EC2'] }, exclusions: filters.exclusions });
    expect(onlyCategory(filters, 'Team')).toEqual({
      inclusions: { costCategory: 'Team', costCategoryValues: ['data'] },
      exclusions: undefined,
    });
    expect(onlyCategory(filters, 'Shared')).toBeUndefined();
    expect(onlyCategory(undefined, 'Team')).toBeUndefined();
  });
});

describe('splitAdjustments', () => {
  it('moves each day’s sources by that day’s weights: −source, +targets, the category value placed at its index', () => {
    const rows = [
      portion('2026-10-05', 'Shared', ['Amazon EC2'], '10', [0], '4'),
      portion('2026-10-05', 'data', ['Amazon EC2'], '30'),
      portion('2026-10-05', 'search', ['Amazon CloudWatch'], '0.0000000001', [1]),
    ];
    const { adjustments, flows } = splitAdjustments(PLAN, rows, [basis('2026-10-05', 'data', '3'), basis('2026-10-05', 'payments', '1')]);
    const view = adjustments.map((a) => [a.dimensions.join('/'), a.amounts[amortized], a.amounts[billed], a.splitIn, a.splitOut]);
    expect(view.sort((a, b) => (a[0] < b[0] ? -1 : 1))).toEqual([
      // 10 × 3/4 and × 1/4; billed 4 in the same shares. The CloudWatch unit, even between data and search: the
      // leftover unit to the earlier target.
      ['Amazon CloudWatch/data', 1n, 1n, 1n, 0n],
      ['Amazon CloudWatch/search', -1n, -1n, 0n, 1n],
      ['Amazon EC2/Shared', -100_000_000_000n, -40_000_000_000n, 0n, 100_000_000_000n],
      ['Amazon EC2/data', 75_000_000_000n, 30_000_000_000n, 75_000_000_000n, 0n],
      ['Amazon EC2/payments', 25_000_000_000n, 10_000_000_000n, 25_000_000_000n, 0n],
    ]);
    const sum = (index: number) => adjustments.reduce((total, a) => total + a.amounts[index], 0n);
    expect([sum(amortized), sum(billed)]).toEqual([0n, 0n]);
    // The flows, amortized: the CloudWatch rows' unit in two parts, one of 0 kept at search itself.
    expect(flows.map((flow) => [flow.usageDate, flow.billingCurrency, flow.from, flow.to, flow.amount])).toEqual([
      ['2026-10-05', 'USD', 'Shared', 'data', 75_000_000_000n],
      ['2026-10-05', 'USD', 'Shared', 'payments', 25_000_000_000n],
      ['2026-10-05', 'USD', 'search', 'data', 1n],
      ['2026-10-05', 'USD', 'search', 'search', 0n],
    ]);
  });

  it('keeps a source without weights that day, and applies no split in months before its version', () => {
    const rows = [portion('2026-10-06', 'Shared', ['Amazon EC2'], '5'), portion('2026-09-30', 'Shared', ['Amazon EC2'], '5')];
    expect(splitAdjustments(PLAN, rows, [basis('2026-09-30', 'data', '1')])).toEqual({ adjustments: [], flows: [] });
  });
});

describe('portions read apart (the source values, the rows the filters choose)', () => {
  const ungrouped: SplitPlan = { ...PLAN, dimensionIndex: 0 };
  const day = '2026-10-05';

  it('are the portions of one read: each value less its chosen rows, the chosen rows with their flags', () => {
    // One read: Shared rows not chosen (7, billed 3), Shared rows CloudWatch chose (3, billed 1), search's chosen rows (2).
    const oneRead = [
      portion(day, 'Shared', [], '7', [0], '3'),
      portion(day, 'Shared', [], '3', [1], '1'),
      portion(day, 'search', [], '2', [1]),
    ];
    const values = [portion(day, 'Shared', [], '10', [], '4'), portion('2026-10-06', 'Shared', [], '5', [])];
    const chosen = [portion(day, 'Shared', [], '3', [1], '1'), portion(day, 'search', [], '2', [1])];
    const apart = portionsOfTwoReads(values, chosen);
    expect(apart).toEqual([{ ...oneRead[0], split_flags: [] }, portion('2026-10-06', 'Shared', [], '5', []), ...chosen]);
    const weights = [basis(day, 'data', '3'), basis(day, 'payments', '1')];
    expect(splitAdjustments(ungrouped, apart.slice(0, 1).concat(chosen), weights)).toEqual(splitAdjustments(ungrouped, oneRead, weights));
  });

  it('leave out a value whose every row the filters chose', () => {
    const values = [portion(day, 'Shared', [], '3', [], '1')];
    const chosen = [portion(day, 'Shared', [], '3', [1], '1')];
    expect(portionsOfTwoReads(values, chosen)).toEqual(chosen);
  });
});

describe('mergeAdjustments', () => {
  const adjustment = (usageDate: string, currency: string, amount: bigint) => ({
    usageDate,
    billingPeriod: usageDate.slice(0, 7),
    billingCurrency: currency,
    value: 'data',
    dimensions: ['data'],
    amounts: MEASURE_COLUMNS.map(() => amount),
    splitIn: amount,
    splitOut: 0n,
  });

  it('adds what the answer cannot tell apart: into the bucket, without the month, but for a currency converted by the day', () => {
    const merged = mergeAdjustments(
      [
        adjustment('2026-10-05', 'USD', 1n),
        adjustment('2026-10-06', 'USD', 2n),
        adjustment('2026-10-05', 'EUR', 4n),
        adjustment('2026-10-06', 'EUR', 8n),
      ],
      (date) => `${date.slice(0, 7)}-01`,
      (currency) => currency === 'EUR',
      () => false,
    );
    expect(merged.map((a) => [a.usageDate, a.billingPeriod, a.billingCurrency, a.amounts[0], a.splitIn])).toEqual([
      ['2026-10-01', '', 'USD', 3n, 3n],
      ['2026-10-05', '', 'EUR', 4n, 4n],
      ['2026-10-06', '', 'EUR', 8n, 8n],
    ]);
  });
});
