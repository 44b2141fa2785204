import { isAbsolute, normalize } from 'node:path';

/**
 * How a source's exports are laid out, each by its cloud's rule for when a delivery is complete:
 * - `aws-data-exports`: AWS Data Exports (FOCUS 1.0), a manifest per billing period and execution listing its data files;
 * - `azure-exports`: Azure Cost Management exports, a `manifest.json` per run listing its parts and their sizes;
 * - `oci-focus`: OCI's daily FOCUS reports (`YYYY/MM/DD/*.csv.gz`), a month complete once its files settled;
 * - `focus-files`: any folder of FOCUS files, complete once none changed for the settle time.
 */
export const SOURCE_KINDS = ['aws-data-exports', 'azure-exports', 'oci-focus', 'focus-files'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export function isSourceKind(value: unknown): value is SourceKind {
  return typeof value === 'string' && (SOURCE_KINDS as readonly string[]).includes(value);
}

/** Where a source's exports are: a directory of this machine (a share they are synced to). */
export interface SourceLocation {
  scheme: 'file';
  /** Absolute, normalised. */
  path: string;
}

/** Schemes of the issue that this version does not read yet: refused with a clear message rather than stored. */
const NOT_YET = ['s3:', 'azure:', 'gs:', 'oci:'];

/** The location a `file:///…` URL names, or the reason it is refused (a message naming the field). */
export function parseSourceLocation(url: string): SourceLocation | { problem: string } {
  if (url.length > 2048) return { problem: 'url: at most 2048 characters' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: 'url: not a URL; use file:///absolute/path/of/the/exports' };
  }
  if (NOT_YET.includes(parsed.protocol)) {
    return { problem: `url: ${parsed.protocol}// sources are not supported yet; sync the exports to a directory and use file:///…` };
  }
  if (parsed.protocol !== 'file:') return { problem: 'url: use file:///absolute/path/of/the/exports' };
  if (parsed.host !== '' || parsed.search !== '' || parsed.hash !== '') {
    return { problem: 'url: a file URL has no host, query or fragment (file:///absolute/path)' };
  }
  const path = decodeURIComponent(parsed.pathname);
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (!isAbsolute(path) || /[\u0000-\u001f\u007f]/.test(path))
    return { problem: 'url: the path must be absolute, without control characters' };
  const normal = normalize(path).replace(/\/+$/, '') || '/';
  return { scheme: 'file', path: normal };
}
