import { computeDelta, roundDelta } from './comparison-delta';

describe('computeDelta', () => {
  it('reports an increase as comparison − baseline and a share of the baseline', () => {
    expect(computeDelta(200, 250)).toEqual({ absolute: 50, percentage: 25, direction: 'increase' });
  });

  it('reports a decrease with negative values', () => {
    expect(computeDelta(80, 30.3)).toEqual({ absolute: -49.7, percentage: -62.125, direction: 'decrease' });
  });

  it('reports equal values as unchanged, float noise included', () => {
    expect(computeDelta(12.34, 12.34)).toEqual({ absolute: 0, percentage: 0, direction: 'unchanged' });
    expect(computeDelta(0.3, 0.1 + 0.2)).toEqual({ absolute: 0, percentage: 0, direction: 'unchanged' });
  });

  it('rounds float noise away', () => {
    expect(computeDelta(0.1, 0.3).absolute).toBe(0.2);
    expect(computeDelta(3, 3.3).percentage).toBe(10);
  });

  it('uses |baseline| so a negative baseline keeps the sign of the change', () => {
    expect(computeDelta(-10, -5)).toEqual({ absolute: 5, percentage: 50, direction: 'increase' });
    expect(computeDelta(-10, -20)).toEqual({ absolute: -10, percentage: -100, direction: 'decrease' });
  });

  it('applies the zero-baseline rule: 0 from 0, else ±100, never Infinity or NaN', () => {
    expect(computeDelta(0, 0)).toEqual({ absolute: 0, percentage: 0, direction: 'unchanged' });
    expect(computeDelta(0, 25.25)).toEqual({ absolute: 25.25, percentage: 100, direction: 'increase' });
    expect(computeDelta(0, -5.5)).toEqual({ absolute: -5.5, percentage: -100, direction: 'decrease' });
  });

  it('treats non-finite inputs as 0', () => {
    expect(computeDelta(Number.NaN, Number.POSITIVE_INFINITY)).toEqual({ absolute: 0, percentage: 0, direction: 'unchanged' });
  });
});

describe('roundDelta', () => {
  it('rounds to 10 decimals and never returns -0', () => {
    expect(roundDelta(1.00000000004)).toBe(1);
    expect(roundDelta(1.23456789016)).toBe(1.2345678902);
    expect(Object.is(roundDelta(-0.00000000001), 0)).toBe(true);
    expect(roundDelta(1e22)).toBe(1e22);
  });
});
