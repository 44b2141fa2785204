import { readableText } from '../common/text/hidden-characters';
import { PLAIN_IDENTIFIER, PLAIN_IDENTIFIER_TEXT } from '../config/settings';
import { isSharedFilterStateKey } from '../infrastructure/redis/redis-key-prefixes';

/**
 * A backup's `manifest.json`: written last, once every part is complete (backup-location.ts). Whoever can write the
 * backups can write it, and its fields go into SQL (the database), paths (the name, the base, the part folders) and
 * Redis (the keys): each is checked against the rule its writer follows before anything is read by it.
 */
export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 1;

/** A name is a folder name and a SQL string literal's content: letters, digits, `.`, `_`, `-`. */
export const BACKUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
export const BACKUP_NAME_TEXT = "1-100 letters, digits, '.', '_' or '-' (starting with a letter or digit)";

export const BACKUP_MODES = ['embedded', 'server', 'cluster'] as const;
export type BackupMode = (typeof BACKUP_MODES)[number];

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
  mode: BackupMode;
  /** The last migration applied when it was taken. */
  schemaVersion: number;
  parts: BackupPart[];
  /** Redis keys of the shared filters (they live there when REDIS_URL is set): DUMP payloads, base64. */
  redisKeys: { key: string; ttlMs: number; dump: string }[];
}

export interface BackupPart {
  /** Sub-folder of the backup: partFolder. */
  folder: string;
  /** 1 for one server; the shard on a cluster, whose every replica is restored from this part. */
  shard: number;
  /** Rows per table when it was taken. */
  rows: Record<string, number>;
  bytes: number;
}

/** The sub-folder of a backup that holds one part of the store: `store` for one server, `s<shard>` for a cluster's shard. */
export function partFolder(mode: BackupMode, shard: number): string {
  return mode === 'cluster' ? `s${shard}` : 'store';
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SHOWN_CHARACTERS = 100;

/** A field's rule: whether its value keeps it, and the rule in words. */
type Rule = [keeps: (value: unknown) => boolean, text: string];

const count: Rule = [(value) => Number.isSafeInteger(value) && (value as number) >= 0, 'a whole number, 0 or more'];
const instant: Rule = [(value) => typeof value === 'string' && INSTANT.test(value), 'an ISO 8601 instant in UTC'];
const text = (pattern: RegExp, described: string): Rule => [(value) => typeof value === 'string' && pattern.test(value), described];

/**
 * Why `value` is not the manifest of the backup `name` as this service writes it, naming the first field that breaks
 * its rule (`parts[1].folder`), or undefined when it is one.
 */
export function manifestProblem(value: unknown, name: string): string | undefined {
  const fields = fieldsOf(value, name);
  for (const [field, fieldValue, [keeps, rule]] of fields) {
    if (!keeps(fieldValue)) {
      const shown = readableText(JSON.stringify(fieldValue) ?? 'nothing', SHOWN_CHARACTERS);
      return `its ${MANIFEST_FILE} field ${field} must be ${rule}, got ${shown}`;
    }
  }
  return undefined;
}

/** Each field of a manifest with its rule, in order: a field's rule may rely on the fields checked before it. */
function* fieldsOf(value: unknown, name: string): Generator<[string, unknown, Rule]> {
  const manifest = record(value);
  yield ['format', manifest.format, [(format) => format === MANIFEST_FORMAT, String(MANIFEST_FORMAT)]];
  yield ['name', manifest.name, [(given) => given === name, `the backup's own name (${name})`]];
  const baseRule: Rule = [(base) => base === null || (typeof base === 'string' && BACKUP_NAME.test(base)), `null or ${BACKUP_NAME_TEXT}`];
  yield ['base', manifest.base, baseRule];
  yield ['startedAt', manifest.startedAt, instant];
  yield ['finishedAt', manifest.finishedAt, instant];
  yield ['database', manifest.database, text(PLAIN_IDENTIFIER, PLAIN_IDENTIFIER_TEXT)];
  yield ['mode', manifest.mode, [(mode) => (BACKUP_MODES as readonly unknown[]).includes(mode), `one of ${BACKUP_MODES.join(', ')}`]];
  yield ['schemaVersion', manifest.schemaVersion, count];
  yield* partFields(manifest.parts, manifest.mode as BackupMode);
  yield ['redisKeys', manifest.redisKeys, [Array.isArray, 'a list']];
  yield* redisKeyFields(manifest.redisKeys as unknown[]);
}

/** One part for one server; one per shard, each in its shard's folder, for a cluster. */
function* partFields(parts: unknown, mode: BackupMode): Generator<[string, unknown, Rule]> {
  const shape = mode === 'cluster' ? 'a list of one part per shard' : 'a list of one part';
  yield ['parts', parts, [(list) => Array.isArray(list) && list.length > 0 && (mode === 'cluster' || list.length === 1), shape]];
  const shards = new Set<unknown>();
  for (const [index, item] of (parts as unknown[]).entries()) {
    const part = record(item);
    const field = `parts[${index}]`;
    const shardRule: Rule =
      mode === 'cluster'
        ? [
            (shard) => Number.isSafeInteger(shard) && (shard as number) >= 1 && !shards.has(shard),
            'a shard number (1 or more) of no other part',
          ]
        : [(shard) => shard === 1, '1'];
    yield [`${field}.shard`, part.shard, shardRule];
    shards.add(part.shard);
    const folder = partFolder(mode, part.shard as number);
    yield [`${field}.folder`, part.folder, [(given) => given === folder, `its shard's folder (${folder})`]];
    yield [`${field}.bytes`, part.bytes, count];
    yield [`${field}.rows`, part.rows, [(rows) => rows !== null && typeof rows === 'object' && !Array.isArray(rows), 'rows per table']];
    for (const [table, rows] of Object.entries(record(part.rows))) {
      yield [`${field}.rows`, table, text(PLAIN_IDENTIFIER, `rows per table, each table ${PLAIN_IDENTIFIER_TEXT}`)];
      yield [`${field}.rows.${table}`, rows, count];
    }
  }
}

function* redisKeyFields(keys: unknown[]): Generator<[string, unknown, Rule]> {
  for (const [index, item] of keys.entries()) {
    const entry = record(item);
    const isKey = (key: unknown) => typeof key === 'string' && isSharedFilterStateKey(key);
    yield [`redisKeys[${index}].key`, entry.key, [isKey, "a shared filter's Redis key"]];
    yield [`redisKeys[${index}].ttlMs`, entry.ttlMs, count];
    const isDump = (dump: unknown) => typeof dump === 'string' && dump !== '' && BASE64.test(dump);
    yield [`redisKeys[${index}].dump`, entry.dump, [isDump, 'a Redis DUMP payload in base64']];
  }
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
