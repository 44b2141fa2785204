import { distributedTableSql, IMPORT_UNIT_SHARDING_KEY, servingTableName, shardingKeyOf, toClusterStatements } from './cluster-ddl';
import { loadMigrations } from './migrator';

const target = { cluster: 'ci_cluster', database: 'cost_insights' };
const translate = (sql: string) => toClusterStatements(sql, target);
const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

describe('cluster DDL', () => {
  it('creates the database on every node', () => {
    expect(translate('CREATE DATABASE IF NOT EXISTS cost_insights')).toEqual([
      'CREATE DATABASE IF NOT EXISTS cost_insights ON CLUSTER ci_cluster',
    ]);
  });

  it('replicates the sharded cost table per shard and adds a Distributed table sharded by import unit', () => {
    const sql = `CREATE TABLE IF NOT EXISTS cost_insights.cost_line_items
(
    organization_id UUID,
    usage_date      Date
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(usage_date)
ORDER BY (organization_id, usage_date)`;
    const [local, distributed, ...rest] = translate(sql);
    expect(rest).toEqual([]);
    expect(oneLine(local)).toBe(
      'CREATE TABLE IF NOT EXISTS cost_insights.cost_line_items ON CLUSTER ci_cluster ( organization_id UUID, usage_date Date ) ' +
        "ENGINE = ReplicatedMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}') " +
        'PARTITION BY toYYYYMM(usage_date) ORDER BY (organization_id, usage_date)',
    );
    expect(oneLine(distributed)).toBe(
      'CREATE TABLE IF NOT EXISTS cost_insights.cost_line_items_distributed ON CLUSTER ci_cluster AS cost_insights.cost_line_items ' +
        `ENGINE = Distributed(ci_cluster, cost_insights, cost_line_items, ${IMPORT_UNIT_SHARDING_KEY})`,
    );
  });

  it('keeps the small tables on the first shard (replicated there, engine arguments kept), read through a Distributed table', () => {
    const [keys, distributed, ...rest] = translate(
      'CREATE TABLE IF NOT EXISTS cost_insights.api_keys (key_id String, version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY key_id',
    );
    expect(rest).toEqual([]);
    expect(keys).toBe(
      'CREATE TABLE IF NOT EXISTS cost_insights.api_keys ON CLUSTER ci_cluster (key_id String, version UInt64) ' +
        "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}', version) ORDER BY key_id",
    );
    expect(oneLine(distributed)).toBe(
      'CREATE TABLE IF NOT EXISTS cost_insights.api_keys_distributed ON CLUSTER ci_cluster AS cost_insights.api_keys ' +
        'ENGINE = Distributed(ci_cluster, cost_insights, api_keys, 0)',
    );
  });

  it('drops, exchanges and alters on the cluster; a sharded drop removes its Distributed table first', () => {
    expect(translate('DROP TABLE IF EXISTS cost_insights.cost_line_items_0004_build')).toEqual([
      'DROP TABLE IF EXISTS cost_insights.cost_line_items_0004_build_distributed ON CLUSTER ci_cluster SYNC',
      'DROP TABLE IF EXISTS cost_insights.cost_line_items_0004_build ON CLUSTER ci_cluster SYNC',
    ]);
    expect(translate('DROP TABLE cost_insights.schema_migrations')).toEqual([
      'DROP TABLE IF EXISTS cost_insights.schema_migrations ON CLUSTER ci_cluster SYNC',
    ]);
    expect(translate('DROP TABLE cost_insights.shared_filters')).toEqual([
      'DROP TABLE IF EXISTS cost_insights.shared_filters_distributed ON CLUSTER ci_cluster SYNC',
      'DROP TABLE IF EXISTS cost_insights.shared_filters ON CLUSTER ci_cluster SYNC',
    ]);
    expect(translate('EXCHANGE TABLES cost_insights.a AND cost_insights.b')).toEqual([
      'EXCHANGE TABLES cost_insights.a AND cost_insights.b ON CLUSTER ci_cluster',
    ]);
    expect(translate('ALTER TABLE cost_insights.api_keys ADD COLUMN note String')).toEqual([
      'ALTER TABLE cost_insights.api_keys ON CLUSTER ci_cluster ADD COLUMN note String',
      'ALTER TABLE cost_insights.api_keys_distributed ON CLUSTER ci_cluster ADD COLUMN note String',
    ]);
    expect(
      translate("ALTER TABLE cost_insights.cost_line_items ADD COLUMN IF NOT EXISTS imported_at DateTime('UTC') DEFAULT now()"),
    ).toEqual([
      "ALTER TABLE cost_insights.cost_line_items ON CLUSTER ci_cluster ADD COLUMN IF NOT EXISTS imported_at DateTime('UTC') DEFAULT now()",
      "ALTER TABLE cost_insights.cost_line_items_distributed ON CLUSTER ci_cluster ADD COLUMN IF NOT EXISTS imported_at DateTime('UTC') DEFAULT now()",
    ]);
    expect(translate('ALTER TABLE cost_insights.cost_line_items MATERIALIZE COLUMN imported_at SETTINGS mutations_sync = 2')).toEqual([
      'ALTER TABLE cost_insights.cost_line_items ON CLUSTER ci_cluster MATERIALIZE COLUMN imported_at SETTINGS mutations_sync = 2',
    ]);
  });

  it('copies sharded data through the Distributed tables, synchronously, keeping the statement settings', () => {
    expect(
      translate(
        'INSERT INTO cost_insights.cost_line_items_0004_build\nSETTINGS max_partitions_per_insert_block = 0\nSELECT * FROM cost_insights.cost_line_items',
      ),
    ).toEqual([
      'INSERT INTO cost_insights.cost_line_items_0004_build_distributed\n' +
        'SETTINGS distributed_foreground_insert = 1, max_partitions_per_insert_block = 0\n' +
        'SELECT * FROM cost_insights.cost_line_items_distributed',
    ]);
    expect(translate('INSERT INTO cost_insights.cost_line_items SELECT * FROM cost_insights.staging')).toEqual([
      'INSERT INTO cost_insights.cost_line_items_distributed SETTINGS distributed_foreground_insert = 1\nSELECT * FROM cost_insights.staging',
    ]);
    // Small tables too: their rows go to the first shard wherever the statement runs.
    expect(translate('INSERT INTO cost_insights.api_keys SELECT * FROM cost_insights.old_keys')).toEqual([
      'INSERT INTO cost_insights.api_keys_distributed SETTINGS distributed_foreground_insert = 1\nSELECT * FROM cost_insights.old_keys',
    ]);
  });

  it("replicates the migrator's own bookkeeping table on every node", () => {
    const [sql, ...rest] = translate(`CREATE TABLE IF NOT EXISTS cost_insights.schema_migrations
     (version UInt32, name String, checksum String, applied_at DateTime64(3, 'UTC'))
     ENGINE = MergeTree ORDER BY version`);
    expect(rest).toEqual([]);
    expect(oneLine(sql)).toBe(
      "CREATE TABLE IF NOT EXISTS cost_insights.schema_migrations ON CLUSTER ci_cluster (version UInt32, name String, checksum String, applied_at DateTime64(3, 'UTC')) " +
        "ENGINE = ReplicatedMergeTree('/clickhouse/tables/{uuid}/all', '{replica}') ORDER BY version",
    );
  });

  it('refuses a statement it cannot translate instead of running it on one node only', () => {
    expect(() => translate('RENAME TABLE cost_insights.a TO cost_insights.b')).toThrow(/cannot translate/);
    expect(() => translate('CREATE TABLE cost_insights.x (a UInt8) ENGINE = Memory')).toThrow(/no MergeTree engine/);
  });

  it('translates every migration in src/store/schema/migrations: nothing left single-node', () => {
    for (const migration of loadMigrations('cost_insights')) {
      for (const statement of migration.statements) {
        for (const sql of translate(statement)) {
          if (/^INSERT/i.test(sql)) {
            expect(sql).toMatch(/_distributed\b/);
          } else {
            expect(sql).toContain('ON CLUSTER ci_cluster');
          }
          expect(sql).not.toMatch(/ENGINE\s*=\s*(?!Replicated|Distributed)\w*MergeTree/);
        }
      }
    }
  });

  it('creates a dictionary on every node, loading from the Distributed table of its cluster-wide source', () => {
    const statements = loadMigrations('cost_insights', undefined, true).flatMap((migration) => migration.statements);
    const dictionaries = statements.filter((sql) => /^CREATE\s+DICTIONARY/i.test(sql));
    expect(dictionaries.length).toBeGreaterThan(0);
    for (const statement of dictionaries) {
      const [sql, ...rest] = translate(statement);
      expect(rest).toEqual([]);
      expect(sql).toMatch(/^CREATE DICTIONARY IF NOT EXISTS cost_insights\.\w+ ON CLUSTER ci_cluster/);
      expect(sql).toContain('FROM cost_insights.tag_key_activations_distributed FINAL');
    }
    const single = loadMigrations('cost_insights').flatMap((migration) => migration.statements);
    expect(single.find((sql) => /^CREATE\s+DICTIONARY/i.test(sql))).toContain('FROM cost_insights.tag_key_activations FINAL');
  });

  it('serves the cluster-wide tables through their Distributed tables in cluster mode only; the migration record stays local', () => {
    expect(servingTableName('cost_line_items', true)).toBe('cost_line_items_distributed');
    expect(servingTableName('cost_line_items', false)).toBe('cost_line_items');
    expect(servingTableName('api_keys', true)).toBe('api_keys_distributed');
    expect(servingTableName('import_journal', true)).toBe('import_journal_distributed');
    expect(servingTableName('schema_migrations', true)).toBe('schema_migrations');
    expect(servingTableName('focus_import_m1_0123abcd', true)).toBe('focus_import_m1_0123abcd');
    expect(shardingKeyOf('cost_line_items_distributed')).toBeUndefined();
    expect(shardingKeyOf('cost_line_items_0004_build')).toBe(IMPORT_UNIT_SHARDING_KEY);
  });

  it('makes a Distributed table from the local table of a node (distributed mode), replacing one of other columns', () => {
    expect(distributedTableSql(target, 'cost_line_items')).toBe(
      'CREATE OR REPLACE TABLE cost_insights.cost_line_items_distributed AS cost_insights.cost_line_items\n' +
        `ENGINE = Distributed(ci_cluster, cost_insights, cost_line_items, ${IMPORT_UNIT_SHARDING_KEY})`,
    );
    expect(() => distributedTableSql(target, 'schema_migrations')).toThrow(/not a cluster-wide table/);
  });

  it("shards by import unit: a partition on one shard, an integration's months round-robin over the shards", () => {
    // The key is a function of the partition key's columns only (organisation, integration, billing period).
    for (const column of ['usage_date', 'account_id', 'service']) expect(IMPORT_UNIT_SHARDING_KEY).not.toContain(column);
    expect(IMPORT_UNIT_SHARDING_KEY).toMatch(/billing_period.*\* 12 \+/);
  });
});
