import { migrationFault } from './migration-fault';
import { loadMigrations, pendingMigrations, splitStatements } from './migrator';

describe('migrations', () => {
  it('split on semicolons at line ends, without comment lines', () => {
    expect(splitStatements('-- a comment; with a semicolon\nCREATE TABLE a (x UInt8);\n\nALTER TABLE a\n  ADD COLUMN y String;\n')).toEqual(
      ['CREATE TABLE a (x UInt8)', 'ALTER TABLE a\n  ADD COLUMN y String'],
    );
  });

  it('are numbered, substitute the database, and declare the MergeTree settings they need', () => {
    const migrations = loadMigrations('cost_insights');
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
    for (const migration of migrations) {
      expect(migration.statements.join('\n')).not.toContain('{{database}}');
    }
    const bucketed = migrations.find((m) => m.name === '0008_bucketed_tag_maps')!;
    expect(bucketed.requiredMergeTreeSettings).toEqual(['map_serialization_version']);
    expect(bucketed.statements).toHaveLength(1);
    expect(bucketed.statements[0]).toMatch(/^ALTER TABLE cost_insights\.cost_line_items MODIFY SETTING/);
    const noStatistics = migrations.find((m) => m.name === '0009_no_automatic_column_statistics')!;
    expect(noStatistics.requiredMergeTreeSettings).toEqual(['auto_statistics_types']);
    expect(noStatistics.statements).toEqual(["ALTER TABLE cost_insights.cost_line_items MODIFY SETTING auto_statistics_types = ''"]);
    const basic = migrations.find((m) => m.name === '0028_basic_tag_maps')!;
    expect(basic.requiredMergeTreeSettings).toEqual(['map_serialization_version']);
    expect(basic.statements[0]).toMatch(/^ALTER TABLE cost_insights\.cost_line_items MODIFY SETTING\s+map_serialization_version = 'basic'/);
    expect(migrations.filter((m) => m.requiredMergeTreeSettings.length > 0).map((m) => m.name)).toEqual([
      '0008_bucketed_tag_maps',
      '0009_no_automatic_column_statistics',
      '0028_basic_tag_maps',
    ]);
  });

  it('pending: those not applied, none above upToVersion', () => {
    const migrations = loadMigrations('cost_insights');
    const versions = (applied: number[], upToVersion?: number) =>
      pendingMigrations(migrations, new Set(applied), upToVersion === undefined ? {} : { upToVersion }).map((m) => m.version);
    expect(versions([])).toEqual(migrations.map((m) => m.version));
    expect(versions([], 1)).toEqual([1]);
    expect(versions([1, 2, 3], 5)).toEqual([4, 5]);
    expect(versions([1, 3], 4)).toEqual([2, 4]);
    expect(versions([1], 0)).toEqual([]);
    expect(
      versions(
        migrations.map((m) => m.version),
        25,
      ),
    ).toEqual([]);
  });

  it('fault point MIGRATE_FAULT_AFTER_STATEMENT is V:N with both positive, otherwise none', () => {
    expect(migrationFault('23:2')).toEqual({ version: 23, statement: 2 });
    expect(migrationFault(' 4:3 ')).toEqual({ version: 4, statement: 3 });
    for (const value of [undefined, '', '23', '23:', ':2', '0:2', '23:0', '23:-1', 'a:b', '23:2:1'])
      expect(migrationFault(value)).toBeUndefined();
  });
});
