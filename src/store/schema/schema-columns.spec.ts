import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AGGREGATE_PROJECTIONS, COMMITMENT_PROJECTIONS } from '../../cost-query/projections';
import { COST_COLUMNS } from '../../ingest/focus-mapping';
import { BASELINE_FILE } from './schema-baseline';
import { STORE_TABLES } from './store-tables';

/**
 * The columns and projections of every table are declared once, by the migrations (src/store/schema/schema.sql is the
 * schema they leave, checked against them in schema-baseline.spec.ts). What the code writes is held against it here:
 * each column an INSERT of the committed statements names (src/queries: every repository's and the store's writes),
 * the importer's cost columns, and the projections the kernel names.
 */
const QUERIES = resolve(__dirname, '../../queries');

interface DeclaredTable {
  columns: string[];
  projections: string[];
}

/** The tables of the baseline schema: their columns and projections, by name. */
function baselineTables(): Map<string, DeclaredTable> {
  const tables = new Map<string, DeclaredTable>();
  for (const block of readFileSync(BASELINE_FILE, 'utf8')
    .split(/^CREATE /m)
    .slice(1)) {
    const name = /^(?:TABLE|DICTIONARY) IF NOT EXISTS \{\{database\}\}\.(\w+)/.exec(block)?.[1];
    if (!name) continue;
    tables.set(name, {
      columns: [...block.matchAll(/^ {4}`(\w+)` /gm)].map((match) => match[1]),
      projections: [...block.matchAll(/^ {4}PROJECTION (\w+)/gm)].map((match) => match[1]),
    });
  }
  return tables;
}

/** Every INSERT of the committed statements into a table of the store: where it was found, the table, its columns. */
function committedInserts(): Array<{ file: string; table: string; columns: string[] }> {
  return readdirSync(QUERIES)
    .filter((file) => file.endsWith('.sql'))
    .flatMap((file) =>
      [...readFileSync(join(QUERIES, file), 'utf8').matchAll(/INSERT INTO cost_insights\.(\w+?)(?:_distributed)? \(([^)]*)\)/g)]
        .filter(([, table]) => table in STORE_TABLES)
        .map(([, table, columns]) => ({ file, table, columns: columns.split(',').map((column) => column.trim()) })),
    );
}

describe('the schema: columns and projections declared once, by the migrations', () => {
  const tables = baselineTables();

  it("holds every table of the store (but the migrator's own record, which the migrator creates)", () => {
    expect([...tables.keys()].sort()).toEqual(
      Object.keys(STORE_TABLES)
        .filter((table) => table !== 'schema_migrations')
        .sort(),
    );
  });

  it('has every column an INSERT of the store names', () => {
    const inserts = committedInserts();
    expect(new Set(inserts.map(({ table }) => table)).size).toBeGreaterThan(15);
    const unknown = inserts.flatMap(({ file, table, columns }) =>
      columns.filter((column) => !tables.get(table)!.columns.includes(column)).map((column) => `${file}: ${table}.${column}`),
    );
    expect(unknown).toEqual([]);
  });

  it("has the importer's cost columns, each once", () => {
    const costColumns = tables.get('cost_line_items')!.columns;
    expect(COST_COLUMNS.filter((column) => !costColumns.includes(column))).toEqual([]);
    expect(new Set(COST_COLUMNS).size).toBe(COST_COLUMNS.length);
  });

  it('has the projections the kernel names, on the cost table', () => {
    const named = [
      ...Object.values(AGGREGATE_PROJECTIONS).flatMap((grain) => Object.values(grain)),
      ...Object.values(COMMITMENT_PROJECTIONS),
    ];
    expect(tables.get('cost_line_items')!.projections.sort()).toEqual([...named].sort());
  });
});
