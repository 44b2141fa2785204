import { groupedBy } from './grouped-by';

describe('groupedBy', () => {
  it('groups items by key, each group and the keys in the order they came', () => {
    const groups = groupedBy(['b1', 'a1', 'b2', 'a2', 'c1'], (item) => item[0]);
    expect([...groups.entries()]).toEqual([
      ['b', ['b1', 'b2']],
      ['a', ['a1', 'a2']],
      ['c', ['c1']],
    ]);
    expect(groupedBy([], String).size).toBe(0);
  });
});
