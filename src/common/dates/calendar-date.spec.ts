import {
  addDays,
  dayNumber,
  daysInRange,
  formatDayNumber,
  isCalendarDate,
  isoWeekday,
  isSupportedDate,
  SUPPORTED_DATES,
} from './calendar-date';

describe('calendar dates', () => {
  it('recognises real calendar dates of any four-digit year', () => {
    for (const date of ['2024-02-29', '0000-01-01', '0099-12-31', '9999-12-31', '2026-11-23']) expect(isCalendarDate(date)).toBe(true);
    for (const date of ['2026-02-29', '2026-13-01', '2026-00-10', '2026-1-01', '+10000-01-01', '', 20261123]) {
      expect(isCalendarDate(date)).toBe(false);
    }
  });

  it('numbers days from 1970-01-01 without the 1900 offset Date.UTC gives years 0–99', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('2000-01-01')).toBe(10957);
    expect(formatDayNumber(dayNumber('0050-06-15'))).toBe('0050-06-15');
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
  });

  it('counts inclusive ranges across leap years', () => {
    expect(daysInRange('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysInRange('2000-01-01', '2099-12-31')).toBe(36525);
  });

  it('supports the dates from 2000-01-01 to 2099-12-31 only', () => {
    expect(SUPPORTED_DATES).toEqual({ first: '2000-01-01', last: '2099-12-31' });
    expect(isSupportedDate('2000-01-01')).toBe(true);
    expect(isSupportedDate('2099-12-31')).toBe(true);
    expect(isSupportedDate('1999-12-31')).toBe(false);
    expect(isSupportedDate('2100-01-01')).toBe(false);
  });

  it('gives ISO weekdays (1 = Monday … 7 = Sunday) for days before and after 1970, as the Date object does', () => {
    expect(isoWeekday(dayNumber('2026-11-23'))).toBe(1); // a Monday
    expect(isoWeekday(dayNumber('2026-11-29'))).toBe(7);
    for (let day = dayNumber('1969-12-01'); day <= dayNumber('1970-02-01'); day++) {
      const jsDay = new Date(day * 86_400_000).getUTCDay(); // 0 = Sunday
      expect({ day, weekday: isoWeekday(day) }).toEqual({ day, weekday: jsDay === 0 ? 7 : jsDay });
    }
  });
});
