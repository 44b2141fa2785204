import type { ListedObject } from './source-listing';
import { ManifestCache } from './manifest-cache';

const manifest = (key: string, size: number, modifiedMs: number, etag?: string): ListedObject => ({ key, size, modifiedMs, etag });

describe('ManifestCache', () => {
  function reader(texts: Record<string, string>) {
    const reads: string[] = [];
    return { reads, read: (key: string) => (reads.push(key), Promise.resolve(texts[key])) };
  }

  it('reads each manifest once while the listing shows it unchanged', async () => {
    const cache = new ManifestCache();
    const { reads, read } = reader({ 'a/manifest.json': '{"a":1}', 'b/manifest.json': '{"b":1}' });
    const listing = [
      manifest('a/manifest.json', 7, 1000, '"e1"'),
      manifest('b/manifest.json', 7, 2000, '"e2"'),
      manifest('a/part.csv', 99, 1),
    ];
    const keys = ['a/manifest.json', 'b/manifest.json'];
    expect(await cache.texts('s1', listing, keys, read)).toEqual(
      new Map([
        ['a/manifest.json', '{"a":1}'],
        ['b/manifest.json', '{"b":1}'],
      ]),
    );
    expect(await cache.texts('s1', listing, keys, read)).toEqual(
      new Map([
        ['a/manifest.json', '{"a":1}'],
        ['b/manifest.json', '{"b":1}'],
      ]),
    );
    expect(reads).toEqual(['a/manifest.json', 'b/manifest.json']);
  });

  it.each([
    ['size', manifest('m.json', 8, 1000, '"e1"')],
    ['last change', manifest('m.json', 7, 1001, '"e1"')],
    ['ETag', manifest('m.json', 7, 1000, '"e2"')],
  ])('reads a manifest again when its %s changed', async (_what, changed) => {
    const cache = new ManifestCache();
    const { reads, read } = reader({ 'm.json': '{}' });
    await cache.texts('s1', [manifest('m.json', 7, 1000, '"e1"')], ['m.json'], read);
    await cache.texts('s1', [changed], ['m.json'], read);
    expect(reads).toEqual(['m.json', 'm.json']);
  });

  it('keeps sources apart and forgets a manifest that left the listing', async () => {
    const cache = new ManifestCache();
    const { reads, read } = reader({ 'm.json': '{}' });
    const listing = [manifest('m.json', 2, 5)];
    await cache.texts('s1', listing, ['m.json'], read);
    await cache.texts('s2', listing, ['m.json'], read);
    await cache.texts('s1', [], [], read);
    await cache.texts('s1', listing, ['m.json'], read);
    expect(reads).toEqual(['m.json', 'm.json', 'm.json']);
  });
});
