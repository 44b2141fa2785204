/** An instant as ClickHouse's DateTime64(6, 'UTC') text (`2026-11-25 18:00:00.000`), as JSONEachRow inserts parse it. */
export function clickhouseTimestamp(instant: Date | number): string {
  return new Date(instant).toISOString().replace('T', ' ').replace('Z', '');
}

/** ClickHouse's DateTime64 text in UTC (`2026-11-23 09:30:00.000`) as ISO 8601. */
export function isoFromClickhouse(clickhouseTime: string): string {
  return new Date(`${clickhouseTime.replace(' ', 'T')}Z`).toISOString();
}
