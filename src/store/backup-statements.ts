import { sleep } from '../common/async/sleep';
import { ClickhouseService } from './clickhouse/clickhouse.service';
import { STORE_RESTORE_TABLE } from './schema/store-restore';
import type { StoreTable as StoreTableName } from './schema/store-tables';

/** A table of the store as system.tables describes it. */
export interface StoreTable {
  name: string;
  engine: string;
  rows: number;
  bytes: number;
  /** The migrator's record of the schema (schema_migrations), not the store's data. */
  migrationRecord: boolean;
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
  return rows.map((row) => ({
    name: row.name,
    engine: row.engine,
    rows: Number(row.rows ?? 0),
    bytes: Number(row.bytes ?? 0),
    migrationRecord: row.name === ('schema_migrations' satisfies StoreTableName),
  }));
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

/** BACKUP of the store's database on one server, its `excluded` tables left out, incremental on `base` when given. */
export function backUpDatabase(server: ClickhouseService, target: string, excluded: string[], base?: string): Promise<void> {
  const except = excluded.length ? ` EXCEPT TABLES ${excluded.map((table) => `${server.database}.${table}`).join(', ')}` : '';
  const onBase = base ? ` SETTINGS base_backup = ${base}` : '';
  return awaitOperation(server, `BACKUP DATABASE ${server.database}${except} TO ${target}${onBase} ASYNC`, 'BACKUP_CREATED');
}

/** RESTORE of a backed-up database into the database `scratch` of one server. */
export function restoreDatabase(server: ClickhouseService, backedUp: string, scratch: string, source: string): Promise<void> {
  return awaitOperation(server, `RESTORE DATABASE ${backedUp} AS ${scratch} FROM ${source} ASYNC`, 'RESTORED');
}

export async function dropDatabase(server: ClickhouseService, database: string): Promise<void> {
  await server.command(`DROP DATABASE IF EXISTS ${database}`);
}

/** CHECK TABLE, one row per part: the parts whose files do not match their checksums. */
export async function failedParts(
  server: ClickhouseService,
  database: string,
  table: string,
): Promise<Array<{ part_path: string; message: string }>> {
  const rows = await server.query<{ part_path: string; message: string; is_passed: number | string }>(
    `CHECK TABLE ${database}.${table} SETTINGS check_query_single_value_result = 0`,
  );
  return rows.filter((row) => Number(row.is_passed) === 0).map(({ part_path, message }) => ({ part_path, message }));
}

/** The newest migration applied to the store on one server. */
export async function schemaVersion(server: ClickhouseService): Promise<number> {
  const [row] = await server.query<{ version: number | string }>(
    `SELECT max(version) AS version FROM ${server.database}.schema_migrations`,
  );
  return Number(row.version);
}

/** On one server: the store's tables replaced by the scratch database's (renames: no copy), then the scratch dropped. */
export async function replaceWithScratch(server: ClickhouseService, scratch: string): Promise<void> {
  const current = await storeTables(server);
  for (const table of current.sort((a, b) => Number(b.engine === 'Distributed') - Number(a.engine === 'Distributed'))) {
    if (table.name === STORE_RESTORE_TABLE || table.engine === 'Dictionary') continue;
    // The kept dictionaries read tables dropped here (ClickHouse refuses that by default): their namesakes come next.
    await server.command(`DROP TABLE IF EXISTS ${server.database}.${table.name} SYNC`, {}, { check_table_dependencies: 0 });
  }
  const restored = await storeTables(server, scratch);
  if (restored.length) {
    await server.command(
      `RENAME TABLE ${restored.map((table) => `${scratch}.${table.name} TO ${server.database}.${table.name}`).join(', ')}`,
    );
  }
  await repointDefaults(server, scratch);
  await dropDatabase(server, scratch);
}
