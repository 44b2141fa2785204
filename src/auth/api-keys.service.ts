import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { generateApiKey, hashApiKey, hashesEqual, parseApiKey } from './api-key-format';
import { ApiKeysRepository, StoredKeyRow, type KeyListPage } from '../store/repositories/api-keys.repository';
import type { Principal, Scope } from '../common/http/principal';
import { clickhouseTimestamp, isoFromClickhouse } from '../common/dates/clickhouse-time';

export interface ApiKeyRecord {
  keyId: string;
  organizationId: string;
  name: string;
  scopes: Scope[];
  /** The canonical JSON of the key's data scope; '' when it sees its whole organisation. */
  dataScope: string;
  createdAt: string;
  revokedAt: string | null;
  /** When the key was last used, to about LAST_USED_FLUSH_MS (list only); null if never. */
  lastUsedAt?: string | null;
}

/** How often an instance writes the times its keys were last used: the precision of "last used". */
export const LAST_USED_FLUSH_MS = 60_000;

/**
 * API keys in ClickHouse, stored only as SHA-256 hashes. Lookups go by the key's public id and
 * the hash is then compared in constant time. Verified keys are cached for API_KEY_CACHE_TTL_SECONDS,
 * which bounds how long a revoked key keeps working on an instance.
 */
@Injectable()
export class ApiKeysService implements OnModuleDestroy {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly cache = new Map<string, { row: StoredKeyRow | null; expiresAt: number }>();
  /** Keys used since the last write of their times, with the latest time (bounded by the number of keys). */
  private readonly usedSince = new Map<string, number>();
  private readonly usageWriter: NodeJS.Timeout;

