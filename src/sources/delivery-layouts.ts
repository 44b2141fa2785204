import { createHash } from 'node:crypto';
import { ListedObject, LISTING_SLICE, yieldToEventLoop } from './source-listing';
import type { SourceKind } from '../store/repositories/sources.repository';

/**
 * A delivery: the files one export run wrote, imported together or not at all. `scope` is what it replaces (a
 * billing period, an Azure export's date range, an OCI month, a whole folder): of two deliveries of one scope the
 * one with the greater `order` is the newer.
 */
export interface Delivery {
  id: string;
  scope: string;
  order: string;
  parts: ListedObject[];
  /** Parts its manifest names that are absent, or present with another size, each in words. */
  missing: string[];
  /** When it arrived: its manifest's last change, or its newest part's. */
  deliveredMs: number;
  /** Not readable as its layout says (a manifest that is not JSON): reported, never imported. */
  problem?: string;
  fingerprint: string;
}

export interface LayoutRules {
  nowMs: number;
  /** Manifest-free layouts: complete once no file of the delivery changed for this long. */
  settleMs: number;
}

/** FOCUS data files (plain or gzip CSV, Parquet): everything else of a listing (manifests, checksums) is not data. */
const DATA_FILE = /\.(csv|csv\.gz|parquet)$/i;
const AWS_MANIFEST = /(^|\/)metadata\/BILLING_PERIOD=(\d{4}-\d{2})\/(?:[^/]+\/)?[^/]+-Manifest\.json$/;
const AZURE_MANIFEST = /(^|\/)(\d{8}-\d{8})\/([^/]+)\/manifest\.json$/;
/** Business metrics' values: CSV files, plain or gzip. */
const METRIC_FILE = /\.csv(\.gz)?$/i;
const OCI_DAY_FILE = /(^|\/)(\d{4})\/(\d{2})\/\d{2}\/[^/]+\.csv(\.gz)?$/i;

/** The manifests a layout reads (the only objects read while checking a source). */
export function manifestKeys(kind: SourceKind, listing: ListedObject[]): string[] {
  const pattern = kind === 'aws-data-exports' ? AWS_MANIFEST : kind === 'azure-exports' ? AZURE_MANIFEST : undefined;
  return pattern ? listing.filter((o) => pattern.test(o.key)).map((o) => o.key) : [];
}

/**
 * The deliveries of a listing by its layout's rule; `manifests` holds the text of each of manifestKeys. Linear in the
 * listing and the manifests' lists (a lookup per named part), and yielding between slices: a listing of 100,000
 * objects or a manifest naming 50,000 parts never holds the event loop for long.
 */
export async function findDeliveries(
  kind: SourceKind,
  listing: ListedObject[],
  manifests: Map<string, string>,
  rules: LayoutRules,
): Promise<Delivery[]> {
  const index = new ListingIndex(listing);
  const deliveries: Delivery[] = [];
  switch (kind) {
    case 'aws-data-exports':
      for (const key of manifestKeys(kind, listing)) deliveries.push(await awsDelivery(key, index, manifests.get(key)));
      return deliveries;
    case 'azure-exports':
      for (const key of manifestKeys(kind, listing)) deliveries.push(await azureDelivery(key, index, manifests.get(key)));
      return deliveries;
    case 'oci-focus':
      return settledGroups(listing, rules, (key) => {
        const match = OCI_DAY_FILE.exec(key);
        return match ? `${match[2]}-${match[3]}` : undefined;
      });
    case 'focus-files':
      return settledGroups(listing, rules, (key) => (DATA_FILE.test(key) ? '*' : undefined));
    case 'metrics-files':
      return settledGroups(listing, rules, (key) => (METRIC_FILE.test(key) ? metricOfFile(key) : undefined));
  }
}

/**
 * The business metric a file of a `metrics-files` source holds values of: its path's first segment up to the first
 * dot — `orders.csv`, `orders.2026-11.csv` and `orders/2026-11.csv` all hold `orders`. Each metric is a delivery.
 */
export function metricOfFile(key: string): string {
  return key.split('/')[0].split('.')[0];
}

/** A listing's objects by key, and a manifest's path matched to the object whose key is its longest suffix. */
class ListingIndex {
  private readonly byKey: Map<string, ListedObject>;

  constructor(listing: ListedObject[]) {
    this.byKey = new Map(listing.map((object) => [object.key, object]));
  }

  get(key: string): ListedObject | undefined {
    return this.byKey.get(key);
  }

  /** `path` itself, else the longest `…/<key>` it ends with: a bucket synced to a share keeps its keys' tails. */
  match(path: string): ListedObject | undefined {
    const exact = this.byKey.get(path);
    if (exact) return exact;
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      const found = this.byKey.get(path.slice(slash + 1));
      if (found) return found;
    }
    return undefined;
  }
}

/** Whether a delivery may be imported: every named part present (and, for manifest-free layouts, settled). */
export function isComplete(delivery: Delivery): boolean {
  return delivery.problem === undefined && delivery.missing.length === 0 && delivery.parts.length > 0;
}

/**
 * AWS Data Exports: `<export>/metadata/BILLING_PERIOD=YYYY-MM/[<execution>/]<export>-Manifest.json`, written after
 * every data file of the delivery landed, listing them as `dataFiles` (s3:// URIs; matched to the listing by path
 * suffix, so a bucket synced to a share matches). Newer: its `exportTime`, else the manifest's last change.
 */
