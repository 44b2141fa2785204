import type { ListedObject } from './source-listing';

interface CachedManifest {
  version: string;
  text: string;
}

/** Sources whose manifests are remembered at once (the least recently checked is forgotten first). */
const REMEMBERED_SOURCES = 1_000;

/**
 * The text of each source's manifests, read again only when the listing shows a manifest changed (its size, last
 * change or ETag): a check of a source with nothing new reads no object. Per process (the worker's); a restarted
 * worker reads each manifest once.
 */
export class ManifestCache {
  private readonly bySource = new Map<string, Map<string, CachedManifest>>();

  /** The text of every manifest `keys` names; `read` fetches one that is new or changed. */
  async texts(
    sourceId: string,
    listing: readonly ListedObject[],
    keys: readonly string[],
    read: (key: string) => Promise<string>,
  ): Promise<Map<string, string>> {
    const known = this.bySource.get(sourceId);
    const objects = new Map(listing.map((object) => [object.key, object]));
    const current = new Map<string, CachedManifest>();
    for (const key of keys) {
      const object = objects.get(key);
      const version = object ? versionOf(object) : '';
      const cached = known?.get(key);
      current.set(key, cached && cached.version === version ? cached : { version, text: await read(key) });
    }
    // Only the manifests of this listing are kept: one removed from the source is forgotten.
    this.bySource.delete(sourceId);
    this.bySource.set(sourceId, current);
    if (this.bySource.size > REMEMBERED_SOURCES) this.bySource.delete(this.bySource.keys().next().value as string);
    return new Map([...current].map(([key, manifest]) => [key, manifest.text]));
  }
}

function versionOf(object: ListedObject): string {
  return `${object.size}\u0000${object.modifiedMs}\u0000${object.etag ?? ''}`;
}
