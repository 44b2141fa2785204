import { buildAnomalySeriesScopeQuery } from './anomaly-series-scope.query';

const ORG = '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11';

describe('buildAnomalySeriesScopeQuery', () => {
  it('reads the values of the monitored dimension inside the key’s scope on the anomaly’s days, usage only, values as parameters', () => {
    const { sql, params } = buildAnomalySeriesScopeQuery('db.cost_line_items', {
      scope: { organizationId: ORG, dataScope: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } } },
      monitored: { kind: 'tag', key: 'env' },
      value: "x' OR 1=1 --",
      days: { start: '2026-11-20', end: '2026-11-21' },
      leftOutCategories: ['Tax', 'Purchase'],
    });
    expect(sql).not.toContain("x'");
    expect(sql).toContain('FROM db.cost_line_items');
    expect(sql).toContain('resource_tags[{p0:String}] IN {p1:Array(String)}');
    expect(sql).toContain('charge_category NOT IN {left_out_categories:Array(String)}');
    expect(sql).toMatch(/countIf\(value = \{value:String\}\) > 0\) AS has_value, uniqExact\(value\) AS value_count/);
    expect(params).toMatchObject({
      organization_id: ORG,
      p0: 'team',
      p1: ['payments'],
      value: "x' OR 1=1 --",
      left_out_categories: ['Tax', 'Purchase'],
    });
    expect(Object.values(params)).toEqual(expect.arrayContaining(['2026-11-20', '2026-11-21', 'env']));
  });
});
