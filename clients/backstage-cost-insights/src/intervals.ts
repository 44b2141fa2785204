/**
 * The Cost Insights plugin's `intervals` strings: an ISO 8601 repeating interval `R<n>/<duration>/<date>`
 * whose date is the EXCLUSIVE end of the last interval, as the plugin writes them (`R2/P30D/2020-09-01`: the
 * 30 days before 1 September and the 30 days before those; `R2/P3M/2020-10-01`: Q2 and Q3 2020). The plugin
 * takes P3M to mean whole calendar quarters: an end date that is not the first day of a quarter is moved back
 * to the start of its quarter (only completed quarters count), as the plugin's own quarter arithmetic does.
 * Calendar dates in UTC, no time zones.
 */

export interface DateRange {
  /** First day, included (YYYY-MM-DD). */
  start: string;
  /** Last day, included (YYYY-MM-DD). */
  end: string;
}

export interface ParsedIntervals {
  /** The intervals, oldest first; the last one ends the day before the intervals' end date. */
  intervals: DateRange[];
  /** From the first interval's start to the last one's end. */
  window: DateRange;
  duration: { amount: number; unit: 'D' | 'M' };
}

const INTERVALS = /^R(\d+)\/P(\d+)([DM])\/(\d{4}-\d{2}-\d{2})$/;

export function parseIntervals(text: string): ParsedIntervals {
  const match = INTERVALS.exec(text.trim());
  if (!match) {
    throw new Error(
      `Invalid intervals "${text}": expected R<repetitions>/P<n>D or P<n>M/<exclusive end date YYYY-MM-DD>, e.g. R2/P30D/2020-09-01`,
    );
  }
  const repetitions = Number(match[1]);
  const amount = Number(match[2]);
  const unit = match[3] as 'D' | 'M';
  if (repetitions < 1 || amount < 1) throw new Error(`Invalid intervals "${text}": repetitions and duration must be at least 1`);
  let exclusiveEnd = checkedDate(match[4], text);
  if (unit === 'M' && amount % 3 === 0) exclusiveEnd = quarterStartOnOrBefore(exclusiveEnd);
  const step = (date: string, times: number) => (unit === 'D' ? addDays(date, -amount * times) : addMonths(date, -amount * times));
  const intervals = Array.from({ length: repetitions }, (_, i) => ({
    start: step(exclusiveEnd, repetitions - i),
    end: addDays(step(exclusiveEnd, repetitions - i - 1), -1),
  }));
  return { intervals, window: { start: intervals[0].start, end: intervals[repetitions - 1].end }, duration: { amount, unit } };
}

/** Every day from start to end, both included. */
export function daysOf(range: DateRange): string[] {
  const days: string[] = [];
  for (let day = range.start; day <= range.end; day = addDays(day, 1)) days.push(day);
  return days;
}

export function addDays(date: string, days: number): string {
  const value = toUtc(date);
  value.setUTCDate(value.getUTCDate() + days);
  return isoDate(value);
}

/** The same day `months` months later (or earlier), clamped to the month's last day (31 March − 1 month = 28/29 February). */
export function addMonths(date: string, months: number): string {
  const value = toUtc(date);
  const target = new Date(Date.UTC(value.getUTCFullYear(), value.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(value.getUTCDate(), lastDay));
  return isoDate(target);
}

/** The first day of the quarter that `date` is in, or `date` itself when it is one. */
export function quarterStartOnOrBefore(date: string): string {
  const value = toUtc(date);
  return isoDate(new Date(Date.UTC(value.getUTCFullYear(), Math.floor(value.getUTCMonth() / 3) * 3, 1)));
}

export function isoDate(value: Date): string {
  return value.toISOString().slice(0, 10);
}

function toUtc(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

function checkedDate(date: string, text: string): string {
  const value = toUtc(date);
  if (Number.isNaN(value.getTime()) || isoDate(value) !== date)
    throw new Error(`Invalid intervals "${text}": ${date} is not a calendar date`);
  return date;
}
