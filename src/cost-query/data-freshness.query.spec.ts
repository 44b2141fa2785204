import { buildDataFreshnessQuery } from './data-freshness.query';

const ORG = '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11';

describe('buildDataFreshnessQuery', () => {
  it('reads the last usage date and write time of the organisation, over all dates', () => {
    expect(buildDataFreshnessQuery('db.cost_line_items', { organizationId: ORG })).toEqual({
      sql: [
        'SELECT toString(maxOrNull(usage_date)) AS dataThrough,',
        "       formatDateTime(maxOrNull(imported_at), '%Y-%m-%dT%H:%i:%SZ', 'UTC') AS importedAt",
        'FROM db.cost_line_items',
        'WHERE organization_id = {organization_id:UUID}',
      ].join('\n'),
      params: { organization_id: ORG },
    });
  });

  it('of the rows inside a key’s data scope only', () => {
    const { sql, params } = buildDataFreshnessQuery('db.cost_line_items', {
      organizationId: ORG,
      dataScope: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] }, exclusions: { services: ['Support'] } },
    });
    expect(sql.split('\n').slice(3)).toEqual([
      'WHERE organization_id = {organization_id:UUID}',
      '  AND resource_tags[{p0:String}] IN {p1:Array(String)}',
      '  AND NOT (service IN {p2:Array(String)})',
    ]);
    expect(params).toEqual({ organization_id: ORG, p0: 'team', p1: ['payments'], p2: ['Support'] });
  });
});
