import { dateRangeSpanProblem } from './guardrails';

describe('dateRangeSpanProblem', () => {
  it('accepts a span up to the limit, both ends counted', () => {
    expect(dateRangeSpanProblem('p', { start: '2026-01-01', end: '2026-01-10' }, 10)).toBeUndefined();
    expect(dateRangeSpanProblem('p', undefined, 1)).toBeUndefined();
  });

  it('names the path, the span and the limit beyond it', () => {
    expect(dateRangeSpanProblem('filters.inclusions.dateRange', { start: '2026-01-01', end: '2026-01-11' }, 10)).toBe(
      'filters.inclusions.dateRange: spans 11 days; at most 10 days are allowed (inclusive of both ends)',
    );
  });
});
