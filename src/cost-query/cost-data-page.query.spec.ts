import { buildCostDataPageQuery } from './cost-data-page.query';
import { CostDataQuery } from './cost-data.query';

const ORG = '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11';

function query(overrides: Partial<CostDataQuery> = {}): CostDataQuery {
  return {
    scope: { organizationId: ORG },
    filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-30' } } },
    dateGrouping: 'daily',
    dimensions: [],
    multiDimension: false,
    today: '2026-11-21',
    defaultWindowDays: 30,
    ...overrides,
  };
}

describe('buildCostDataPageQuery', () => {
  it('cuts the page and the top values in the statement, as typed parameters', () => {
    const { sql, params } = buildCostDataPageQuery('t', query({ dimensions: [{ kind: 'tag', key: "team's" }] }), {
      offset: 37,
      limit: 5,
      topValues: 10,
    });
    expect(sql).toContain('GROUP BY GROUPING SETS ((bucket_start, dim_0), (dim_0), ())');
    expect(sql).toMatch(/row_number\(\) OVER \(PARTITION BY kind ORDER BY bucket_start, dim_0\) AS item_rank/);
    expect(sql).toMatch(/row_number\(\) OVER \(PARTITION BY kind ORDER BY amortized_cost DESC, first_bucket, dim_0\) AS value_rank/);
    expect(sql).toMatch(/kind = 1 AND value_rank <= \{p\d+:UInt64\}/);
    expect(sql).toMatch(/kind = 2 AND item_rank > \{p\d+:UInt64\} AND item_rank <= \{p\d+:UInt64\}/);
    expect(Object.values(params)).toEqual(expect.arrayContaining([37, 42, 10, "team's"]));
    expect(sql).not.toContain("team's");
    expect(sql).not.toMatch(/\b(37|42)\b/);
  });

  it('has no top values without a dimension', () => {
    const { sql } = buildCostDataPageQuery('t', query(), { offset: 0, limit: 1, topValues: 10 });
    expect(sql).toContain('GROUP BY GROUPING SETS ((bucket_start), ())');
    expect(sql).not.toContain('kind = 1, formatRowNoNewline');
  });
});
