import { periodLabel } from './period-label';

describe('periodLabel', () => {
  it('names whole calendar months and years', () => {
    expect(periodLabel('2026-10-01', '2026-10-31')).toBe('October 2026');
    expect(periodLabel('2024-02-01', '2024-02-29')).toBe('February 2024');
    expect(periodLabel('2026-07-01', '2026-09-30')).toBe('July – September 2026');
    expect(periodLabel('2025-12-01', '2026-01-31')).toBe('December 2025 – January 2026');
    expect(periodLabel('2026-01-01', '2026-12-31')).toBe('2026');
  });

  it('shows day ranges compactly within a month', () => {
    expect(periodLabel('2026-10-01', '2026-10-15')).toBe('1–15 Oct 2026');
    expect(periodLabel('2026-10-02', '2026-10-31')).toBe('2–31 Oct 2026');
    expect(periodLabel('2026-10-15', '2026-10-15')).toBe('15 Oct 2026');
  });

  it('names both months across months, and both years across years', () => {
    expect(periodLabel('2026-09-28', '2026-10-04')).toBe('28 Sep – 4 Oct 2026');
    expect(periodLabel('2026-09-01', '2026-10-15')).toBe('1 Sep – 15 Oct 2026');
    expect(periodLabel('2025-12-15', '2026-01-14')).toBe('15 Dec 2025 – 14 Jan 2026');
  });
});
