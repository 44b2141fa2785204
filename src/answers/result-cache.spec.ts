import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SerializedAnswer } from './serialized-answer';
import { canonicalJson, ENTRY_OVERHEAD_BYTES, ResultCache, resultCacheKey } from './result-cache';

const b = (text: string) => new SerializedAnswer(Buffer.from(text));

describe('ResultCache', () => {
  let now = 0;
  const clock = () => now;

  beforeEach(() => (now = 1_000));

  it('returns what was stored until it expires', () => {
    const cache = new ResultCache(100_000, 5000, clock);
    expect(cache.set('k', b('{"a":1}'))).toBe(true);
    expect(cache.get('k')?.bytes.toString()).toBe('{"a":1}');
    now += 4999;
    expect(cache.get('k')?.bytes.toString()).toBe('{"a":1}');
    now += 1;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('keeps an answer with its media type and headers', () => {
    const cache = new ResultCache(100_000, 5000, clock);
    const csv = new SerializedAnswer(Buffer.from('"a"\r\n1\r\n'), 'text/csv', { 'X-Data-Through': '2026-11-22' });
    cache.set('csv', csv);
    expect(cache.get('csv')).toEqual(csv);
  });

  it('evicts the least recently used entries to stay within its byte budget', () => {
    const entry = 9 + ENTRY_OVERHEAD_BYTES; // 9-byte bodies
    const cache = new ResultCache(10 * entry, 60_000, clock);
    for (const key of 'abcdefghij') cache.set(key, b('123456789'));
    expect(cache.size).toEqual({ entries: 10, bytes: 10 * entry });
    cache.get('a'); // a is now the most recently used
    cache.set('k', b('123456789'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.bytes.toString()).toBe('123456789');
    expect(cache.get('k')?.bytes.toString()).toBe('123456789');
    expect(cache.size.bytes).toBeLessThanOrEqual(10 * entry);
  });

  it('replaces an entry in place and refuses an answer bigger than an eighth of the budget', () => {
    const cache = new ResultCache(8 * (100 + ENTRY_OVERHEAD_BYTES), 60_000, clock);
    cache.set('k', b('x'.repeat(50)));
    cache.set('k', b('y'.repeat(60)));
    expect(cache.size).toEqual({ entries: 1, bytes: 60 + ENTRY_OVERHEAD_BYTES });
    expect(cache.set('big', b('z'.repeat(101)))).toBe(false);
    expect(cache.get('big')).toBeUndefined();
  });

  // A full 64 MB cache of small answers used to take 310–486 MB: ~80 bytes counted per entry that cost 300–530.
  it('holds its budget in real memory when full of small answers', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const used = () => {
      gc();
      gc();
      const memory = process.memoryUsage();
      return memory.heapUsed + memory.external;
    };
    const budget = 16 * 1024 * 1024;
    const cache = new ResultCache(budget, 60_000, clock);
    const before = used();
    for (let i = 0; cache.size.entries < 1_000_000 && i < 200_000; i++) {
      const key = createHash('sha256').update(String(i)).digest('base64url');
      // Small answers as serializeJson makes them: slices of Node's shared 8 KiB pool, between other allocations.
      const unrelated = Buffer.from(`short-lived ${i}`);
      const body = Buffer.from(JSON.stringify({ success: true, data: { values: [`value-${i}`] } }));
      // With the freshness headers every data answer carries.
      cache.set(
        key,
        new SerializedAnswer(body, 'application/json', {
          'X-Data-Through': '2026-11-22',
          'X-Data-Imported-At': `2026-11-23T06:00:${i % 60}Z`,
        }),
      );
      void unrelated;
    }
    const grown = used() - before;
    console.log(`answer cache: ${cache.size.entries} entries, counted ${cache.size.bytes} bytes, heap + external grew ${grown} bytes`);
    expect(cache.size.bytes).toBeLessThanOrEqual(budget);
    expect(grown).toBeLessThanOrEqual(budget * 1.1);
  });

  it('is off with a zero budget', () => {
    const cache = new ResultCache(0, 60_000, clock);
    expect(cache.enabled).toBe(false);
    expect(cache.set('k', b('1'))).toBe(false);
    expect(cache.get('k')).toBeUndefined();
  });
});

describe('resultCacheKey', () => {
  const parts = {
    route: 'POST /v1/cost-insights/data',
    organizationId: 'org-a',
    dataScope: '',
    today: '2026-11-21',
    dataVersion: 'v1',
    body: { a: 1, b: [2, 1] },
  };

  it('is the same for bodies that differ only in key order', () => {
    expect(canonicalJson({ b: { y: 1, x: [{ q: 1, p: 2 }] }, a: null })).toBe('{"a":null,"b":{"x":[{"p":2,"q":1}],"y":1}}');
    expect(resultCacheKey({ ...parts, body: { b: [2, 1], a: 1 } })).toBe(resultCacheKey(parts));
  });

  it('differs by organisation, data scope, route, date, data version, array order and value', () => {
    const key = resultCacheKey(parts);
    for (const change of [
      { organizationId: 'org-b' },
      { dataScope: '{"inclusions":{"services":["Amazon EC2"]}}' },
      { route: 'POST /v1/cost-insights/compare' },
      { today: '2026-11-22' },
      { dataVersion: 'v2' },
      { body: { a: 1, b: [1, 2] } },
      { body: { a: '1', b: [2, 1] } },
    ]) {
      expect(resultCacheKey({ ...parts, ...change })).not.toBe(key);
    }
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/); // a SHA-256 digest: no request text is kept
  });
});
