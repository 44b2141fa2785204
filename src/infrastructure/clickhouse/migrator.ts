import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ClickhouseService } from './clickhouse.service';
import { toClusterStatements } from './cluster-ddl';

export const MIGRATIONS_DIR = resolve(__dirname, '../../../clickhouse/migrations');

export interface Migration {
  version: number;
  name: string;
  statements: string[];
  checksum: string;
  /**
   * MergeTree settings the server must know (`-- requires merge tree setting: <name>` lines): on an
   * older server the migration is left pending (skipped, retried at every run) instead of failing.
   */
  requiredMergeTreeSettings: string[];
}

/** Reads `NNNN_name.sql` files in version order; `{{database}}` stands for the configured database. */
export function loadMigrations(database: string, dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const sql = text.replace(/\{\{database\}\}/g, database);
      return {
        version: Number(file.slice(0, 4)),
        name: file.replace(/\.sql$/, ''),
        statements: splitStatements(sql),
        checksum: createHash('sha256').update(text).digest('hex'),
        requiredMergeTreeSettings: [...text.matchAll(/^--\s*requires merge tree setting:\s*(\w+)\s*$/gm)].map((m) => m[1]),
      };
    });
}

/** Splits on `;` at the end of a line; comment lines are dropped. */
export function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/**
 * Applies pending migrations and records each in `schema_migrations`. Statements are idempotent
 * (IF NOT EXISTS), so a run interrupted between a statement and its record is safe to repeat.
 */
export async function migrate(clickhouse: ClickhouseService): Promise<Migration[]> {
  // Cluster mode (CLICKHOUSE_CLUSTER): the same statements, rewritten for the cluster (cluster-ddl.ts).
  const { cluster, database } = clickhouse;
  const run = async (statement: string) => {
    for (const sql of cluster ? toClusterStatements(statement, { cluster, database }) : [statement]) await clickhouse.command(sql);
  };
  await run(`CREATE DATABASE IF NOT EXISTS ${clickhouse.database}`);
  await run(
    `CREATE TABLE IF NOT EXISTS ${clickhouse.table('schema_migrations')}
     (version UInt32, name String, checksum String, applied_at DateTime64(3, 'UTC'))
     ENGINE = MergeTree ORDER BY version`,
  );
  const applied = await clickhouse.query<{ version: number }>(`SELECT version FROM ${clickhouse.table('schema_migrations')}`);
  const appliedVersions = new Set(applied.map((row) => Number(row.version)));
  const pending = loadMigrations(clickhouse.database).filter((m) => !appliedVersions.has(m.version));
  const appliedNow: Migration[] = [];
  for (const migration of pending) {
    if (!(await serverKnowsSettings(clickhouse, migration.requiredMergeTreeSettings))) continue;
    for (const statement of migration.statements) await run(statement);
    await clickhouse.insert('schema_migrations', [
      { version: migration.version, name: migration.name, checksum: migration.checksum, applied_at: Date.now() },
    ]);
    appliedNow.push(migration);
  }
  return appliedNow;
}

async function serverKnowsSettings(clickhouse: ClickhouseService, names: string[]): Promise<boolean> {
  if (names.length === 0) return true;
  const known = await clickhouse.query<{ name: string }>(
    'SELECT name FROM system.merge_tree_settings WHERE name IN {names:Array(String)}',
    { names },
  );
  return known.length === new Set(names).size;
}
