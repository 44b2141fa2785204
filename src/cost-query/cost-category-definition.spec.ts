import { categoryKeyProblems, CostCategoryDefinition, definitionProblems, possibleValues } from './cost-category-definition';

const definition = (overrides: Partial<CostCategoryDefinition> = {}): CostCategoryDefinition => ({
  effectiveFrom: '2026-10',
  defaultValue: 'Unallocated',
  rules: [
    { value: 'Data', when: { inclusions: { services: ['Amazon RDS'] } } },
    { value: 'Payments', when: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } } },
    { value: 'Shared', when: { inclusions: { services: ['AWS Support'] } } },
  ],
  ...overrides,
});

describe('cost category definitions', () => {
  it('take a key of 1 to 256 visible characters, without a space at either end (the API and the CLI alike)', () => {
    expect(categoryKeyProblems('Business Unit')).toEqual([]);
    expect(categoryKeyProblems('')).toEqual(['key: 1 to 256 characters']);
    expect(categoryKeyProblems('x'.repeat(257))).toEqual(['key: 1 to 256 characters']);
    expect(categoryKeyProblems('Team\u200b')).toEqual(['key: contains a control or invisible character']);
    for (const key of [' ', 'Team ', ' Team']) expect(categoryKeyProblems(key)).toEqual(['key: starts or ends with a space']);
    expect(definitionProblems('Team ', definition(), [])).toEqual(['key: starts or ends with a space']);
  });

  it('accepts a definition whose splits name values its rules give, percentages summing to 100', () => {
    const splits: CostCategoryDefinition['splits'] = [
      { source: { value: 'Shared' }, targets: ['Data', 'Payments'], method: 'fixed', percentages: [60, 40] },
      { source: { filters: { inclusions: { services: ['AWS Support'] } } }, targets: ['Data', 'Payments'], method: 'proportional' },
      {
        source: { value: 'Unallocated' },
        targets: ['Data', 'Payments', 'Shared'],
        method: 'fixed',
        percentages: [33.3333333333, 33.3333333333, 33.3333333334],
      },
    ];
    expect(definitionProblems('BusinessUnit', definition({ splits }), [])).toEqual([]);
  });

  it('names each problem by its field', () => {
    const problems = definitionProblems(
      'BusinessUnit',
      definition({
        rules: [{ value: 'Data', inheritTag: 'team' }, {}, { inheritCategory: 'BusinessUnit' }],
        splits: [
          { source: {}, targets: ['Data', 'Data'], method: 'fixed', percentages: [60] },
          { source: { value: 'X' }, targets: ['Nowhere'], method: 'even', percentages: [100] },
          { source: { value: 'X' }, targets: ['A', 'B'], method: 'fixed', percentages: [60, 41] },
        ],
      }),
      [],
    );
    expect(problems).toEqual([
      'rules[0]: exactly one of value, inheritTag, inheritCategory',
      'rules[1]: exactly one of value, inheritTag, inheritCategory',
      'rules[2].inheritCategory: a category cannot inherit itself',
      'splits[0].source: exactly one of value, filters',
      'splits[0].targets: a value named twice',
      'splits[0].percentages: one per target (2), got 1',
      'splits[1].percentages: only with method fixed',
      'splits[2].percentages: must sum to 100, they sum to 101',
      'rules: the categories read each other in a cycle: BusinessUnit → BusinessUnit',
    ]);
  });

  it('refuses a target the rules cannot give, unless a rule inherits values', () => {
    const split = { source: { value: 'Shared' }, targets: ['search'], method: 'even' as const };
    expect(definitionProblems('BU', definition({ splits: [split] }), [])).toEqual([
      'splits[0].targets[0]: "search" is not a value the rules can give',
    ]);
    const inheriting = definition({ rules: [...definition().rules, { inheritTag: 'team' }], splits: [split] });
    expect(definitionProblems('BU', inheriting, [])).toEqual([]);
    expect(possibleValues(definition())).toEqual(new Set(['Data', 'Payments', 'Shared', 'Unallocated']));
  });

  it('names a cycle through the organisation’s other categories', () => {
    const others = [{ key: 'Unit', defaultValue: 'none', rules: [{ inheritCategory: 'BusinessUnit' }] }];
    const reading = definition({ rules: [{ value: 'x', when: { inclusions: { costCategory: 'Unit', costCategoryValues: ['a'] } } }] });
    expect(definitionProblems('BusinessUnit', reading, others)).toEqual([
      'rules: the categories read each other in a cycle: Unit → BusinessUnit → Unit',
    ]);
    expect(definitionProblems('BusinessUnit', definition({ rules: [] }), others)).toContain('rules: at least one rule');
  });
});
