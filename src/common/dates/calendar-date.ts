/**
 * Calendar dates as `YYYY-MM-DD` strings, computed on whole day numbers (days since 1970-01-01, UTC),
 * never by comparing formatted strings: a loop over dates counts integers, so it ends by construction.
 */

/**
 * The dates a request may name. Cloud billing began in 2006; the bounds keep every bucket (the Monday
 * before 2000-01-01 included) inside ClickHouse's Date type and every year four digits long.
 */
export const SUPPORTED_DATES = { first: '2000-01-01', last: '2099-12-31' } as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const MS_PER_DAY = 86_400_000;

/** `YYYY-MM-DD` (the spec's pattern) that is also a real calendar date, e.g. not 2026-02-30. */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return false;
  const day = dayNumber(value);
  return Number.isInteger(day) && formatDayNumber(day) === value;
}

/** A calendar date within SUPPORTED_DATES (string order is date order for four-digit years). */
export function isSupportedDate(date: string): boolean {
  return date >= SUPPORTED_DATES.first && date <= SUPPORTED_DATES.last;
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date (any year 0000–9999; NaN for text that is not a date). */
export function dayNumber(date: string): number {
  const value = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  value.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return value.getTime() / MS_PER_DAY;
}

/** The ISO weekday of a day number: 1 = Monday … 7 = Sunday, as ClickHouse's toDayOfWeek (1970-01-01 was a Thursday). */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** The `YYYY-MM-DD` of a day number. */
export function formatDayNumber(day: number): string {
  const value = new Date(day * MS_PER_DAY);
  const year = value.getUTCFullYear();
  return `${String(year).padStart(4, '0')}-${pad2(value.getUTCMonth() + 1)}-${pad2(value.getUTCDate())}`;
}

export function addDays(date: string, days: number): string {
  return formatDayNumber(dayNumber(date) + days);
}

/** Number of days in an inclusive range. */
export function daysInRange(start: string, end: string): number {
  return dayNumber(end) - dayNumber(start) + 1;
}

/** The range covers whole calendar months: it starts on a 1st and ends on a month's last day. */
export function isWholeMonths(start: string, end: string): boolean {
  return start.endsWith('-01') && addDays(end, 1).endsWith('-01');
}

/** Months since year 0 of a `YYYY-MM…` date: consecutive months are consecutive integers. */
export function monthNumber(date: string): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

/** The first day (`YYYY-MM-01`) of a month number. */
export function formatMonthNumber(month: number): string {
  return `${String(Math.floor(month / 12)).padStart(4, '0')}-${pad2((month % 12) + 1)}-01`;
}

export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}
