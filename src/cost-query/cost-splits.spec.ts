import { decimalText, scaled } from '../common/money/scaled-decimal';
import { applySplits, divide, Portion, SplitRule } from './cost-splits';

const amounts = (...texts: string[]) => texts.map(scaled);
const portion = (value: string, texts: string[], extra: Partial<Portion> = {}): Portion => ({
  value,
  group: '',
  selectedBy: [],
  amounts: amounts(...texts),
  ...extra,
});
const totals = (portions: Portion[]) =>
  Object.fromEntries(
    [...new Set(portions.map((p) => p.value))].map((value) => [
      value,
      decimalText(portions.filter((p) => p.value === value).reduce((sum, p) => sum + p.amounts[0], 0n)),
    ]),
  );

describe('divide (largest remainder)', () => {
  it('adds up exactly, the leftover units to the largest remainders, ties to the earlier', () => {
    expect(divide(10n, [1n, 1n, 1n])).toEqual([4n, 3n, 3n]);
    expect(divide(100n, [1n, 2n])).toEqual([33n, 67n]);
    expect(divide(-10n, [1n, 1n, 1n])).toEqual([-3n, -3n, -4n]);
    expect(divide(7n, [0n, 5n, 0n])).toEqual([0n, 7n, 0n]);
  });

  it('conserves any amount over any weights (a thousand random cases)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 1000; i++) {
      const amount = BigInt(random() % 2_000_000) - 1_000_000n;
      const drawn = Array.from({ length: 1 + (random() % 6) }, () => BigInt(random() % 50));
      const weights = drawn.some((w) => w > 0n) ? drawn : [1n, ...drawn.slice(1)];
      const parts = divide(amount, weights);
      expect(parts.reduce((s, p) => s + p, 0n)).toBe(amount);
      weights.forEach((w, k) => w === 0n && expect(parts[k]).toBe(0n));
    }
  });
});

describe('applySplits', () => {
  const basis = (weights: Record<string, string>) => (value: string) => scaled(weights[value] ?? '0');

  it('proportional: to each target’s own basis, exact to the last unit', () => {
    const rules: SplitRule[] = [{ source: { value: 'Shared' }, targets: ['Data', 'Payments'], method: 'proportional' }];
    const { portions, flows } = applySplits(
      [portion('Shared', ['10']), portion('Data', ['1']), portion('Payments', ['2'])],
      rules,
      basis({ Data: '1', Payments: '2' }),
    );
    expect(totals(portions)).toEqual({ Data: '4.3333333333', Payments: '8.6666666667' });
    expect(flows.map((f) => [f.from, f.to, decimalText(f.amounts[0])])).toEqual([
      ['Shared', 'Data', '3.3333333333'],
      ['Shared', 'Payments', '6.6666666667'],
    ]);
  });

  it('fixed percentages and even shares', () => {
    const fixed: SplitRule[] = [{ source: { value: 'S' }, targets: ['A', 'B'], method: 'fixed', percentages: ['60', '40'] }];
    expect(totals(applySplits([portion('S', ['5'])], fixed, basis({})).portions)).toEqual({ A: '3', B: '2' });
    const even: SplitRule[] = [{ source: { value: 'S' }, targets: ['A', 'B', 'C'], method: 'even' }];
    expect(totals(applySplits([portion('S', ['0.0000000001'])], even, basis({})).portions)).toEqual({
      A: '0.0000000001',
      B: '0',
      C: '0',
    });
  });

  it('keeps the source where no target has a positive weight that day', () => {
    const rules: SplitRule[] = [{ source: { value: 'Shared' }, targets: ['Data', 'Payments'], method: 'proportional' }];
    const { portions, flows } = applySplits([portion('Shared', ['10'])], rules, basis({ Data: '0', Payments: '-3' }));
    expect([totals(portions), flows]).toEqual([{ Shared: '10' }, []]);
  });

  it('splits in stages: a later rule splits what an earlier one produced; a filter source takes rows as they are', () => {
    const rules: SplitRule[] = [
      { source: { filter: 0 }, targets: ['Shared'], method: 'even' },
      { source: { value: 'Shared' }, targets: ['A', 'B'], method: 'fixed', percentages: ['50', '50'] },
      { source: { filter: 0 }, targets: ['A'], method: 'even' },
    ];
    const support = portion('Ops', ['9'], { selectedBy: [0] });
    const { portions } = applySplits([support, portion('A', ['1'])], rules, basis({}));
    expect(totals(portions)).toEqual({ A: '5.5', B: '4.5' });
  });

  it('moves every metric of a portion by the same weights, each exact', () => {
    const rules: SplitRule[] = [{ source: { value: 'S' }, targets: ['A', 'B'], method: 'fixed', percentages: ['50', '50'] }];
    const { portions } = applySplits([portion('S', ['1', '0.0000000003'])], rules, basis({}));
    expect(portions.map((p) => [p.value, p.amounts.map(decimalText)])).toEqual([
      ['A', ['0.5', '0.0000000002']],
      ['B', ['0.5', '0.0000000001']],
    ]);
  });
});