  constructor(
    private readonly repository: ApiKeysRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.usageWriter = setInterval(() => void this.flushLastUsed().catch(() => undefined), LAST_USED_FLUSH_MS);
    this.usageWriter.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.usageWriter);
    await this.flushLastUsed().catch(() => undefined);
  }

  /**
   * Writes when the keys used since the last write were last used, in one insert. A failed write keeps
   * the times for the next one (a newer use of the same key replaces its time).
   */
  async flushLastUsed(): Promise<void> {
    if (this.usedSince.size === 0) return;
    const batch = [...this.usedSince].map(([key_id, time]) => ({ key_id, last_used_at: time }));
    this.usedSince.clear();
    try {
      await this.repository.writeLastUsed(batch);
    } catch (error) {
      for (const { key_id, last_used_at } of batch) {
        if ((this.usedSince.get(key_id) ?? 0) < last_used_at) this.usedSince.set(key_id, last_used_at);
      }
      this.logger.warn(`Last-used times not written (kept for the next write): ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }

  /** `dataScope`: the canonical JSON of the key's data scope (canonicalDataScope), '' for the whole organisation. */
  async create(organizationId: string, name: string, scopes: Scope[], dataScope = ''): Promise<{ key: string; record: ApiKeyRecord }> {
    const { keyId, key } = generateApiKey();
    const createdAt = Date.now();
    await this.repository.write({
      key_id: keyId,
      organization_id: organizationId,
      name,
      key_hash: hashApiKey(key),
      scopes,
      data_scope: dataScope,
      created_at: createdAt,
      revoked_at: null,
      version: createdAt,
    });
    this.keyIds?.ids.add(keyId);
    const record: ApiKeyRecord = {
      keyId,
      organizationId,
      name,
      scopes,
      dataScope,
      createdAt: new Date(createdAt).toISOString(),
      revokedAt: null,
    };
    return { key, record };
  }

  /**
   * The organisation's keys, oldest first (then by id), revoked ones included: all of them, or one page
   * (`limit` keys after `after`, read as one more to tell whether more follow).
   */
  async list(organizationId: string, page?: KeyListPage): Promise<ApiKeyRecord[]> {
    const rows = await this.repository.list(organizationId, page);
    return rows.map((row) => ({ ...toRecord(row), lastUsedAt: row.last_used_at ? isoFromClickhouse(row.last_used_at) : null }));
  }

  /** How many unrevoked keys an organisation has. */
  countActive(organizationId: string): Promise<number> {
    return this.repository.countActive(organizationId);
  }

  /**
   * Creates a key unless the organisation already has `maxActive` unrevoked keys; then returns how many
   * it has. One such creation per organisation at a time on this instance (the count and the insert are
   * not one statement), so only instances creating at the same moment can overshoot, by one each.
   */
  async createWithinCap(
    organizationId: string,
    name: string,
    scopes: Scope[],
    dataScope: string,
    maxActive: number,
  ): Promise<{ key: string; record: ApiKeyRecord } | { active: number }> {
    const id = organizationId.toLowerCase();
    const previous = this.creating.get(id) ?? Promise.resolve();
    const run = previous.then(async () => {
      const active = await this.countActive(organizationId);
      return active >= maxActive ? { active } : this.create(organizationId, name, scopes, dataScope);
    });
    const settled = run.catch(() => undefined);
    this.creating.set(id, settled);
    void settled.then(() => this.creating.get(id) === settled && this.creating.delete(id));
    return run;
  }
  private readonly creating = new Map<string, Promise<unknown>>();

  /** Marks a key revoked; returns false when no such key exists. Idempotent. */
  async revoke(keyId: string): Promise<boolean> {
    const row = await this.repository.findById(keyId);
    if (!row) return false;
    await this.markRevoked(row);
    return true;
  }

  /**
   * Revokes a key of `organizationId` (idempotent) and returns it as it now is, and whether this call revoked it (false:
   * it was revoked already); undefined when the organisation has no such key (another organisation's key is the same: missing).
   */
  async revokeInOrganization(organizationId: string, keyId: string): Promise<{ record: ApiKeyRecord; revokedNow: boolean } | undefined> {
    const row = await this.repository.findById(keyId);
    if (!row || row.organization_id.toLowerCase() !== organizationId.toLowerCase()) return undefined;
    return { record: toRecord({ ...row, revoked_at: await this.markRevoked(row) }), revokedNow: !row.revoked_at };
  }

  /** Writes the revoked version of a key (unless it is revoked already); returns its revocation time as stored. */
  private async markRevoked(row: StoredKeyRow): Promise<string> {
    if (row.revoked_at) return row.revoked_at;
    const now = Date.now();
    await this.repository.write({
      ...row,
      created_at: Date.parse(row.created_at + 'Z'),
      revoked_at: now,
      version: Math.max(now, Number(row.version) + 1),
    });
    this.cache.delete(row.key_id);
    return clickhouseTimestamp(now);
  }

  /**
   * The principal of a presented key, or undefined for a malformed, unknown or revoked key. For a client
   * already throttled for presenting no valid key, a key whose id is not among the existing keys is
   * refused without a lookup: guesses from a throttled client cost no statement each (a real key passes).
   */
  async authenticate(presentedKey: string, options: { clientThrottled?: boolean } = {}): Promise<Principal | undefined> {
    const parsed = parseApiKey(presentedKey);
    if (!parsed) return undefined;
    const cached = this.cache.get(parsed.keyId);
    const row =
      cached && cached.expiresAt > Date.now()
        ? cached.row
        : options.clientThrottled && !(await this.existingKeyIds()).has(parsed.keyId)
          ? null
          : await this.lookUp(parsed.keyId);
    if (!row || row.revoked_at) return undefined;
    if (!hashesEqual(row.key_hash, hashApiKey(presentedKey))) return undefined;
    this.usedSince.set(row.key_id, Date.now());
    const principal: Principal = { keyId: row.key_id, organizationId: row.organization_id, scopes: row.scopes as Scope[] };
    if (row.data_scope) principal.dataScope = row.data_scope;
    return principal;
  }

  /** Ids of the unrevoked keys, re-read once API_KEY_CACHE_TTL_SECONDS old (a key created since is added at once here). */
  private async existingKeyIds(): Promise<Set<string>> {
    const ttlMs = this.config.apiKeyCacheTtlSeconds * 1000;
    if (!this.keyIds || Date.now() - this.keyIds.readAt >= ttlMs) {
      this.keyIdsRead ??= this.repository
        .activeKeyIds()
        .then((ids) => (this.keyIds = { ids: new Set(ids), readAt: Date.now() }))
        .finally(() => (this.keyIdsRead = undefined));
      await this.keyIdsRead;
    }
    return this.keyIds!.ids;
  }
  private keyIds?: { ids: Set<string>; readAt: number };
  private keyIdsRead?: Promise<unknown>;

  private async lookUp(keyId: string): Promise<StoredKeyRow | null> {
    const row = await this.repository.findById(keyId);
    const ttlMs = this.config.apiKeyCacheTtlSeconds * 1000;
    if (ttlMs > 0) {
      if (this.cache.size > 10_000) this.cache.clear(); // bounded: ids of random garbage keys must not grow it
      this.cache.set(keyId, { row, expiresAt: Date.now() + ttlMs });
    }
    return row;
  }
}

function toRecord(row: StoredKeyRow): ApiKeyRecord {
  return {
    keyId: row.key_id,
    organizationId: row.organization_id,
    name: row.name,
    scopes: row.scopes as Scope[],
    dataScope: row.data_scope ?? '',
    createdAt: isoFromClickhouse(row.created_at),
    revokedAt: row.revoked_at ? isoFromClickhouse(row.revoked_at) : null,
  };
}
