import { canonicalDataScope, describeDataScope, organizationScopeOf } from './data-scope';

const ORG = '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11';

describe('canonicalDataScope', () => {
  it('spells one scope one way: field-table order, values unique and sorted, empty and unset fields left out', () => {
    const a = canonicalDataScope({
      inclusions: { services: ['b', 'a', 'b'], accountIds: [], resourceTag: 'team', resourceTagValues: ['y', 'x'] },
      exclusions: { regions: [] },
    });
    const b = canonicalDataScope({
      inclusions: { resourceTagValues: ['x', 'y'], resourceTag: 'team', services: ['a', 'b'] },
      exclusions: {},
    });
    expect(a).toBe('{"inclusions":{"services":["a","b"],"resourceTag":"team","resourceTagValues":["x","y"]}}');
    expect(b).toBe(a);
  });

  it('is empty for a scope that restricts nothing, and drops values without their key', () => {
    expect(canonicalDataScope({})).toBe('');
    expect(canonicalDataScope({ inclusions: { services: [] }, exclusions: {} })).toBe('');
    expect(canonicalDataScope({ inclusions: { costCategoryValues: ['x'] } })).toBe('');
    expect(canonicalDataScope({ exclusions: { costCategory: 'Unit' } })).toBe('{"exclusions":{"costCategory":"Unit"}}');
  });
});

describe('organizationScopeOf', () => {
  it('gives the organisation alone to a key without a data scope, and its parsed scope to one with', () => {
    expect(organizationScopeOf({ organizationId: ORG })).toEqual({ organizationId: ORG });
    expect(organizationScopeOf({ organizationId: ORG, dataScope: '' })).toEqual({ organizationId: ORG });
    const scope = '{"inclusions":{"accountIds":["1"]}}';
    expect(organizationScopeOf({ organizationId: ORG, dataScope: scope })).toEqual({
      organizationId: ORG,
      dataScope: { inclusions: { accountIds: ['1'] } },
    });
  });
});

describe('describeDataScope', () => {
  it('says the scope in words', () => {
    expect(describeDataScope(undefined)).toBe('the whole organisation');
    expect(
      describeDataScope({
        inclusions: { accountIds: ['1', '2'], costCategory: 'Unit', costCategoryValues: ['Retail'] },
        exclusions: { services: ['Support'], resourceTag: 'temp' },
      }),
    ).toBe('accountIds in (1, 2); cost category Unit in (Retail); not services in (Support); not tag temp present');
  });
});
