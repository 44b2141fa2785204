/** An instant as ClickHouse's DateTime64(6, 'UTC') text (`2026-11-25 18:00:00.000`), as JSONEachRow inserts parse it. */
export function clickhouseTimestamp(instant: Date | number): string {
  return new Date(instant).toISOString().replace('T', ' ').replace('Z', '');
}
