import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ExportPart, FocusIngestError } from '../ingest/focus-files';
import { isInsideFolder, OutsideFolder, realPathInside } from './file-confinement';
import {
  ListedObject,
  keyOrder,
  LISTING_SLICE,
  ListingTooLong,
  objectKeyProblem,
  RefusedObject,
  SourceListing,
  sortInSlices,
  yieldToEventLoop,
} from './source-listing';

/** Manifests are small; a larger one is not a manifest (and is not read whole). */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/** Opened for reading only, never through a link in the last step, never blocking on a FIFO. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * A source's objects in a directory of this machine (a share its exports are synced to). Nothing it reads may lie
 * outside `confinement` (the organisation's folder, or the operator's own folder for a source added outside the
 * root): the source's real path is resolved at every check, links are never followed (a symbolic link is refused,
 * a file with more than one hard link too: it may be the same file as one outside), and each file is opened with
 * O_NOFOLLOW and checked again, then read through its open descriptor, so a swap after the check changes nothing.
 */
export class FileStore {
  constructor(
    private readonly folder: string,
    private readonly confinement: string,
    private readonly maxListedObjects: number,
  ) {}

  async list(): Promise<SourceListing> {
    const real = await this.realFolder();
    const listing: SourceListing = { objects: [], refused: [] };
    await this.walk(real, '', listing);
    return { ...listing, objects: await sortInSlices(listing.objects, (a, b) => keyOrder(a.key, b.key)) };
  }

  async readText(key: string): Promise<string> {
    const handle = await this.openChecked(key);
    try {
      const { size } = await handle.stat();
      if (size > MAX_MANIFEST_BYTES) throw new Error(`${key}: larger than ${MAX_MANIFEST_BYTES} bytes, not a manifest`);
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  }

  /** The parts are local already: each is opened, and checked again, only while the importer reads it. */
  parts(objects: ListedObject[]): Promise<ExportPart[]> {
    return Promise.resolve(
      objects.map((object) => ({
        name: this.pathOf(object.key),
        open: async () => {
          const handle = await this.openChecked(object.key);
          return { path: readablePath(handle, this.pathOf(object.key)), close: () => handle.close() };
        },
      })),
    );
  }

  pathOf(key: string): string {
    return join(this.folder, ...key.split('/'));
  }

  private async realFolder(): Promise<string> {
    const real = await realPathInside(this.folder, this.confinement).catch((error: unknown) => {
      throw error instanceof OutsideFolder
        ? new OutsideFolder(`${this.folder} resolves outside the folder this source must stay in; nothing was read`)
        : error;
    });
    if (!(await fs.stat(real)).isDirectory()) throw new Error(`${this.folder} is not a folder`);
    return real;
  }

  /** Lists a folder without following links, in slices (the event loop serves others between them), up to the cap. */
  private async walk(dir: string, prefix: string, listing: SourceListing): Promise<void> {
    const folder = await fs.opendir(dir);
    for await (const entry of folder) {
      const key = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        await this.walk(join(dir, entry.name), `${key}/`, listing);
        continue;
      }
      if (listing.objects.length + listing.refused.length >= this.maxListedObjects) throw new ListingTooLong(this.maxListedObjects);
      if ((listing.objects.length + listing.refused.length) % LISTING_SLICE === 0) await yieldToEventLoop();
      if (entry.isSymbolicLink()) listing.refused.push({ key, reason: 'a symbolic link (links are not followed)' });
      else if (entry.isFile()) await this.addFile(join(dir, entry.name), key, listing);
    }
  }

  private async addFile(path: string, key: string, listing: SourceListing): Promise<void> {
    const info = await fs.lstat(path).catch(() => undefined);
    if (!info?.isFile()) return; // gone, or replaced, since it was listed: the next check sees what is there
    const refusal = objectKeyProblem(key) ?? linkProblem(info.nlink);
    if (refusal) listing.refused.push({ key, reason: refusal } satisfies RefusedObject);
    else listing.objects.push({ key, size: info.size, modifiedMs: info.mtimeMs });
  }

  /** The file at `key`, opened without following a link, and refused unless it is a lone regular file in the folder. */
  private async openChecked(key: string): Promise<FileHandle> {
    const path = this.pathOf(key);
    const handle = await fs.open(path, OPEN_FLAGS).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ELOOP' ? new FocusIngestError(`${path}: refused: a symbolic link (links are not followed)`) : error;
    });
    try {
      const info = await handle.stat();
      const problem = !info.isFile() ? 'not a regular file' : linkProblem(info.nlink);
      if (problem) throw new FocusIngestError(`${path}: refused: ${problem}`);
      const [real, confinement] = await Promise.all([realPathOf(handle, path), fs.realpath(this.confinement)]);
      if (!isInsideFolder(real, confinement)) throw new FocusIngestError(`${path}: refused: it resolves outside the source's folder`);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
}

function linkProblem(links: number): string | undefined {
  return links > 1 ? `${links} hard links (a file with more than one may be another's)` : undefined;
}

/** Linux names an open file by its descriptor: the real path of what was opened, whatever the path now points at. */
const DESCRIPTORS = process.platform === 'linux' ? '/proc/self/fd' : undefined;

function realPathOf(handle: FileHandle, path: string): Promise<string> {
  return DESCRIPTORS ? fs.readlink(`${DESCRIPTORS}/${handle.fd}`) : fs.realpath(path);
}

/** A path that reads the open file itself (Linux), so the importer reads exactly what was checked; else its path. */
function readablePath(handle: FileHandle, path: string): string {
  return DESCRIPTORS ? `${DESCRIPTORS}/${handle.fd}` : path;
}
