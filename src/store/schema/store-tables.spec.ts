import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLUSTER_WIDE_TABLES } from './cluster-ddl';
import { STORE_TABLES } from './store-tables';

const ROOT = resolve(__dirname, '../../..');
const MIGRATIONS = join(ROOT, 'src/store/schema/migrations');

/** The tables and dictionaries the migrations leave (created, and not dropped by a later statement), and the migrator's record. */
function tablesTheStoreHas(): string[] {
  const kept = new Set<string>();
  const statement = /\b(CREATE (?:TABLE|DICTIONARY)(?: IF NOT EXISTS)?|DROP TABLE(?: IF EXISTS)?) \{\{database\}\}\.(\w+)/g;
  for (const file of readdirSync(MIGRATIONS)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    for (const [, verb, table] of readFileSync(join(MIGRATIONS, file), 'utf8').matchAll(statement)) {
      if (verb.startsWith('CREATE')) kept.add(table);
      else kept.delete(table);
    }
  }
  const migrator = readFileSync(join(__dirname, 'migrator.ts'), 'utf8');
  for (const [, table] of migrator.matchAll(/CREATE TABLE IF NOT EXISTS \$\{clickhouse\.table\('(\w+)'\)\}/g)) kept.add(table);
  return [...kept].sort();
}

describe('the store tables, named once', () => {
  it('are exactly the tables and dictionaries the migrations create and the migrator records in', () => {
    expect(Object.keys(STORE_TABLES).sort()).toEqual(tablesTheStoreHas());
  });

  it('place every table the service reads through a Distributed table on a cluster, and no other', () => {
    expect(Object.keys(CLUSTER_WIDE_TABLES).sort()).toEqual(
      Object.entries(STORE_TABLES)
        .filter(([, placement]) => !['node-local', 'shard-local'].includes(placement))
        .map(([table]) => table)
        .sort(),
    );
    expect(CLUSTER_WIDE_TABLES.cost_line_items).toContain('billing_period'); // sharded by the import unit
  });
});
