import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { messageOf } from '../common/errors/message-of';
import { readableText } from '../common/text/hidden-characters';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PLAIN_IDENTIFIER } from '../config/settings';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { ensureDictionaries, migrate, reloadDictionaries } from '../store/schema/migrator';
import { markRestored, markRestoring, STORE_RESTORE_TABLE } from '../store/schema/store-restore';
import { isSharedFilterStateKey, SHARED_FILTER_KEYS_PREFIX } from '../infrastructure/redis/redis-key-prefixes';
import { REDIS } from '../infrastructure/redis/redis.module';
import { isImportTableName } from '../store/publish/import-tables';
import { PublishProtocol } from '../store/publish/publish-protocol';
import { assertBackupName, BackupLocation, backupLocation, BackupLocationError, ListedBackup } from './backup-location';
import { BackupManifest, BackupMode, BackupPart, MANIFEST_FORMAT, partFolder } from './backup-manifest';
import {
  backUpDatabase,
  defaultsNaming,
  dropDatabase,
  failedParts,
  replaceWithScratch,
  restoreDatabase,
  schemaVersion,
  StoreTable,
  storeTables,
} from '../store/backup-statements';

/** A part of the store and the server that holds it: the one server, or (backup) one replica of each shard. */
interface PartServer {
  folder: string;
  shard: number;
  server: ClickhouseService;
}

export interface RestoreOptions {
  /** Replace a store that is not empty (named in the refusal otherwise). */
  force?: boolean;
}

export interface RestoreReport {
  name: string;
  database: string;
  rows: Record<string, number>;
  /** Imports caught by the backup before their first swap: marked rolled back (they are in it not at all). */
  importsStoodDown: string[];
  /** Backups the copy caught running (the restored one itself among them): ended, so no import waits for their leases. */
  backupsEnded: string[];
  redisKeys: number;
  elapsedMs: number;
}

/**
 * Tables never in a backup: the import's transient tables, the restore marker, the Distributed tables and the
 * dictionaries (the migrations make them; the store's own are kept through a restore).
 */
function backedUp(table: StoreTable): boolean {
  return !isImportTableName(table.name) && table.name !== STORE_RESTORE_TABLE && !DERIVED_ENGINES.includes(table.engine);
}
const DERIVED_ENGINES = ['Distributed', 'Dictionary'];

/**
 * Backups of the whole store with ClickHouse's own BACKUP/RESTORE (to BACKUP_DIR, backup-folder.ts): cost data, API
 * keys, shared filters (the Redis keys too), settings, rates, sources, audit events, anomalies. An import is wholly
 * in a backup or not at all (publish-fence.ts). A restore goes into a scratch database first and is checked there
 * (CHECK TABLE: a corrupt file is named) before it replaces anything; the store says it is being restored meanwhile.
 */
