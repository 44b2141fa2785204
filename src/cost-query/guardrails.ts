import { daysInRange } from '../common/dates/calendar-date';
import { DateRange } from './filters.types';

/**
 * A validation detail (`path: …`) when a date range spans more than `maxDays` days, else undefined.
 * The limit (MAX_DATE_RANGE_DAYS) bounds how much data one request may scan.
 */
export function dateRangeSpanProblem(path: string, range: DateRange | undefined, maxDays: number): string | undefined {
  if (!range) return undefined;
  const days = daysInRange(range.start, range.end);
  if (days <= maxDays) return undefined;
  return `${path}: spans ${days} days; at most ${maxDays} days are allowed (inclusive of both ends)`;
}
