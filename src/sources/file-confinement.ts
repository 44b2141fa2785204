import { promises as fs } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';

/** Whether `path` is `folder` or lies inside it (both absolute and normalised, or both real paths). */
export function isInsideFolder(path: string, folder: string): boolean {
  const within = relative(folder, path);
  return within === '' || (within !== '..' && !within.startsWith(`..${sep}`) && !isAbsolute(within));
}

/** Where an organisation's file exports are: a folder of its own under INGEST_FILE_ROOT, named by its id. */
export function organizationFolder(fileRoot: string, organizationId: string): string {
  return join(normalize(fileRoot), organizationId);
}

/**
 * The folder a file source must stay inside at every read. Under INGEST_FILE_ROOT, its organisation's folder —
 * whoever added it, so a folder of the root is never another organisation's; outside the root (only the operator's
 * CLI adds such a source), the source's own folder.
 */
export function confiningFolder(path: string, organizationId: string, fileRoot: string): string {
  return isUnderRoot(path, fileRoot) ? organizationFolder(fileRoot, organizationId) : path;
}

/** Whether a path is INGEST_FILE_ROOT or lies in it (as written: the tenants' area). */
export function isUnderRoot(path: string, fileRoot: string): boolean {
  return fileRoot !== '' && isInsideFolder(path, normalize(fileRoot));
}

/** A folder that resolves outside the folder it must stay in (said the same whether or not it exists). */
export class OutsideFolder extends Error {}

/**
 * The real path of `path`, which must resolve inside `confinement` (itself resolved). A path that does not exist is
 * judged by where its links lead, as far as they go, so a link to a missing place outside is refused as one to an
 * existing place is: whether something exists outside is never told apart.
 */
export async function realPathInside(path: string, confinement: string): Promise<string> {
  const [resolved, realConfinement] = await Promise.all([resolveLinks(path), fs.realpath(confinement)]);
  if (!isInsideFolder(resolved.path, realConfinement)) throw new OutsideFolder(`${path} resolves outside ${confinement}`);
  if (!resolved.exists) throw Object.assign(new Error(`${path} does not exist`), { code: 'ENOENT' });
  return resolved.path;
}

/** Links a path can go through before it is refused (as Linux's own limit, ELOOP). */
const MAX_LINKS = 40;

/**
 * `path` with every link of it resolved, as far as its components exist; the missing rest appended as written.
 * Components are taken one at a time, as the kernel does: `..` leaves the real folder reached so far.
 */
async function resolveLinks(path: string): Promise<{ path: string; exists: boolean }> {
  let resolved = '/';
  const pending = components(path);
  for (let links = 0; pending.length > 0;) {
    const part = pending.shift()!;
    if (part === '..') resolved = dirname(resolved);
    if (part === '.' || part === '..') continue;
    const next = join(resolved, part);
    const info = await fs.lstat(next).catch(() => undefined);
    if (!info) return { path: join(next, ...pending), exists: false };
    if (!info.isSymbolicLink()) {
      resolved = next;
      continue;
    }
    if (++links > MAX_LINKS) throw Object.assign(new Error(`${path}: too many links`), { code: 'ELOOP' });
    const target = await fs.readlink(next);
    if (isAbsolute(target)) resolved = '/';
    pending.unshift(...components(target));
  }
  return { path: resolved, exists: true };
}

function components(path: string): string[] {
  return path.split(sep).filter((part) => part !== '');
}
