import { finiteNumber } from '../cost-query/cost-metrics';
/** How a value moved from the baseline period to the comparison period. */
export type DeltaDirection = 'increase' | 'decrease' | 'unchanged';

export interface Delta {
  absolute: number;
  percentage: number;
  direction: DeltaDirection;
}

/** Deltas are rounded to this many decimals, which removes float noise such as 0.30000000000000004. */
export const DELTA_DECIMALS = 10;

/**
 * comparison − baseline, as an absolute change, a percentage of |baseline| and a direction.
 * At a zero baseline the percentage is 0 when the comparison is also 0, else 100 (or −100 for a
 * negative comparison): any rise from nothing counts as a full 100 %, never Infinity or NaN.
 */
export function computeDelta(baseline: number, comparison: number): Delta {
  const absolute = roundDelta(finiteNumber(comparison) - finiteNumber(baseline));
  const direction: DeltaDirection = absolute > 0 ? 'increase' : absolute < 0 ? 'decrease' : 'unchanged';
  const percentage = finiteNumber(baseline) === 0 ? Math.sign(absolute) * 100 : roundDelta((absolute / Math.abs(baseline)) * 100);
  return { absolute, percentage: percentage || 0, direction };
}

/** Rounds to DELTA_DECIMALS decimals; never returns -0, NaN or Infinity. */
export function roundDelta(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Number(value.toFixed(DELTA_DECIMALS)) || 0;
}
