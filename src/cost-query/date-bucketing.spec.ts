import { addDays, daysInRange } from '../common/dates/calendar-date';
import { bucketCount, bucketStart, bucketStarts, bucketStartSql } from './date-bucketing';

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

describe('bucket enumeration is bounded by construction', () => {
  // Formatted with toISOString, years past 9999 read "+010000-…" and a string-compared loop never ended.
  it('ends at the edges of four-digit years', () => {
    expect(bucketStarts('daily', '9999-12-31', '9999-12-31')).toEqual(['9999-12-31']);
    expect(bucketStarts('monthly', '9999-11-15', '9999-12-31')).toEqual(['9999-11-01', '9999-12-01']);
    expect(bucketStarts('weekly', '0000-01-01', '0000-01-02')).toHaveLength(1);
    expect(bucketStarts('weekly', '9999-12-27', '9999-12-31')).toEqual(['9999-12-27']);
  });

  it('lists nothing for an end before the start, and counts what it would list', () => {
    for (const grouping of ['daily', 'weekly', 'monthly'] as const) {
      expect(bucketStarts(grouping, '2026-03-01', '2026-01-01')).toEqual([]);
      expect(bucketCount(grouping, '2026-03-01', '2026-01-01')).toBe(0);
      for (const [start, end] of [
        ['2024-02-27', '2024-03-05'],
        ['2025-12-29', '2027-01-03'],
        ['2000-01-01', '2099-12-31'],
      ]) {
        expect(bucketCount(grouping, start, end)).toBe(bucketStarts(grouping, start, end).length);
      }
    }
    expect(bucketCount('daily', '2000-01-01', '2099-12-31')).toBe(36525);
    expect(bucketCount('monthly', '2000-01-01', '2099-12-31')).toBe(1200);
  });

  it('agrees with a day-by-day walk of the calendar for weeks and months', () => {
    const walk = (grouping: 'weekly' | 'monthly', start: string, end: string) => {
      const seen: string[] = [];
      for (let day = start; day <= end; day = addDays(day, 1)) {
        const bucket = bucketStart(grouping, day);
        if (seen[seen.length - 1] !== bucket) seen.push(bucket);
      }
      return seen;
    };
    expect(bucketStarts('weekly', '2023-12-20', '2025-01-10')).toEqual(walk('weekly', '2023-12-20', '2025-01-10'));
    expect(bucketStarts('monthly', '2023-12-20', '2025-03-10')).toEqual(walk('monthly', '2023-12-20', '2025-03-10'));
  });
});
