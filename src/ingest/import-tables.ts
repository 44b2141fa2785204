import { randomBytes } from 'node:crypto';

/**
 * Names of an import's own tables, all generated here (never from input), so they can be spliced into
 * SQL as identifiers: `focus_import_<start time, ms in base 36>_<random>` is the import id and its
 * staging table, plus `_raw<N>` per file and `_backup` for the partitions it replaces.
 */
export const IMPORT_TABLE_PREFIX = 'focus_import_';
const IMPORT_TABLE_NAME = /^(focus_import_([0-9a-z]+)_[0-9a-f]{8})(?:_raw\d+|_backup)?$/;

export function newImportId(now = Date.now()): string {
  return `${IMPORT_TABLE_PREFIX}${now.toString(36)}_${randomBytes(4).toString('hex')}`;
}

export function rawTableName(importId: string, fileIndex: number): string {
  return `${importId}_raw${fileIndex}`;
}

export function backupTableName(importId: string): string {
  return `${importId}_backup`;
}

/** The import a table belongs to and when that import started, or undefined for any other name. */
export function parseImportTableName(name: string): { importId: string; startedAt: number } | undefined {
  const match = IMPORT_TABLE_NAME.exec(name);
  return match ? { importId: match[1], startedAt: parseInt(match[2], 36) } : undefined;
}

export function isImportTableName(name: string): boolean {
  return IMPORT_TABLE_NAME.test(name);
}

/** A partition id as ClickHouse prints it (hex hash, or digits and dashes): safe between quotes. */
export function isPartitionId(id: string): boolean {
  return /^[\w-]+$/.test(id);
}
