import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ListedObject } from './delivery-layouts';

/** Manifests are small; a larger one is not a manifest (and is not read whole). */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/**
 * A source's objects in a directory of this machine (a share its exports are synced to): a listing (names, sizes,
 * changes: no file is read), a manifest's text, and the local paths the importer reads the parts from.
 */
export class FileStore {
  constructor(private readonly root: string) {}

  async list(): Promise<ListedObject[]> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    const files = entries.filter((entry) => entry.isFile());
    const listed = await Promise.all(
      files.map(async (entry) => {
        const path = join(entry.parentPath ?? entry.path, entry.name);
        const info = await stat(path).catch(() => undefined);
        return info && { key: relative(this.root, path).split(sep).join('/'), size: info.size, modifiedMs: info.mtimeMs };
      }),
    );
    return listed.filter((o): o is ListedObject => o !== undefined).sort((a, b) => a.key.localeCompare(b.key));
  }

  async readText(key: string): Promise<string> {
    const path = this.pathOf(key);
    if ((await stat(path)).size > MAX_MANIFEST_BYTES) throw new Error(`${key}: larger than ${MAX_MANIFEST_BYTES} bytes, not a manifest`);
    return readFile(path, 'utf8');
  }

  /** The parts are local already: read where they are. */
  async localPaths(keys: string[]): Promise<string[]> {
    return keys.map((key) => this.pathOf(key));
  }

  pathOf(key: string): string {
    return join(this.root, ...key.split('/'));
  }
}
