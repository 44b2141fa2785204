import { buildScopeDataVersionQuery } from './scope-data-version.query';

describe('buildScopeDataVersionQuery', () => {
  it('reads count, latest and summed write times of the rows inside the scope, values as parameters', () => {
    const { sql, params } = buildScopeDataVersionQuery('db.cost_line_items', {
      organizationId: 'org-1',
      dataScope: { inclusions: { accountIds: ["1'; DROP"] } },
    });
    expect(sql.split('\n')[0]).toBe(
      'SELECT toString(count()) AS row_count, toString(toUInt32(max(imported_at))) AS latest, toString(sum(toUInt64(toUInt32(imported_at)))) AS written',
    );
    expect(sql).toContain('FROM db.cost_line_items\nWHERE organization_id = {organization_id:UUID}\n  AND ');
    expect(sql).not.toContain('DROP');
    expect(Object.values(params)).toContainEqual(["1'; DROP"]);
  });
});
