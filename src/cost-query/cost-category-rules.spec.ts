import {
  categoryValueSql,
  compileCategories,
  effectiveSegments,
  evaluationOrder,
  RuleDefinedCategory,
  VersionedCategory,
} from './cost-category-rules';
import { SqlParameters } from './sql-parameters';

const COLUMNS = { imported: 'imported', tags: 'tags', billingMonth: 'month' };

const category = (key: string, rules: RuleDefinedCategory['rules'], defaultValue = 'Unallocated'): RuleDefinedCategory => ({
  key,
  defaultValue,
  rules,
});

describe('rule-defined cost categories', () => {
  it('reads a run of value rules on one field as one lookup, the first rule winning a value two list', () => {
    const params = new SqlParameters();
    const sql = categoryValueSql(
      category('BusinessUnit', [
        { value: 'BU-1', when: { inclusions: { resourceTag: 'team', resourceTagValues: ['search', 'ads'] } } },
        { value: 'BU-2', when: { inclusions: { resourceTag: 'team', resourceTagValues: ['ads', '(not set)'] } } },
        { value: 'Data', when: { inclusions: { services: ['Amazon RDS'] } } },
        { value: 'Data', when: { inclusions: { services: ['Amazon Redshift'] } } },
        // Another key, another case rule, an exclusion or a second field: a rule of its own.
        { value: 'Env', when: { inclusions: { resourceTag: 'env', resourceTagValues: ['prod'] } } },
        { value: 'Ads', caseInsensitive: true, when: { inclusions: { resourceTag: 'env', resourceTagValues: ['Ads'] } } },
        { value: 'Not S3', when: { exclusions: { services: ['Amazon S3'] } } },
        { value: 'Two', when: { inclusions: { services: ['Amazon S3'], regions: ['eu-west-1'] } } },
      ]),
      params,
      { tag: 'tags', costCategory: 'categories' },
    );
    expect(sql).toBe(
      "multiIf(has({p1:Array(String)}, tags[{p0:String}]), transform(tags[{p0:String}], {p1:Array(String)}, {p2:Array(String)}, ''), " +
        "has({p3:Array(String)}, service), transform(service, {p3:Array(String)}, {p4:Array(String)}, ''), " +
        'tags[{p5:String}] IN {p6:Array(String)}, {p7:String}, ' +
        'lower(tags[{p8:String}]) IN {p9:Array(String)}, {p10:String}, ' +
        'NOT (service IN {p11:Array(String)}), {p12:String}, ' +
        'service IN {p13:Array(String)} AND region IN {p14:Array(String)}, {p15:String}, {p16:String})',
    );
    expect(params.toObject()).toMatchObject({
      p0: 'team',
      p1: ['search', 'ads', '(not set)', ''],
      p2: ['BU-1', 'BU-1', 'BU-2', 'BU-2'],
      p3: ['Amazon RDS', 'Amazon Redshift'],
      p4: ['Data', 'Data'],
      p9: ['ads'],
    });
  });

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
    const categories: VersionedCategory[] = [unit, business].map((c) => ({ key: c.key, segments: [{ from: '2026-01', category: c }] }));
    const compiled = compileCategories(categories, ['Unit'], COLUMNS)!;
    expect(compiled.keys).toEqual(['BusinessUnit', 'Unit']);
    const business2026 =
      "mapUpdate(imported, if(month >= {cat2:String}, map({cat3:String}, multiIf(1, {cat0:String}, {cat1:String})), CAST(map(), 'Map(String, String)')))";
    // The map so far is written once, a lambda's parameter where the rules read it.
    expect(compiled.sql).toBe(
      `arrayMap(categories_1 -> mapUpdate(categories_1, if(month >= {cat8:String}, map({cat9:String}, ` +
        `multiIf(categories_1[{cat4:String}] IN {cat5:Array(String)}, {cat6:String}, {cat7:String})), CAST(map(), 'Map(String, String)'))), ` +
        `[${business2026}])[1]`,
    );
    expect(compiled.params).toMatchObject({ cat0: 'Payments', cat2: '2026-01', cat3: 'BusinessUnit', cat9: 'Unit' });
    const loop = [
      category('A', [{ inheritCategory: 'B' }]),
      category('B', [{ inheritCategory: 'C' }]),
      category('C', [{ inheritCategory: 'A' }]),
    ];
    expect(evaluationOrder(loop)).toEqual({ cycle: ['A', 'B', 'C', 'A'] });
    expect(evaluationOrder([category('A', [{ inheritCategory: 'A' }])])).toEqual({ cycle: ['A', 'A'] });
  });

  it('computes only the rule-defined categories a question names, and those their rules read', () => {
    const categories: VersionedCategory[] = ['A', 'B', 'C'].map((key) => ({
      key,
      segments: [{ from: '2026-01', category: category(key, [key === 'B' ? { inheritCategory: 'C' } : { value: key }]) }],
    }));
    expect(compileCategories(categories, ['Imported only'], COLUMNS)).toBeUndefined();
    expect(compileCategories(categories, ['A'], COLUMNS)!.keys).toEqual(['A']);
    expect(compileCategories(categories, ['B', 'Imported only'], COLUMNS)!.keys).toEqual(['C', 'B']);
  });

  it('gives each month to the version saved last among those in effect for it; a deletion ends the category', () => {
    const v = (name: string) => category('BU', [{ value: name }]);
    const months = (segments: ReturnType<typeof effectiveSegments>) => segments.map((s) => [s.from, s.category.rules[0].value]);
    expect(months(effectiveSegments([{ effectiveFrom: '2026-01', category: v('one') }]))).toEqual([['2026-01', 'one']]);
    const rewritten = effectiveSegments([
      { effectiveFrom: '2026-01', category: v('one') },
      { effectiveFrom: '2026-06', category: v('two') },
      { effectiveFrom: '2026-03', category: v('three') },
      { effectiveFrom: '2026-09', category: v('four') },
    ]);
    expect(months(rewritten)).toEqual([
      ['2026-01', 'one'],
      ['2026-03', 'three'],
      ['2026-09', 'four'],
    ]);
    expect(effectiveSegments([{ effectiveFrom: '2026-01', category: v('one') }, { effectiveFrom: '2026-11' }])).toEqual([]);
    expect(months(effectiveSegments([{ effectiveFrom: '2026-11' }, { effectiveFrom: '2026-02', category: v('again') }]))).toEqual([
      ['2026-02', 'again'],
    ]);
  });

  it('switches versions by billing month, the export’s map before the first', () => {
    const versions: VersionedCategory[] = [
      {
        key: 'BU',
        segments: [
          { from: '2026-01', category: category('BU', [{ value: 'old' }]) },
          { from: '2026-10', category: category('BU', [{ value: 'new' }]) },
        ],
      },
    ];
    const compiled = compileCategories(versions, ['BU'], COLUMNS)!;
    expect(compiled.sql).toBe(
      "mapUpdate(imported, if(month >= {cat5:String}, map({cat6:String}, multiIf(month >= {cat0:String}, multiIf(1, {cat1:String}, {cat2:String}), multiIf(1, {cat3:String}, {cat4:String}))), CAST(map(), 'Map(String, String)')))",
    );
    expect(compiled.params).toMatchObject({ cat0: '2026-10', cat1: 'new', cat3: 'old', cat5: '2026-01', cat6: 'BU' });
  });
});
