import { LeastRecentlyUsed } from './least-recently-used';

describe('LeastRecentlyUsed', () => {
  it('forgets the least recently read or written key past its capacity', () => {
    const remembered = new LeastRecentlyUsed<number>(2);
    remembered.set('a', 1);
    remembered.set('b', 2);
    expect(remembered.get('a')).toBe(1); // a is now the most recent
    remembered.set('c', 3);
    expect([remembered.get('a'), remembered.get('b'), remembered.get('c'), remembered.size]).toEqual([1, undefined, 3, 2]);
  });

  it('forgets a key only while it holds the value given', () => {
    const remembered = new LeastRecentlyUsed<{ version: number }>(10);
    const old = { version: 1 };
    remembered.set('org', old);
    const fresh = { version: 2 };
    remembered.set('org', fresh);
    remembered.forget('org', old);
    expect(remembered.get('org')).toBe(fresh);
    remembered.forget('org', fresh);
    expect(remembered.get('org')).toBeUndefined();
  });
});