async function awsDelivery(key: string, index: ListingIndex, text: string | undefined): Promise<Delivery> {
  const period = AWS_MANIFEST.exec(key)![2];
  const manifest = parseJson(text);
  const base = { id: key, scope: `BILLING_PERIOD=${period}`, deliveredMs: index.get(key)?.modifiedMs ?? 0 };
  const files = manifest?.dataFiles;
  if (!Array.isArray(files) || files.some((file) => typeof file !== 'string')) {
    return {
      ...base,
      order: '',
      parts: [],
      missing: [],
      problem: `${key}: not an AWS Data Exports manifest (no dataFiles list)`,
      fingerprint: '',
    };
  }
  const order = typeof manifest?.exportTime === 'string' ? manifest.exportTime : new Date(base.deliveredMs).toISOString();
  const matched = await matchParts(index, files as string[], (uri) => ({ path: uri.replace(/^s3:\/\/[^/]+\//, '') }));
  return manifestDelivery({ ...base, order }, text ?? '', matched);
}

/**
 * Azure Cost Management exports: `<export>/<YYYYMMDD-YYYYMMDD>/<run id>/manifest.json` listing its parts as `blobs`
 * (`blobName`, `byteCount`); a part of another size is not there yet. Newer: `runInfo.submittedTime`.
 */
async function azureDelivery(key: string, index: ListingIndex, text: string | undefined): Promise<Delivery> {
  const match = AZURE_MANIFEST.exec(key)!;
  const manifest = parseJson(text);
  const exportFolder = key.slice(0, match.index + match[1].length);
  const base = { id: key, scope: `${exportFolder}${match[2]}`, deliveredMs: index.get(key)?.modifiedMs ?? 0 };
  const blobs = manifest?.blobs;
  if (!Array.isArray(blobs) || blobs.some((b) => typeof b?.blobName !== 'string')) {
    return { ...base, order: '', parts: [], missing: [], problem: `${key}: not an Azure export manifest (no blobs list)`, fingerprint: '' };
  }
  const submitted = (manifest?.runInfo as Record<string, unknown> | undefined)?.submittedTime;
  const order = typeof submitted === 'string' ? submitted : new Date(base.deliveredMs).toISOString();
  const matched = await matchParts(index, blobs as Array<{ blobName: string; byteCount?: unknown }>, (b) => ({
    path: b.blobName,
    size: typeof b.byteCount === 'number' ? b.byteCount : undefined,
  }));
  return manifestDelivery({ ...base, order }, text ?? '', matched);
}

/** Fingerprinted by the manifest and its parts' sizes and changes: a part rewritten in place is a new delivery. */
function manifestDelivery(
  base: Pick<Delivery, 'id' | 'scope' | 'order' | 'deliveredMs'>,
  manifest: string,
  matched: Pick<Delivery, 'parts' | 'missing'>,
): Delivery {
  const parts = matched.parts.map((p) => `${p.key}\u0000${p.size}\u0000${p.modifiedMs}`).join('\n');
  return { ...base, ...matched, fingerprint: fingerprint(base.id, `${manifest}\u0000${parts}`) };
}

/**
 * The listing's objects a manifest names (by path suffix), and those it names that are absent or of another size.
 * Each entry is read as `{ path, size }` inside the sliced loop: a manifest may name 50,000 parts.
 */
async function matchParts<Entry>(
  index: ListingIndex,
  entries: readonly Entry[],
  named: (entry: Entry) => { path: string; size?: number },
): Promise<Pick<Delivery, 'parts' | 'missing'>> {
  const parts: ListedObject[] = [];
  const missing: string[] = [];
  for (const [i, entry] of entries.entries()) {
    if (i > 0 && i % LISTING_SLICE === 0) await yieldToEventLoop();
    const { path, size } = named(entry);
    const found = index.match(path);
    if (!found) missing.push(`${path} is missing`);
    else if (size !== undefined && found.size !== size) missing.push(`${found.key} has ${found.size} of ${size} bytes`);
    else parts.push(found);
  }
  return { parts, missing };
}

/**
 * Manifest-free layouts: the data files grouped into deliveries, each complete once none changed for the settle time.
 * A store's listing is in key order (keyOrder), so each group is, as its fingerprint needs.
 */
async function settledGroups(
  listing: ListedObject[],
  rules: LayoutRules,
  scopeOf: (key: string) => string | undefined,
): Promise<Delivery[]> {
  const groups = new Map<string, ListedObject[]>();
  for (const [i, object] of listing.entries()) {
    if (i > 0 && i % LISTING_SLICE === 0) await yieldToEventLoop();
    const scope = DATA_FILE.test(object.key) ? scopeOf(object.key) : undefined;
    if (scope === undefined) continue;
    const group = groups.get(scope);
    if (group) group.push(object);
    else groups.set(scope, [object]);
  }
  return [...groups].map(([scope, parts]) => {
    const newest = parts.reduce((latest, part) => Math.max(latest, part.modifiedMs), 0);
    const settling = rules.nowMs - newest < rules.settleMs;
    return {
      id: scope === '*' ? 'all files' : scope,
      scope,
      order: new Date(newest).toISOString(),
      parts,
      missing: settling ? [settlingText(rules.nowMs - newest, rules.settleMs)] : [],
      deliveredMs: newest,
      fingerprint: fingerprint(scope, parts.map((p) => `${p.key}\u0000${p.size}\u0000${p.modifiedMs}`).join('\n')),
    };
  });
}

/** Why a manifest-free delivery is not complete yet: its newest file changed too recently (or, by its clock, later). */
function settlingText(ageMs: number, settleMs: number): string {
  const changed = ageMs < 0 ? 'changed after now (a clock ahead of this one?)' : `changed ${Math.round(ageMs / 1000)} s ago`;
  return `its newest file ${changed}, settling for ${Math.round(settleMs / 1000)} s`;
}

function parseJson(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function fingerprint(id: string, content: string): string {
  return createHash('sha256').update(id).update('\u0000').update(content).digest('hex');
}
