import { randomBytes } from 'node:crypto';
import { GeneratedTableName, generatedTableName } from '../schema/store-tables';

/**
 * Names of an import's own tables, all generated here (never from input), so they can be spliced into
 * SQL as identifiers: `focus_import_<start time, ms in base 36>_<random>` is the import id and its
 * staging table, plus `_input` (the Null table files are read into) with its views `_to_staging` and
 * `_to_report` and their `_report`, `_backup` for the partitions it replaces and, on a cluster,
 * `_distributed` for the Distributed table that places the staged rows on their shards. (`_raw<N>`: the raw
 * file tables of imports before the single-pass read, still recognised so their leftovers are dropped.)
 */
export const IMPORT_TABLE_PREFIX = 'focus_import_';
const IMPORT_TABLE_NAME = /^(focus_import_([0-9a-z]+)_[0-9a-f]{8})(?:_input|_to_staging|_to_report|_report|_backup|_distributed|_raw\d+)?$/;

export function newImportId(now = Date.now()): GeneratedTableName {
  return generatedTableName(`${IMPORT_TABLE_PREFIX}${now.toString(36)}_${randomBytes(4).toString('hex')}`);
}

/** An import's table of that id (its staging table) or of that id's `suffix`. */
export const importTableName = (importId: string, suffix = '') => generatedTableName(`${importId}${suffix}`);
export const inputTableName = (importId: string) => importTableName(importId, '_input');
export const toStagingViewName = (importId: string) => importTableName(importId, '_to_staging');
export const toReportViewName = (importId: string) => importTableName(importId, '_to_report');
export const reportTableName = (importId: string) => importTableName(importId, '_report');
export const backupTableName = (importId: string) => importTableName(importId, '_backup');
export const distributedStagingTableName = (importId: string) => importTableName(importId, '_distributed');

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
