import { scaled } from '../common/money/scaled-decimal';
import type { FilterFields } from './filter-fields';
/**
 * Shared-cost splits of a rule-defined cost category (allocation), in exact integer arithmetic: amounts are BigInt
 * units of the stored scale (10 decimals), and a source's amount is divided among its targets so that the parts add
 * up to it exactly — each part rounded down, the units left over given one each to the parts with the largest
 * remainders (the largest-remainder rule; ties to the earlier target).
 */

export type SplitMethod = 'proportional' | 'fixed' | 'even';

/** A shared-cost split of one version of a rule-defined category, as questions apply it. */
export interface CategorySplit {
  /** The cost moved: a value of the category, or the rows the filters select (whatever their value). */
  source: { value: string } | { filters: { inclusions?: FilterFields; exclusions?: FilterFields } };
  targets: readonly string[];
  method: SplitMethod;
  /** `fixed`: each target's share as decimal text, in the targets' order. */
  percentages?: readonly string[];
}

export interface SplitRule {
  /** A value of the category, or the rows a filter selects (their flag in each portion: `selectedBy`). */
  source: { value: string } | { filter: number };
  targets: readonly string[];
  method: SplitMethod;
  /** `fixed`: each target's share, as decimal text, in the targets' order (they sum to 100). */
  percentages?: readonly string[];
}

/** Rows of one day and currency that share the category value, the other grouping keys and the split flags. */
export interface Portion {
  value: string;
  /** The other dimensions of the answer's grouping (kept by every part of a split portion). */
  group: string;
  /** The indexes of the filter-selected sources whose filters these rows match. */
  selectedBy: readonly number[];
  /** One amount per metric, in units of 1e-10. */
  amounts: readonly bigint[];
  /** Moved here by a split (a filter-selected source takes only rows as they are, never a moved part). */
  moved?: boolean;
}

/** What a split moved: from a value to another, within one group of the other keys, per metric. */
export interface Flow {
  from: string;
  to: string;
  group: string;
  amounts: bigint[];
}

/**
 * Applies the rules in order to the portions of one day and currency. `basis(value)` is a target's own amount that
 * day (before any split) for proportional weights. A source with no positive weight among its targets keeps its
 * value (never dropped); a target that is the source value itself is no target (rows chosen by filters may keep a
 * share at their own value).
 */
export function applySplits(
  portions: readonly Portion[],
  rules: readonly SplitRule[],
  basis: (value: string) => bigint,
): { portions: Portion[]; flows: Flow[] } {
  let current = [...portions];
  const flows: Flow[] = [];
  rules.forEach((rule, index) => {
    const next: Portion[] = [];
    for (const portion of current) {
      if (!isSource(rule, index, portion)) {
        next.push(portion);
        continue;
      }
      // A value is not split onto itself; rows chosen by filters may keep a share at their own value.
      const targets = 'value' in rule.source ? rule.targets.filter((target) => target !== portion.value) : rule.targets;
      const weights = weightsOf(rule, targets, basis);
      if (weights.every((weight) => weight <= 0n)) {
        next.push(portion);
        continue;
      }
      const parts = portion.amounts.map(divider(weights));
      targets.forEach((target, t) => {
        const amounts = parts.map((shares) => shares[t]);
        if (amounts.every((amount) => amount === 0n) && weights[t] <= 0n) return;
        next.push({ value: target, group: portion.group, selectedBy: portion.selectedBy, amounts, moved: true });
        flows.push({ from: portion.value, to: target, group: portion.group, amounts });
      });
    }
    current = next;
  });
  return { portions: current, flows };
}

function isSource(rule: SplitRule, index: number, portion: Portion): boolean {
  if ('value' in rule.source) return portion.value === rule.source.value;
  return portion.moved !== true && portion.selectedBy.includes(rule.source.filter);
}

/** Each target's weight: its own basis, its percentage (in 1e-10 units), or one. */
function weightsOf(rule: SplitRule, targets: readonly string[], basis: (value: string) => bigint): bigint[] {
  switch (rule.method) {
    case 'proportional':
      return targets.map((target) => {
        const weight = basis(target);
        return weight > 0n ? weight : 0n;
      });
    case 'fixed':
      return targets.map((target) => scaled(rule.percentages![rule.targets.indexOf(target)]));
    case 'even':
      return targets.map(() => 1n);
  }
}

/**
 * `amount` divided in proportion to `weights` (non-negative, at least one positive), the parts adding up to it
 * exactly: each floor(amount × weight / total), the leftover units to the largest remainders.
 */
export function divide(amount: bigint, weights: readonly bigint[]): bigint[] {
  return divider(weights)(amount);
}

/** `divide` by the same weights for many amounts (a portion's metrics): their total and positive ones found once. */
export function divider(weights: readonly bigint[]): (amount: bigint) => bigint[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0n);
  const positive = weights.flatMap((weight, index) => (weight > 0n ? [index] : []));
  return (amount) => {
    if (amount === 0n) return weights.map(() => 0n); // most savings metrics of most rows: nothing to divide
    const parts = weights.map((weight) => floorDiv(amount * weight, total));
    let left = amount - parts.reduce((sum, part) => sum + part, 0n);
    if (left === 0n) return parts;
    const byRemainder = positive
      .map((index) => ({ index, remainder: amount * weights[index] - parts[index] * total }))
      .sort((a, b) => (a.remainder > b.remainder ? -1 : a.remainder < b.remainder ? 1 : a.index - b.index));
    for (let i = 0; left > 0n; i = (i + 1) % byRemainder.length, left -= 1n) parts[byRemainder[i].index] += 1n;
    return parts;
  };
}

function floorDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator !== 0n && numerator < 0n !== denominator < 0n ? quotient - 1n : quotient;
}
