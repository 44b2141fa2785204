import { objectKeyProblem, refusedObjectsText, sortInSlices } from './source-listing';

describe('objectKeyProblem', () => {
  it.each([
    ['focus/data/BILLING_PERIOD=2026-10/part-1.csv', undefined],
    ['a..b/c.csv', undefined],
    ['.hidden/c.csv', undefined],
    ['p/../../etc/cron.d/x.csv', "a key with a '..' segment"],
    ['..', "a key with a '..' segment"],
    ['p/./a.csv', "a key with a '.' segment"],
    ['p//a.csv', 'a key with an empty segment'],
    ['p/', 'a key with an empty segment'],
    ['', 'a key with an empty segment'],
    ['/etc/x.csv', 'an absolute key'],
    ['p\\..\\x.csv', 'a key with a backslash'],
    ['p/a\u0000.csv', 'a key with a NUL character'],
  ])('%j: %s', (key, problem) => {
    expect(objectKeyProblem(key)).toBe(problem);
  });
});

describe('refusedObjectsText', () => {
  it('names at most ten objects, then how many more', () => {
    const refused = Array.from({ length: 12 }, (_, i) => ({ key: `k${i}`, reason: 'r' }));
    const text = refusedObjectsText(refused);
    expect(text).toMatch(/^objects refused, not read: "k0" \(r\); .*"k9" \(r\); and 2 more$/);
    expect(text).not.toContain('"k10"');
  });
});

describe('sortInSlices', () => {
  it('sorts as a stable Array#sort with the same comparison, across many slices', async () => {
    const items = Array.from({ length: 5_321 }, (_, i) => ({ key: `k-${(i * 7919) % 997}`, at: i }));
    const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
    expect(await sortInSlices(items, byKey)).toEqual([...items].sort(byKey));
    expect(await sortInSlices([], byKey)).toEqual([]);
  });
});
