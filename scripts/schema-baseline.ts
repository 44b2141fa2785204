/**
 * `npm run schema:baseline`: writes src/store/schema/schema.sql, the schema an empty store reaches through every migration
 * (src/store/schema/schema-baseline.ts). It migrates a fresh embedded store one migration at a time,
 * writes each table's CREATE as ClickHouse formats it, then makes a second database from the file and checks that
 * every table reads back the same: a baseline that would not re-create the migrated schema is never written.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/app-config';
import { ClickhouseService } from '../src/store/clickhouse/clickhouse.service';
import { loadMigrations, migrateStepByStepForBaseline } from '../src/store/schema/migrator';
import {
  BASELINE_FILE,
  BASELINE_GENERATOR_DATABASE,
  baselineStatements,
  baselineText,
  coverHash,
  readBaseline,
} from '../src/store/schema/schema-baseline';

const CHECK_DATABASE = `${BASELINE_GENERATOR_DATABASE}_check`;

/** Table names in the order the migrations first create them. */
function creationOrder(): string[] {
  const names = loadMigrations('db')
    .flatMap((migration) => migration.statements)
    .map((statement) => /^CREATE\s+(?:TABLE|DICTIONARY)\s+(?:IF\s+NOT\s+EXISTS\s+)?db\.(\w+)/i.exec(statement)?.[1])
    .filter((name): name is string => name !== undefined);
  return [...new Set(names)];
}

async function createsOf(store: ClickhouseService, database: string): Promise<string[]> {
  const rows = await store.query<{ create: string }>(
    `SELECT replaceAll(create_table_query, {database:String}, 'DB') AS create FROM system.tables
     WHERE database = {database:String} AND name != 'schema_migrations' ORDER BY name`,
    { database },
  );
  return rows.map((row) => row.create);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'schema-baseline-'));
  const store = new ClickhouseService(loadConfig({ ...process.env, DATA_DIR: dir, CLICKHOUSE_DATABASE: BASELINE_GENERATOR_DATABASE }));
  try {
    const migrations = await migrateStepByStepForBaseline(store);
    const version = migrations.length;
    const hash = coverHash(migrations.map((migration) => migration.checksum));
    writeFileSync(BASELINE_FILE, await baselineText(store, version, hash, creationOrder()));

    await store.command(`CREATE DATABASE ${CHECK_DATABASE}`);
    for (const statement of baselineStatements(readBaseline()!, CHECK_DATABASE, true)) await store.command(statement);
    const [migrated, rebuilt] = [await createsOf(store, BASELINE_GENERATOR_DATABASE), await createsOf(store, CHECK_DATABASE)];
    if (JSON.stringify(migrated) !== JSON.stringify(rebuilt)) {
      rmSync(BASELINE_FILE);
      throw new Error(`the baseline does not re-create the migrated schema:\n${JSON.stringify({ migrated, rebuilt }, null, 1)}`);
    }
    console.log(`Wrote ${BASELINE_FILE}: ${migrated.length} tables, migrations 1..${version}.`);
  } finally {
    await store.onModuleDestroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
