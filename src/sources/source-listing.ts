/** One object of a source's listing: its key relative to the source's root ('/'-separated), size and last change. */
export interface ListedObject {
  key: string;
  size: number;
  modifiedMs: number;
  /** The store's version tag of the object (S3 and Azure ETags), where it has one. */
  etag?: string;
}

/** An object of a source that is never read, and why (a hostile key, a link, a part too large): named in the check. */
export interface RefusedObject {
  key: string;
  reason: string;
}

/** What one listing of a source found: the objects a check may read, and those it refuses to. */
export interface SourceListing {
  objects: ListedObject[];
  refused: RefusedObject[];
}

/** A listing longer than INGEST_MAX_LISTED_OBJECTS: the check stops listing and is refused, naming the cap. */
export class ListingTooLong extends Error {
  constructor(cap: number) {
    super(`the source lists more than ${cap.toLocaleString('en-US')} objects (INGEST_MAX_LISTED_OBJECTS); narrow its folder or prefix`);
  }
}

/**
 * Why an object key cannot name a part, or undefined: keys are data, never paths, but a key that could climb out of
 * a folder, or that means another object on another store, is refused rather than read under a name of our choosing.
 */
export function objectKeyProblem(key: string): string | undefined {
  if (key.includes('\u0000')) return 'a key with a NUL character';
  if (key.includes('\\')) return 'a key with a backslash';
  if (key.startsWith('/')) return 'an absolute key';
  const segments = key.split('/');
  if (segments.some((segment) => segment === '..')) return "a key with a '..' segment";
  if (segments.some((segment) => segment === '.')) return "a key with a '.' segment";
  if (segments.some((segment) => segment === '')) return 'a key with an empty segment';
  return undefined;
}

/** Names, for a check's message, at most `shown` of the refused objects, then how many more. */
export function refusedObjectsText(refused: readonly RefusedObject[], shown = 10): string {
  const named = refused.slice(0, shown).map((object) => `${JSON.stringify(object.key)} (${object.reason})`);
  const more = refused.length > shown ? `; and ${refused.length - shown} more` : '';
  return `objects refused, not read: ${named.join('; ')}${more}`;
}

/** Key order of every listing (a delivery's fingerprint lists its parts in it). */
export const keyOrder = (a: string, b: string): number => a.localeCompare(b);

/** Lets the event loop serve other work (a health check, a request) between slices of a long loop. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Objects handled between two yields in a check's loops: a slice takes well under a millisecond. */
export const LISTING_SLICE = 1_000;

/**
 * `items` sorted as a stable Array#sort would sort them, in slices: runs of LISTING_SLICE sorted at once, then merged,
 * the event loop served between slices. Sorting 30,000 keys at once held it for 150-500 ms.
 */
export async function sortInSlices<T>(items: readonly T[], compare: (a: T, b: T) => number): Promise<T[]> {
  let from = [...items];
  for (let start = 0; start < from.length; start += LISTING_SLICE) {
    const run = from.slice(start, start + LISTING_SLICE).sort(compare);
    for (const [offset, item] of run.entries()) from[start + offset] = item;
    await yieldToEventLoop();
  }
  let to = new Array<T>(from.length);
  for (let width = LISTING_SLICE; width < from.length; width *= 2) {
    let merged = 0;
    for (let left = 0; left < from.length; left += 2 * width) {
      const middle = Math.min(left + width, from.length);
      const right = Math.min(left + 2 * width, from.length);
      let [i, j, k] = [left, middle, left];
      while (i < middle && j < right) {
        to[k++] = compare(from[j], from[i]) < 0 ? from[j++] : from[i++];
        if (++merged % LISTING_SLICE === 0) await yieldToEventLoop();
      }
      while (i < middle) to[k++] = from[i++];
      while (j < right) to[k++] = from[j++];
    }
    [from, to] = [to, from];
  }
  return from;
}
