/**
 * Swagger examples relative to the day the service starts, so "Try it out" always lands inside the
 * demo estate (the last 13 months up to yesterday), whenever the service is run.
 */
function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The calendar month `monthsBack` months before the current one: {start, end}. */
export function exampleMonth(monthsBack: number, now: Date = new Date()): { start: string; end: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack + 1, 0));
  return { start: isoDate(start), end: isoDate(end) };
}

export const EXAMPLE_LAST_MONTH = exampleMonth(1);
export const EXAMPLE_MONTH_BEFORE = exampleMonth(2);

/** The organisation the first start loads demo data for, so the Swagger examples' organizationId is one with data. */
export const DEMO_ORGANIZATION_ID = '3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d';
