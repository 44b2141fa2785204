import { dayNumber, formatDayNumber, formatMonthNumber, isoWeekday, monthNumber } from '../common/dates/calendar-date';

export const DATE_GROUPINGS = ['daily', 'weekly', 'monthly'] as const;
export type DateGrouping = (typeof DATE_GROUPINGS)[number];

function assertNever(value: never): never {
  throw new Error(`Unhandled date grouping: ${String(value)}`);
}

/** SQL for the first day of the bucket a `usage_date` falls in. Weeks start on Monday. */
export function bucketStartSql(grouping: DateGrouping, column = 'usage_date'): string {
  switch (grouping) {
    case 'daily':
      return column;
    case 'weekly':
      return `toMonday(${column})`;
    case 'monthly':
      return `toStartOfMonth(${column})`;
    default:
      return assertNever(grouping);
  }
}

/** The same bucketing in TypeScript, for dates as `YYYY-MM-DD` strings. */
export function bucketStart(grouping: DateGrouping, date: string): string {
  switch (grouping) {
    case 'daily':
      return date;
    case 'weekly':
      return formatDayNumber(mondayOnOrBefore(dayNumber(date)));
    case 'monthly':
      return `${date.slice(0, 7)}-01`;
    default:
      return assertNever(grouping);
  }
}

/**
 * Every bucket start from the bucket containing `start` to the one containing `end`. The count is
 * computed first and the loop runs over integers, so it ends whatever the dates (none when end < start).
 */
export function bucketStarts(grouping: DateGrouping, start: string, end: string): string[] {
  switch (grouping) {
    case 'daily': {
      const first = dayNumber(start);
      return countedList(dayNumber(end) - first + 1, (i) => formatDayNumber(first + i));
    }
    case 'weekly': {
      const firstMonday = mondayOnOrBefore(dayNumber(start));
      return countedList(Math.floor((dayNumber(end) - firstMonday) / 7) + 1, (i) => formatDayNumber(firstMonday + 7 * i));
    }
    case 'monthly': {
      const firstMonth = monthNumber(start);
      return countedList(monthNumber(end) - firstMonth + 1, (i) => formatMonthNumber(firstMonth + i));
    }
    default:
      return assertNever(grouping);
  }
}

/** The number of buckets bucketStarts lists, without listing them. */
export function bucketCount(grouping: DateGrouping, start: string, end: string): number {
  switch (grouping) {
    case 'daily':
      return Math.max(0, dayNumber(end) - dayNumber(start) + 1);
    case 'weekly':
      return Math.max(0, Math.floor((dayNumber(end) - mondayOnOrBefore(dayNumber(start))) / 7) + 1);
    case 'monthly':
      return Math.max(0, monthNumber(end) - monthNumber(start) + 1);
    default:
      return assertNever(grouping);
  }
}

/** Day 0 (1970-01-01) was a Thursday, so Monday is day number ≡ 4 (mod 7). */
function mondayOnOrBefore(day: number): number {
  return day - (isoWeekday(day) - 1);
}

function countedList(count: number, item: (index: number) => string): string[] {
  const items: string[] = [];
  for (let i = 0; i < count; i++) items.push(item(i));
  return items;
}
