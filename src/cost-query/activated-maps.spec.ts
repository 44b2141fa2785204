import { SqlParameters } from './sql-parameters';
import { mapColumn, mapKeysNamed, scopeReadingActivatedMaps } from './activated-maps';
import { parseDimension, DimensionRef } from './dimension-registry';
import { buildCostDataQuery, CostDataQuery } from './cost-data.query';
import type { Filters, OrganizationScope } from './filters.types';

const ORG = '00000000-0000-4000-8000-000000000001';
const ACTIVE = { tag: ['team', 'env'], costCategory: ['Business Unit'] };
const dims = (...names: string[]) => names.map((name) => parseDimension(name) as DimensionRef);

describe('activated maps: which Map columns a question reads', () => {
  it('names every tag and cost-category key of the filters, the grouping and the data scope', () => {
    const scope: OrganizationScope = { organizationId: ORG, dataScope: { exclusions: { costCategory: 'Business Unit' } } };
    const filters: Filters = { inclusions: { resourceTag: 'env', resourceTagValues: ['prod'] }, exclusions: { resourceTag: 'build' } };
    expect(mapKeysNamed(scope, filters, dims('tag:team', 'service'))).toEqual([
      { kind: 'tag', key: 'env' },
      { kind: 'tag', key: 'build' },
      { kind: 'costCategory', key: 'Business Unit' },
      { kind: 'tag', key: 'team' },
    ]);
  });

  it('reads the activated columns only when it names a key and every key it names is active', () => {
    const scope: OrganizationScope = { organizationId: ORG };
    const reads = (filters: Filters, dimensions: DimensionRef[], base = scope) =>
      scopeReadingActivatedMaps(base, ACTIVE, filters, dimensions).readsActivatedMaps === true;
    expect(reads({}, dims('tag:team'))).toBe(true);
    expect(reads({ inclusions: { costCategory: 'Business Unit' } }, dims('tag:env', 'region'))).toBe(true);
    expect(reads({}, dims('service'))).toBe(false); // no key named: the dimension projections answer it
    expect(reads({}, dims('tag:Team'))).toBe(false); // keys are case-sensitive
    expect(reads({ inclusions: { resourceTag: 'build' } }, dims('tag:team'))).toBe(false);
    expect(reads({}, dims('tag:team'), { organizationId: ORG, dataScope: { inclusions: { resourceTag: 'owner' } } })).toBe(false);
    expect(reads({}, dims('costCategory:team'))).toBe(false); // a tag key is not a cost-category key
  });

  it('leaves the scope it was given as it was', () => {
    const scope: OrganizationScope = { organizationId: ORG };
    const read = scopeReadingActivatedMaps(scope, ACTIVE, {}, dims('tag:team'));
    expect(read).toEqual({ organizationId: ORG, readsActivatedMaps: true });
    expect(scope).toEqual({ organizationId: ORG });
    expect(scopeReadingActivatedMaps(scope, ACTIVE, {}, dims('tag:build'))).toBe(scope);
  });

  it('writes every map reference of a statement to one column per map', () => {
    const question = (scope: OrganizationScope): CostDataQuery => ({
      scope,
      filters: { inclusions: { resourceTag: 'env', resourceTagValues: ['prod'], costCategory: 'Business Unit' } },
      dateGrouping: 'daily',
      dimensions: dims('tag:team'),
      multiDimension: false,
      today: '2026-11-26',
      defaultWindowDays: 30,
    });
    const activated = buildCostDataQuery('costs', question({ organizationId: ORG, readsActivatedMaps: true }), 100).sql;
    expect(activated).toContain('activated_resource_tags[');
    expect(activated).toContain('mapContains(activated_cost_categories,');
    expect(activated).not.toMatch(/(?<!activated_)\b(resource_tags|cost_categories)\b/);
    const full = buildCostDataQuery('costs', question({ organizationId: ORG }), 100).sql;
    expect(full).not.toContain('activated_');
    expect(mapColumn('costCategory', undefined, new SqlParameters())).toBe('cost_categories');
    expect(mapColumn('tag', { readsActivatedMaps: true }, new SqlParameters())).toBe('activated_resource_tags');
  });
});
