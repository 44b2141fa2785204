import { loadMigrations, splitStatements } from './migrator';

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
    expect(migrations.filter((m) => m.requiredMergeTreeSettings.length > 0).map((m) => m.name)).toEqual([
      '0008_bucketed_tag_maps',
      '0009_no_automatic_column_statistics',
    ]);
  });
});
