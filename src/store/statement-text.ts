/** SQL text the store's statements share with the importer's: settings clauses, string literals, insert blocks. */

/** SETTINGS clause of the import's own heavy statements (the API's per-query time budget does not apply). */
export const IMPORT_STATEMENT_SETTINGS = 'SETTINGS max_execution_time = 0';

/**
 * Insert blocks of cost rows cut at 8 MiB whatever their width: each block is written into a part and its six
 * projections, a buffer per column, and each insert thread writes its own. Copying a 1.9M-row partition of the
 * bench's 100M estate took more than 2 GiB in ClickHouse's default blocks (~1M rows), 836 MB in these with one
 * thread, 1.6 GB with two; at 16 MiB a 3M-row file's import needed more than 1.5 GiB. Imports and the activated
 * keys' partition rewrite use them.
 */
export const COST_ROW_BLOCK_SETTINGS = {
  min_insert_block_size_rows: 0,
  min_insert_block_size_bytes: 8 * 1024 * 1024,
} as const;

/** A statement's SETTINGS clause (the embedded connection would make settings given beside a statement session-wide). */
export function settingsClause(settings: Readonly<Record<string, string | number | undefined>>): string {
  const assignments = Object.entries(settings)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name} = ${typeof value === 'number' ? value : `'${sqlString(String(value))}'`}`);
  return `SETTINGS ${assignments.join(', ')}`;
}

/** A string for a single-quoted SQL literal (only for constants of the code and file paths). */
export function sqlString(value: string): string {
  return (
    value
      .replace(/\\/g, '\\\\')
      .replace(/'/g, "\\'")
      // eslint-disable-next-line no-control-regex -- NUL is escaped, as ClickHouse's string literals need
      .replace(/\u0000/g, '\\0')
  );
}
