import { categoryValueSql, costCategoriesSql, evaluationOrder, RuleDefinedCategory } from './cost-category-rules';
import { SqlParameters } from './sql-parameters';

const category = (key: string, rules: RuleDefinedCategory['rules'], defaultValue = 'Unallocated'): RuleDefinedCategory => ({
  key,
  defaultValue,
  rules,
});

describe('rule-defined cost categories', () => {
  it('compiles rules in order, first match wins, the default last; values only as parameters', () => {
    const params = new SqlParameters();
    const sql = categoryValueSql(
      category('BusinessUnit', [
        { value: 'Data', when: { inclusions: { services: ['Amazon RDS'] } } },
        { value: 'Payments', caseInsensitive: true, when: { inclusions: { resourceTag: 'team', resourceTagValues: ['Payments'] } } },
        { inheritTag: 'team' },
      ]),
      params,
      { tag: 'resource_tags', costCategory: 'imported_cost_categories' },
    );
    expect(sql).toBe(
      'multiIf(service IN {p0:Array(String)}, {p1:String}, ' +
        'lower(resource_tags[{p2:String}]) IN {p3:Array(String)}, {p4:String}, ' +
        "resource_tags[{p5:String}] != '', resource_tags[{p5:String}], {p6:String})",
    );
    expect(params.toObject()).toEqual({
      p0: ['Amazon RDS'],
      p1: 'Data',
      p2: 'team',
      p3: ['payments'],
      p4: 'Payments',
      p5: 'team',
      p6: 'Unallocated',
    });
  });

  it('reads an earlier category as computed, in evaluation order, and names a cycle', () => {
    const unit = category('Unit', [
      { value: 'Retail', when: { inclusions: { costCategory: 'BusinessUnit', costCategoryValues: ['Payments'] } } },
    ]);
    const business = category('BusinessUnit', [{ value: 'Payments' }]);
    const ordered = evaluationOrder([unit, business]);
    expect('order' in ordered && ordered.order.map((c) => c.key)).toEqual(['BusinessUnit', 'Unit']);
    const params = new SqlParameters();
    const sql = costCategoriesSql('order' in ordered ? ordered.order : [], params, 'imported_cost_categories', 'resource_tags');
    expect(sql).toBe(
      'mapUpdate(mapUpdate(imported_cost_categories, map({p2:String}, multiIf(1, {p0:String}, {p1:String}))), ' +
        'map({p7:String}, multiIf(mapUpdate(imported_cost_categories, map({p2:String}, multiIf(1, {p0:String}, {p1:String})))' +
        '[{p3:String}] IN {p4:Array(String)}, {p5:String}, {p6:String})))',
    );
    const loop = [
      category('A', [{ inheritCategory: 'B' }]),
      category('B', [{ inheritCategory: 'C' }]),
      category('C', [{ inheritCategory: 'A' }]),
    ];
    expect(evaluationOrder(loop)).toEqual({ cycle: ['A', 'B', 'C', 'A'] });
    expect(evaluationOrder([category('A', [{ inheritCategory: 'A' }])])).toEqual({ cycle: ['A', 'A'] });
  });
});
