/** An instant as ClickHouse's DateTime64(6, 'UTC') text (`2026-11-25 18:00:00.000`), as JSONEachRow inserts parse it. */
export function clickhouseTimestamp(instant: Date | number): string {
  return new Date(instant).toISOString().replace('T', ' ').replace('Z', '');
}

/** ClickHouse's DateTime text in UTC (`2025-12-01 00:00:00`) as ISO 8601 to the second, as FOCUS writes it: `2025-12-01T00:00:00Z`. */
export function isoSecondsFromClickhouse(clickhouseTime: string): string {
  return `${clickhouseTime.replace(' ', 'T')}Z`;
}

/** ClickHouse's DateTime64 text in UTC (`2026-11-23 09:30:00.000`) as ISO 8601. */
export function isoFromClickhouse(clickhouseTime: string): string {
  return new Date(`${clickhouseTime.replace(' ', 'T')}Z`).toISOString();
}
