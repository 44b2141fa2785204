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
    case 'weekly': {
      const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 = Sunday
      return addDays(date, -((weekday + 6) % 7));
    }
    case 'monthly':
      return `${date.slice(0, 7)}-01`;
    default:
      return assertNever(grouping);
  }
}

/** Every bucket start from the bucket containing `start` to the one containing `end`. */
export function bucketStarts(grouping: DateGrouping, start: string, end: string): string[] {
  const buckets: string[] = [];
  for (let bucket = bucketStart(grouping, start); bucket <= end; bucket = nextBucket(grouping, bucket)) {
    buckets.push(bucket);
  }
  return buckets;
}

function nextBucket(grouping: DateGrouping, bucket: string): string {
  switch (grouping) {
    case 'daily':
      return addDays(bucket, 1);
    case 'weekly':
      return addDays(bucket, 7);
    case 'monthly': {
      const date = new Date(`${bucket}T00:00:00Z`);
      date.setUTCMonth(date.getUTCMonth() + 1);
      return date.toISOString().slice(0, 10);
    }
    default:
      return assertNever(grouping);
  }
}

export function addDays(date: string, days: number): string {
  const value = new Date(`${date}T00:00:00Z`);
  value.setUTCDate(value.getUTCDate() + days);
  return value.toISOString().slice(0, 10);
}

/** Number of days in an inclusive range. */
export function daysInRange(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}

export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
