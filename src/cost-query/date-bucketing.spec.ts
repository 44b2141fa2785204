import { addDays, bucketStart, bucketStarts, bucketStartSql, daysInRange } from './date-bucketing';

describe('bucketStartSql', () => {
  it('maps each grouping to its ClickHouse expression', () => {
    expect(bucketStartSql('daily')).toBe('usage_date');
    expect(bucketStartSql('weekly')).toBe('toMonday(usage_date)');
    expect(bucketStartSql('monthly')).toBe('toStartOfMonth(usage_date)');
  });

  it('throws on a grouping it does not know', () => {
    expect(() => bucketStartSql('hourly' as never)).toThrow(/Unhandled date grouping/);
  });
});

describe('bucketStart', () => {
  it('starts weeks on Monday', () => {
    expect(bucketStart('weekly', '2026-11-16')).toBe('2026-11-16'); // Monday
    expect(bucketStart('weekly', '2026-11-22')).toBe('2026-11-16'); // Sunday
    expect(bucketStart('weekly', '2026-01-01')).toBe('2025-12-29'); // across a year
  });

  it('starts months on the first', () => {
    expect(bucketStart('monthly', '2024-02-29')).toBe('2024-02-01');
  });
});

describe('bucketStarts', () => {
  it('lists every bucket touching the range', () => {
    expect(bucketStarts('daily', '2026-02-27', '2026-03-01')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(bucketStarts('weekly', '2026-11-18', '2026-11-30')).toEqual(['2026-11-16', '2026-11-23', '2026-11-30']);
    expect(bucketStarts('monthly', '2026-01-31', '2026-03-01')).toEqual(['2026-01-01', '2026-02-01', '2026-03-01']);
  });
});

describe('day arithmetic', () => {
  it('adds days across month and leap-year ends', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });

  it('counts an inclusive range', () => {
    expect(daysInRange('2026-01-01', '2026-01-01')).toBe(1);
    expect(daysInRange('2026-01-01', '2026-12-31')).toBe(365);
  });
});
