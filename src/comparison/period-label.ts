import { isWholeMonths } from '../common/dates/calendar-date';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const EN_DASH = '–';

/**
 * A human-readable English label for an inclusive date range (YYYY-MM-DD, start ≤ end):
 *  - a calendar year: `2026`;
 *  - whole calendar months: `October 2026`, `July – September 2026`, `December 2025 – January 2026`;
 *  - one day: `15 Oct 2026`;
 *  - days within a month: `1–15 Oct 2026`;
 *  - within a year: `28 Sep – 4 Oct 2026`;
 *  - across years: `15 Dec 2025 – 14 Jan 2026`.
 */
export function periodLabel(start: string, end: string): string {
  const from = parts(start);
  const to = parts(end);
  if (isWholeMonths(start, end)) {
    if (from.month === 0 && to.month === 11 && from.year === to.year) return `${from.year}`;
    if (from.year === to.year && from.month === to.month) return `${MONTHS[from.month]} ${from.year}`;
    if (from.year === to.year) return `${MONTHS[from.month]} ${EN_DASH} ${MONTHS[to.month]} ${to.year}`;
    return `${MONTHS[from.month]} ${from.year} ${EN_DASH} ${MONTHS[to.month]} ${to.year}`;
  }
  if (start === end) return `${from.day} ${shortMonth(from.month)} ${from.year}`;
  if (from.year === to.year && from.month === to.month) {
    return `${from.day}${EN_DASH}${to.day} ${shortMonth(to.month)} ${to.year}`;
  }
  if (from.year === to.year) {
    return `${from.day} ${shortMonth(from.month)} ${EN_DASH} ${to.day} ${shortMonth(to.month)} ${to.year}`;
  }
  return `${from.day} ${shortMonth(from.month)} ${from.year} ${EN_DASH} ${to.day} ${shortMonth(to.month)} ${to.year}`;
}

function parts(date: string): { year: number; month: number; day: number } {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) - 1, day: Number(date.slice(8, 10)) };
}

function shortMonth(month: number): string {
  return MONTHS[month].slice(0, 3);
}
