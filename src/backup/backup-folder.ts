import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * BACKUP_DIR holds one folder per backup: a ClickHouse backup per part of the store (`store` for one server, `s1`,
 * `s2`, … for a cluster's shards), and `manifest.json`, written last, once every part is complete: a folder without
 * it is an incomplete backup (interrupted or failed), listed as such and never restored.
 */
export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 1;

/** A name is a folder name and a SQL string literal's content: letters, digits, `.`, `_`, `-`. */
export const BACKUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** What a backup holds, beside ClickHouse's own `.backup` file of each part. */
export interface BackupManifest {
  format: typeof MANIFEST_FORMAT;
  name: string;
  /** The backup this one is incremental on (its parts are their base), or null for a full backup. */
  base: string | null;
  startedAt: string;
  finishedAt: string;
  /** The database the backup was taken of (a restore may put it in another). */
  database: string;
  mode: 'embedded' | 'server' | 'cluster';
  /** The last migration applied when it was taken. */
  schemaVersion: number;
  parts: BackupPart[];
  /** Redis keys of the shared filters (they live there when REDIS_URL is set): DUMP payloads, base64. */
  redisKeys: { key: string; ttlMs: number; dump: string }[];
}

export interface BackupPart {
  /** Sub-folder of the backup: `store`, or `s<shard>` on a cluster. */
  folder: string;
  /** 1 for one server; the shard on a cluster, whose every replica is restored from this part. */
  shard: number;
  /** Rows per table when it was taken. */
  rows: Record<string, number>;
  bytes: number;
}

export interface ListedBackup {
  name: string;
  complete: boolean;
  manifest?: BackupManifest;
  /** Why it is not restorable, for an incomplete one. */
  problem?: string;
  modifiedAt: string;
}

export class BackupFolderError extends Error {}

export function assertBackupName(name: string): void {
  if (!BACKUP_NAME.test(name)) {
    throw new BackupFolderError(
      `backup name must be 1-100 letters, digits, '.', '_' or '-' (starting with a letter or digit), got "${name}"`,
    );
  }
}

export function backupPath(dir: string, name: string, folder?: string): string {
  assertBackupName(name);
  return folder === undefined ? join(dir, name) : join(dir, name, folder);
}

/** Creates the backup's folder, refusing a name already taken and a BACKUP_DIR that cannot be written. */
export function prepareBackupFolder(dir: string, name: string): void {
  const path = backupPath(dir, name);
  if (existsSync(path)) throw new BackupFolderError(`a backup named ${name} already exists in ${dir}`);
  try {
    mkdirSync(path, { recursive: true });
    writeFileSync(join(path, '.writable'), '');
    rmSync(join(path, '.writable'));
  } catch (error) {
    throw new BackupFolderError(`cannot write to the backup folder ${path}: ${errorCode(error)}. Nothing was backed up.`);
  }
}

/** Writes the manifest atomically (a reader sees none or all of it): the backup is complete from then on. */
export function writeManifest(dir: string, manifest: BackupManifest): void {
  const path = backupPath(dir, manifest.name, MANIFEST_FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

export function readManifest(dir: string, name: string): BackupManifest {
  const folder = backupPath(dir, name);
  if (!existsSync(folder)) {
    const known = listBackups(dir).filter((backup) => backup.complete);
    throw new BackupFolderError(
      `no backup named ${name} in ${dir}` + (known.length ? ` (complete backups: ${known.map((b) => b.name).join(', ')})` : ''),
    );
  }
  const listed = describeFolder(dir, name);
  if (!listed.complete) throw new BackupFolderError(`backup ${name} is not restorable: ${listed.problem}`);
  return listed.manifest!;
}

/** Every backup folder in BACKUP_DIR, newest first, complete or not. */
export function listBackups(dir: string): ListedBackup[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && BACKUP_NAME.test(entry.name))
    .map((entry) => describeFolder(dir, entry.name))
    .sort((a, b) => (a.manifest?.startedAt ?? a.modifiedAt).localeCompare(b.manifest?.startedAt ?? b.modifiedAt) * -1);
}

export function removeBackupFolder(dir: string, name: string): void {
  rmSync(backupPath(dir, name), { recursive: true, force: true });
}

function describeFolder(dir: string, name: string): ListedBackup {
  const folder = backupPath(dir, name);
  const modifiedAt = statSync(folder).mtime.toISOString();
  const manifestPath = join(folder, MANIFEST_FILE);
  if (!existsSync(manifestPath)) {
    return { name, complete: false, modifiedAt, problem: `it is incomplete (no ${MANIFEST_FILE}: interrupted or failed)` };
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BackupManifest;
  } catch {
    return { name, complete: false, modifiedAt, problem: `its ${MANIFEST_FILE} is not valid JSON (${manifestPath})` };
  }
  if (manifest.format !== MANIFEST_FORMAT || manifest.name !== name || !Array.isArray(manifest.parts)) {
    return { name, complete: false, modifiedAt, problem: `its ${MANIFEST_FILE} is not a manifest of this format (${manifestPath})` };
  }
  const missing = manifest.parts.map((part) => join(folder, part.folder, '.backup')).filter((file) => !existsSync(file));
  if (missing.length) return { name, complete: false, modifiedAt, manifest, problem: `file ${missing[0]} is missing` };
  return { name, complete: true, modifiedAt, manifest };
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

/**
 * The file of a backup part (or of its base, for an incremental one) whose content has this checksum, as ClickHouse's
 * `.backup` lists it: how a corrupt file is named (CHECK TABLE names the part's file by its expected checksum).
 */
export function fileWithChecksum(partFolder: string, checksum: string, depth = 0): string | undefined {
  const listing = join(partFolder, '.backup');
  if (depth > 100 || !existsSync(listing)) return undefined;
  const text = readFileSync(listing, 'utf8');
  for (const [, entry] of text.matchAll(/<file>(.*?)<\/file>/gs)) {
    if (!entry.includes(`<checksum>${checksum}</checksum>`)) continue;
    if (/<use_base>true<\/use_base>/.test(entry)) {
      const base = /<base_backup>File\('((?:[^'\\]|\\.)*)'\)<\/base_backup>/.exec(text)?.[1];
      return base === undefined ? undefined : fileWithChecksum(base.replace(/\\(.)/g, '$1'), checksum, depth + 1);
    }
    const stored = /<data_file>(.*?)<\/data_file>/.exec(entry)?.[1] ?? /<name>(.*?)<\/name>/.exec(entry)?.[1];
    return stored === undefined ? undefined : join(partFolder, stored);
  }
  return undefined;
}
