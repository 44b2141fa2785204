import { toClusterStatements } from './cluster-ddl';
import { loadMigrations } from './migrator';
import { retentionDaysOf, retentionStatement } from './audit-retention';

describe('audit retention', () => {
  it('reads the days of the TTL as ClickHouse shows it, and none without one', () => {
    expect(
      retentionDaysOf(
        'MergeTree PARTITION BY toYYYYMM(at) ORDER BY (organization_id, at, event_id) TTL toDateTime(at) + toIntervalDay(400) SETTINGS index_granularity = 8192',
      ),
    ).toBe(400);
    expect(retentionDaysOf('MergeTree ORDER BY (organization_id, at, event_id) SETTINGS index_granularity = 8192')).toBeUndefined();
  });

  it('writes the TTL of a positive whole number of days only (DDL takes no parameters)', () => {
    expect(retentionStatement('cost_insights', 30)).toBe(
      'ALTER TABLE cost_insights.audit_events MODIFY TTL toDateTime(at) + INTERVAL 30 DAY',
    );
    for (const days of [0, -1, 1.5, Number.NaN]) expect(() => retentionStatement('cost_insights', days)).toThrow();
  });

  it('changes the local table only on a replicated cluster (a Distributed table has no TTL)', () => {
    expect(toClusterStatements(retentionStatement('db', 7), { cluster: 'c', database: 'db' })).toEqual([
      'ALTER TABLE db.audit_events ON CLUSTER c MODIFY TTL toDateTime(at) + INTERVAL 7 DAY',
    ]);
  });

  it('migration 0024 creates the table with the default retention, one table on the first shard of a cluster', () => {
    const [migration] = loadMigrations('db').filter((candidate) => candidate.name === '0024_create_audit_events');
    expect(migration.statements).toHaveLength(1);
    expect(migration.statements[0]).toContain('TTL toDateTime(at) + INTERVAL 400 DAY');
    const [local, distributed] = toClusterStatements(migration.statements[0], { cluster: 'c', database: 'db' });
    expect(local).toContain("ENGINE = ReplicatedMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}')");
    expect(distributed).toBe(
      'CREATE TABLE IF NOT EXISTS db.audit_events_distributed ON CLUSTER c AS db.audit_events\nENGINE = Distributed(c, db, audit_events, 0)',
    );
  });
});
