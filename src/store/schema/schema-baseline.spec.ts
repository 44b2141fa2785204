import { CLUSTER_WIDE_TABLES, DISTRIBUTED_SUFFIX, toClusterStatements } from './cluster-ddl';
import { loadMigrations } from './migrator';
import { baselineStatements, coverHash, readBaseline } from './schema-baseline';
import { STORE_TABLES } from './store-tables';

const REGENERATE = 'src/store/schema/schema.sql does not stand for today’s migrations: run `npm run schema:baseline` and commit it';

describe('the schema baseline (src/store/schema/schema.sql)', () => {
  const baseline = readBaseline()!;
  const migrations = loadMigrations('db');

  it('stands for every migration, as they are written today', () => {
    expect(baseline).toBeDefined();
    const covered = migrations.filter((migration) => migration.version <= baseline.version);
    const current = { version: migrations.length, hash: coverHash(covered.map((migration) => migration.checksum)) };
    if (baseline.version !== current.version || baseline.hash !== current.hash) throw new Error(REGENERATE);
  });

  it('creates every table of the store registry but the migrator’s record, each only if missing', () => {
    const created = baselineStatements(baseline, 'db', false).map((statement) => {
      const match = /^CREATE (?:TABLE|DICTIONARY) IF NOT EXISTS db\.(\w+)\s/.exec(statement);
      if (!match) throw new Error(`not a CREATE … IF NOT EXISTS of the database: ${statement.slice(0, 80)}`);
      return match[1];
    });
    expect(created.sort()).toEqual(
      Object.keys(STORE_TABLES)
        .filter((table) => table !== 'schema_migrations')
        .sort(),
    );
  });

  it('names the MergeTree settings its tables set, which the server must know for it to be used', () => {
    expect(baseline.mergeTreeSettings).toEqual(
      expect.arrayContaining(['index_granularity', 'map_serialization_version', 'map_buckets_strategy', 'auto_statistics_types']),
    );
    expect(baseline.mergeTreeSettings.every((name) => /^\w+$/.test(name))).toBe(true);
  });

  it('reads the serving table where a migration did: the Distributed table on a cluster', () => {
    const text = (clusterMode: boolean) => baselineStatements(baseline, 'db', clusterMode).join('\n');
    expect(text(true)).toContain('FROM db.tag_key_activations_distributed FINAL');
    expect(text(false)).toContain('FROM db.tag_key_activations FINAL');
    expect(text(true)).not.toContain('{{');
  });

  it('translates for a replicated cluster as the migrations do: every table replicated, the cluster-wide ones read through a Distributed table', () => {
    const translated = baselineStatements(baseline, 'db', true).flatMap((statement) =>
      toClusterStatements(statement, { cluster: 'c', database: 'db' }),
    );
    const tables = translated.filter((sql) => sql.startsWith('CREATE TABLE'));
    const distributed = tables.filter((sql) => /ENGINE = Distributed\(c, db, \w+/.test(sql));
    expect(distributed.map((sql) => /db\.(\w+) ON CLUSTER c/.exec(sql)?.[1]).sort()).toEqual(
      Object.keys(CLUSTER_WIDE_TABLES)
        .map((table) => `${table}${DISTRIBUTED_SUFFIX}`)
        .sort(),
    );
    for (const sql of tables.filter((sql) => !distributed.includes(sql)))
      expect(sql).toMatch(/ON CLUSTER c[\s\S]*ENGINE = Replicated\w*MergeTree\('/);
    for (const sql of translated) expect(sql).toContain('ON CLUSTER c');
  });
});