@Injectable()
export class BackupService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Where backups are: BACKUP_DIR, or S3-compatible storage (BACKUP_S3_URL). */
  get location(): BackupLocation {
    return (this.cachedLocation ??= backupLocation(this.config.backup));
  }
  private cachedLocation?: BackupLocation;

  get database(): string {
    return this.clickhouse.database;
  }

  private get mode(): BackupMode {
    return this.clickhouse.cluster ? 'cluster' : this.clickhouse.embedded ? 'embedded' : 'server';
  }

  list(): Promise<ListedBackup[]> {
    return this.location.list();
  }

  /** Takes a backup named `name` (default: the time), incremental on the newest complete one when asked. */
  async create(
    options: { name?: string; incremental?: boolean },
    log: (message: string) => void = () => undefined,
  ): Promise<BackupManifest> {
    const name = options.name ?? defaultName(options.incremental ?? false);
    assertBackupName(name);
    const base = options.incremental ? await this.newestComplete() : undefined;
    if (options.incremental && !base) {
      throw new BackupLocationError(`no complete backup in ${this.location.description} to be incremental on: take a full one first`);
    }
    const parts = await this.sourceParts();
    await this.location.prepare(name);
    const startedAt = new Date().toISOString();
    try {
      return await new PublishProtocol(this.clickhouse).fence(name, log, async () => {
        const backedUpParts: BackupPart[] = [];
        for (const part of parts) backedUpParts.push(await this.backUpPart(name, part, base?.name));
        const manifest: BackupManifest = {
          format: MANIFEST_FORMAT,
          name,
          base: base?.name ?? null,
          startedAt,
          finishedAt: new Date().toISOString(),
          database: this.clickhouse.database,
          mode: this.mode,
          schemaVersion: await schemaVersion(parts[0].server),
          parts: backedUpParts,
          redisKeys: await this.exportRedisKeys(),
        };
        await this.assertWhole(name, parts);
        await this.location.writeManifest(manifest);
        return manifest;
      });
    } catch (error) {
      await this.location.remove(name).catch(() => undefined);
      if (error instanceof BackupLocationError) throw error;
      throw new BackupLocationError(`backup ${name} failed, nothing was kept: ${this.location.redact(messageOf(error))}`);
    }
  }

  /** Restores the backup `name` into this store (CLICKHOUSE_DATABASE), which must be empty unless `force`. */
  async restore(name: string, options: RestoreOptions = {}, log: (message: string) => void = () => undefined): Promise<RestoreReport> {
    const started = Date.now();
    const manifest = await this.location.readManifest(name);
    if (manifest.redisKeys.length > 0 && !this.redis)
      throw new BackupLocationError(
        `backup ${name} holds shared filters kept in Redis: set REDIS_URL to restore them. Nothing was changed.`,
      );
    const targets = await this.targetParts(manifest);
    if (!options.force) await assertEmpty(targets);
    for (const target of targets) await markRestoring(target.server, name);
    const scratch = `${this.clickhouse.database}__restore`;
    try {
      // The restored cost table's column defaults read the store's dictionaries: they must exist first.
      for (const target of targets) await ensureDictionaries(target.server, this.clickhouse.cluster !== undefined);
      for (const target of targets) await this.restoreIntoScratch(manifest, target, scratch, log);
    } catch (error) {
      // Nothing of the store was touched: it is as it was.
      for (const target of targets) {
        await dropDatabase(target.server, scratch).catch(() => undefined);
        await markRestored(target.server, name);
      }
      throw error;
    }
    for (const target of targets) await replaceWithScratch(target.server, scratch);
    await migrate(this.clickhouse);
    for (const target of targets) await reloadDictionaries(target.server); // their sources were just replaced
    const { importsStoodDown, backupsEnded } = await new PublishProtocol(this.clickhouse).afterRestore(name);
    const redisKeys = await this.importRedisKeys(manifest);
    for (const target of targets) await markRestored(target.server, name);
    const rows: Record<string, number> = {};
    for (const part of manifest.parts) for (const [table, count] of Object.entries(part.rows)) rows[table] = (rows[table] ?? 0) + count;
    return { name, database: this.clickhouse.database, rows, importsStoodDown, backupsEnded, redisKeys, elapsedMs: Date.now() - started };
  }

  private async newestComplete(): Promise<ListedBackup | undefined> {
    return (await this.list()).find((backup) => backup.complete && backup.manifest?.database === this.clickhouse.database);
  }

  private async backUpPart(name: string, part: PartServer, base: string | undefined): Promise<BackupPart> {
    const { server } = part;
    const tables = await storeTables(server);
    const excluded = tables.filter((table) => !backedUp(table)).map((table) => table.name);
    await backUpDatabase(server, this.location.engine(name, part.folder), excluded, base && this.location.engine(base, part.folder));
    const rows = Object.fromEntries(tables.filter(backedUp).map((table) => [table.name, table.rows]));
    return { folder: part.folder, shard: part.shard, rows, bytes: tables.filter(backedUp).reduce((sum, table) => sum + table.bytes, 0) };
  }

  /**
   * The backup's parts are written by ClickHouse: this process must see them to write the manifest beside them, and
   * each must be whole (incompletePart: a full disk is not always reported).
   */
  private async assertWhole(name: string, parts: PartServer[]): Promise<void> {
    for (const part of parts) {
      if (!(await this.location.hasPart(name, part.folder))) {
        throw new BackupLocationError(
          `ClickHouse wrote the backup, but ${this.location.describe(name, part.folder, '.backup')} is not visible to this process: ` +
            'BACKUP_DIR must be the same folder for ClickHouse and for the backup commands (the same host, or a shared mount)',
        );
      }
      const problem = await this.location.incompletePart(name, part.folder);
      if (problem)
        throw new BackupLocationError(
          `backup ${name} failed, nothing was kept: it was not written whole (${problem}; is the target full?)`,
        );
    }
  }

  private async restoreIntoScratch(manifest: BackupManifest, target: PartServer, scratch: string, log: (message: string) => void) {
    const { server } = target;
    await dropDatabase(server, scratch);
    const source = this.location.engine(manifest.name, target.folder);
    log(`Restoring part ${target.folder} of backup ${manifest.name}${server === this.clickhouse ? '' : ` on shard ${target.shard}`}`);
    try {
      await restoreDatabase(server, manifest.database, scratch, source);
    } catch (error) {
      throw new BackupLocationError(
        `backup ${manifest.name} cannot be restored (part ${target.folder}): ${this.location.redact(messageOf(error))}`,
      );
    }
    await assertPlainNames(manifest, server, scratch);
    for (const table of await storeTables(server, scratch)) {
      if (!table.engine.endsWith('MergeTree')) continue;
      const [broken] = await failedParts(server, scratch, table.name);
      if (broken) {
        const expected = /([0-9a-f]{32}) vs [0-9a-f]{32}/.exec(broken.message)?.[1];
        const file = expected && (await this.location.fileWithChecksum(await this.chainOf(manifest), target.folder, expected));
        throw new BackupLocationError(
          `backup ${manifest.name} is corrupt: ${file ? `file ${file}` : `a file of part ${target.folder}`} (table ${table.name}) ` +
            `does not match its checksum: ${broken.message.split('\n')[0]}. Nothing was changed.`,
        );
      }
    }
  }

  /** The backup and the bases it is built on, newest first. */
  private async chainOf(manifest: BackupManifest): Promise<string[]> {
    const chain = [manifest.name];
    for (let base = manifest.base; base !== null && chain.length < 1000; base = (await this.location.readManifest(base)).base)
      chain.push(base);
    return chain;
  }

  private async sourceParts(): Promise<PartServer[]> {
    const { cluster } = this.clickhouse;
    if (!cluster) return [{ folder: partFolder(this.mode, 1), shard: 1, server: this.clickhouse }];
    await assertDistributedCluster(this.clickhouse);
    const { reachable, unreachable } = await cluster.nodes();
    const shards = [...new Set([...reachable, ...unreachable].map((node) => node.shard))].sort((a, b) => a - b);
    return shards.map((shard) => {
      const node = reachable.find((candidate) => candidate.shard === shard);
      if (!node) throw new BackupLocationError(`no replica of shard ${shard} answers: no backup was taken`);
      return { folder: partFolder('cluster', shard), shard, server: node.connection };
    });
  }

  private async targetParts(manifest: BackupManifest): Promise<PartServer[]> {
    const { cluster } = this.clickhouse;
    const shards = manifest.parts.length;
    if (!cluster) {
      if (manifest.mode === 'cluster') throw shapeError(manifest, 'one server');
      return [{ folder: manifest.parts[0].folder, shard: 1, server: this.clickhouse }];
    }
    if (manifest.mode !== 'cluster') throw shapeError(manifest, 'a cluster');
    await assertDistributedCluster(this.clickhouse);
    const nodes = await cluster.allNodes('restore refused, nothing was changed: every node of the cluster must answer');
    const targetShards = new Set(nodes.map((node) => node.shard)).size;
    if (targetShards !== shards) throw shapeError(manifest, `a cluster of ${targetShards} shard(s)`);
    return nodes.map((node) => ({ folder: partFolder('cluster', node.shard), shard: node.shard, server: node.connection }));
  }

  private async exportRedisKeys(): Promise<BackupManifest['redisKeys']> {
    if (!this.redis) return [];
    const keys: BackupManifest['redisKeys'] = [];
    let cursor = '0';
    do {
      const [next, batch] = await this.redis.scan(cursor, 'MATCH', `${SHARED_FILTER_KEYS_PREFIX}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of batch.filter(isSharedFilterStateKey)) {
        const [dump, ttlMs] = await Promise.all([this.redis.dumpBuffer(key), this.redis.pttl(key)]);
        if (dump && ttlMs !== -2) keys.push({ key, ttlMs: Math.max(ttlMs, 0), dump: dump.toString('base64') });
      }
    } while (cursor !== '0');
    return keys.sort((a, b) => a.key.localeCompare(b.key));
  }

  private async importRedisKeys(manifest: BackupManifest): Promise<number> {
    if (manifest.redisKeys.length === 0) return 0;
    for (const { key, ttlMs, dump } of manifest.redisKeys) {
      await this.redis!.restore(key, ttlMs, Buffer.from(dump, 'base64'), 'REPLACE'); // REDIS_URL: checked before the restore began
    }
    return manifest.redisKeys.length;
  }
}

function defaultName(incremental: boolean): string {
  return `${new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}${incremental ? '-incremental' : ''}`;
}

/** A store is empty when none of its tables holds a row (the migrator's record and the restore marker aside). */
async function assertEmpty(targets: PartServer[]): Promise<void> {
  const found = new Map<string, number>();
  for (const { server } of targets) {
    for (const table of await storeTables(server)) {
      if (table.rows > 0 && !table.migrationRecord && backedUp(table)) found.set(table.name, (found.get(table.name) ?? 0) + table.rows);
    }
  }
  if (found.size === 0) return;
  const what = [...found].map(([table, rows]) => `${table} (${rows} rows)`).join(', ');
  throw new BackupLocationError(
    `restore refused, nothing was changed: the store is not empty: ${what}. Restore into an empty store, or add --force to replace it.`,
  );
}

/**
 * The names of the restored tables, and of the columns whose defaults are pointed back at the store (repointDefaults),
 * go into SQL: the store's own are plain identifiers, any other was put there. Checked before anything is changed.
 */
async function assertPlainNames(manifest: BackupManifest, server: ClickhouseService, scratch: string): Promise<void> {
  const names = [
    ...(await storeTables(server, scratch)).map((table) => table.name),
    ...(await defaultsNaming(server, scratch, scratch)).map((column) => column.name),
  ];
  const odd = names.find((name) => !PLAIN_IDENTIFIER.test(name));
  if (odd !== undefined) {
    throw new BackupLocationError(
      `backup ${manifest.name} holds a table or column this service never makes (${readableText(JSON.stringify(odd), 100)}): ` +
        'a damaged or altered backup. Nothing was changed.',
    );
  }
}

/** Only the `distributed` way of keeping replicas is backed up node by node; `replicated` clusters use ON CLUSTER. */
async function assertDistributedCluster(clickhouse: ClickhouseService): Promise<void> {
  if ((await clickhouse.cluster!.replication()) === 'replicated') {
    throw new BackupLocationError(
      'this cluster keeps replicas with ReplicatedMergeTree: back it up with ClickHouse itself (BACKUP DATABASE … ON CLUSTER, see docs/operations.md)',
    );
  }
}

function shapeError(manifest: BackupManifest, target: string): BackupLocationError {
  const shape = manifest.mode === 'cluster' ? `a cluster of ${manifest.parts.length} shard(s)` : 'one server';
  return new BackupLocationError(
    `backup ${manifest.name} is of ${shape} and cannot be restored onto ${target}: restore onto a store of the same shape`,
  );
}
