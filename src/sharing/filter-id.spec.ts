import { FILTER_ID_EXAMPLE, generateFilterId, isFilterId } from './filter-id';

describe('shared filter IDs', () => {
  it('are sf_ + 24 base64url characters (144 random bits)', () => {
    const id = generateFilterId();
    expect(id).toMatch(/^sf_[A-Za-z0-9_-]{24}$/);
    expect(Buffer.from(id.slice(3), 'base64url')).toHaveLength(18);
    expect(isFilterId(id)).toBe(true);
    expect(isFilterId(FILTER_ID_EXAMPLE)).toBe(true);
  });

  it('are distinct', () => {
    const ids = new Set(Array.from({ length: 5000 }, generateFilterId));
    expect(ids.size).toBe(5000);
  });

  it('rejects other shapes', () => {
    const id = generateFilterId();
    for (const bad of [id.slice(0, -1), `${id}A`, id.replace('sf_', 'sg_'), `sf_${'+'.repeat(24)}`, '', 'sf_', '1']) {
      expect(isFilterId(bad)).toBe(false);
    }
  });
});
