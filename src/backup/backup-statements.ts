import { sleep } from '../common/async/sleep';
import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';

/** A table of the store as system.tables describes it. */
export interface StoreTable {
  name: string;
  engine: string;
  rows: number;
  bytes: number;
}

/** ClickHouse's File backup engine at `path` (a string literal: BACKUP takes no query parameters). */
export function fileTarget(path: string): string {
  return `File('${path.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}')`;
}

/** The tables of `database` (default: the store's) on one server. */
export async function storeTables(server: ClickhouseService, database = server.database): Promise<StoreTable[]> {
  const rows = await server.query<{ name: string; engine: string; rows: number | string | null; bytes: number | string | null }>(
    `SELECT name, engine, total_rows AS rows, total_bytes AS bytes FROM system.tables WHERE database = {database:String} ORDER BY name`,
    { database },
  );
  return rows.map((row) => ({ name: row.name, engine: row.engine, rows: Number(row.rows ?? 0), bytes: Number(row.bytes ?? 0) }));
}

/** A column whose default names an object of a database as `'<database>.<object>'` (dictGet's first argument). */
export interface NamingDefault {
  table: string;
  name: string;
  kind: string;
  expression: string;
}

/** The columns of `database` whose defaults name an object of the database `named`. */
export function defaultsNaming(server: ClickhouseService, database: string, named: string): Promise<NamingDefault[]> {
  return server.query<NamingDefault>(
    `SELECT table, name, default_kind AS kind, default_expression AS expression FROM system.columns
     WHERE database = {database:String} AND position(default_expression, {named:String}) > 0 ORDER BY table, name`,
    { database, named: `'${named}.` },
  );
}

/**
 * RESTORE … AS <scratch> renames the database in the restored defaults' dictionary names too (the cost table's
 * `dictGetOrDefault('<database>.activated_map_keys', …)`), and RENAME TABLE leaves them: once the tables are the
 * store's, their defaults are pointed back at the store's own dictionaries (else every later import fails).
 */
export async function repointDefaults(server: ClickhouseService, from: string): Promise<void> {
  const columns = await defaultsNaming(server, server.database, from);
  for (const table of new Set(columns.map((column) => column.table))) {
    // One statement per table: ClickHouse checks every default of the table after the change, the others' too.
    const changes = columns
      .filter((column) => column.table === table)
      .map((column) => `MODIFY COLUMN ${column.name} ${column.kind} ${column.expression.split(`'${from}.`).join(`'${server.database}.`)}`);
    await server.command(`ALTER TABLE ${server.database}.${table} ${changes.join(', ')}`);
  }
}

const POLL_MS = 200;

/**
 * Runs a BACKUP or RESTORE … ASYNC and waits for it in system.backups: no HTTP request or query time limit bounds
 * how long a large store takes. Throws ClickHouse's error when it ends otherwise than `done`.
 */
export async function awaitOperation(server: ClickhouseService, statement: string, done: 'BACKUP_CREATED' | 'RESTORED'): Promise<void> {
  const [started] = await server.query<{ id: string }>(statement);
  for (;;) {
    const [row] = await server.query<{ status: string; error: string }>(
      `SELECT toString(status) AS status, error FROM system.backups WHERE id = {id:String}`,
      { id: started.id },
    );
    if (row?.status === done) return;
    if (row && /FAILED|CANCELLED/.test(row.status)) throw new Error(row.error || row.status);
    await sleep(POLL_MS);
  }
}
