import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { baselineTable, readBaseline } from './schema-baseline';
import { STORE_TABLES } from './store-tables';

/**
 * The columns of every table are declared once, by the migrations (schema.sql is the schema they leave, checked
 * against them in schema-baseline.spec.ts; the cost table's columns and projections against the code in
 * one-definition.spec.ts). What the store writes is held against it here: each column an INSERT of the committed
 * statements names (src/queries: every repository's and the store's writes).
 */
const QUERIES = resolve(__dirname, '../../queries');

/** Every INSERT of the committed statements into a table of the store: where it was found, the table, its columns. */
function committedInserts(): Array<{ file: string; table: string; columns: string[] }> {
  return readdirSync(QUERIES)
    .filter((file) => file.endsWith('.sql'))
    .flatMap((file) =>
      [...readFileSync(join(QUERIES, file), 'utf8').matchAll(/INSERT INTO cost_insights\.(\w+?)(?:_distributed)? \(([^)]*)\)/g)]
        // The migrator's own record is created by the migrator (migrator.ts), not by a migration.
        .filter(([, table]) => table in STORE_TABLES && table !== 'schema_migrations')
        .map(([, table, columns]) => ({ file, table, columns: columns.split(',').map((column) => column.trim()) })),
    );
}

describe('the schema: the columns every INSERT names, declared by the migrations', () => {
  it('has every column an INSERT of the store names', () => {
    const baseline = readBaseline();
    const inserts = committedInserts();
    expect(new Set(inserts.map(({ table }) => table)).size).toBeGreaterThan(15);
    const unknown = inserts.flatMap(({ file, table, columns }) => {
      const declared = baselineTable(table, baseline);
      if (!declared) return [`${file}: ${table} is not in schema.sql`];
      return columns.filter((column) => !declared.columns.includes(column)).map((column) => `${file}: ${table}.${column}`);
    });
    expect(unknown).toEqual([]);
  });
});
