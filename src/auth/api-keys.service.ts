import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';
import { generateApiKey, hashApiKey, hashesEqual, parseApiKey } from './api-key-format';
import type { Principal, Scope } from '../common/http/principal';

export interface ApiKeyRecord {
  keyId: string;
  organizationId: string;
  name: string;
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
}

interface StoredKeyRow {
  key_id: string;
  organization_id: string;
  name: string;
  key_hash: string;
  scopes: string[];
  created_at: string;
  revoked_at: string | null;
  version: string;
}

/**
 * API keys in ClickHouse, stored only as SHA-256 hashes. Lookups go by the key's public id and
 * the hash is then compared in constant time. Verified keys are cached for API_KEY_CACHE_TTL_SECONDS,
 * which bounds how long a revoked key keeps working on an instance.
 */
@Injectable()
export class ApiKeysService {
  private readonly cache = new Map<string, { row: StoredKeyRow | null; expiresAt: number }>();

  constructor(
    private readonly clickhouse: ClickhouseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(organizationId: string, name: string, scopes: Scope[]): Promise<{ key: string; record: ApiKeyRecord }> {
    const { keyId, key } = generateApiKey();
    const createdAt = Date.now();
    await this.clickhouse.insert('api_keys', [
      {
        key_id: keyId,
        organization_id: organizationId,
        name,
        key_hash: hashApiKey(key),
        scopes,
        created_at: createdAt,
        revoked_at: null,
        version: createdAt,
      },
    ]);
    this.keyIds?.ids.add(keyId);
    const record: ApiKeyRecord = {
      keyId,
      organizationId,
      name,
      scopes,
      createdAt: new Date(createdAt).toISOString(),
      revokedAt: null,
    };
    return { key, record };
  }

  async list(organizationId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.clickhouse.query<StoredKeyRow>(
      `SELECT * FROM ${this.clickhouse.table('api_keys')} FINAL
       WHERE organization_id = {organization_id:UUID} ORDER BY created_at, key_id`,
      { organization_id: organizationId },
    );
    return rows.map(toRecord);
  }

  /** Marks a key revoked; returns false when no such key exists. Idempotent. */
  async revoke(keyId: string): Promise<boolean> {
    const row = await this.findById(keyId);
    if (!row) return false;
    if (row.revoked_at) return true;
    const now = Date.now();
    await this.clickhouse.insert('api_keys', [
      {
        ...row,
        created_at: Date.parse(row.created_at + 'Z'),
        revoked_at: now,
        version: Math.max(now, Number(row.version) + 1),
      },
    ]);
    this.cache.delete(keyId);
    return true;
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
    return { keyId: row.key_id, organizationId: row.organization_id, scopes: row.scopes as Scope[] };
  }

  /** Ids of the unrevoked keys, re-read once API_KEY_CACHE_TTL_SECONDS old (a key created since is added at once here). */
  private async existingKeyIds(): Promise<Set<string>> {
    const ttlMs = this.config.apiKeyCacheTtlSeconds * 1000;
    if (!this.keyIds || Date.now() - this.keyIds.readAt >= ttlMs) {
      this.keyIdsRead ??= this.clickhouse
        .query<{ key_id: string }>(`SELECT key_id FROM ${this.clickhouse.table('api_keys')} FINAL WHERE revoked_at IS NULL`)
        .then((rows) => (this.keyIds = { ids: new Set(rows.map((row) => row.key_id)), readAt: Date.now() }))
        .finally(() => (this.keyIdsRead = undefined));
      await this.keyIdsRead;
    }
    return this.keyIds!.ids;
  }
  private keyIds?: { ids: Set<string>; readAt: number };
  private keyIdsRead?: Promise<unknown>;

  private async lookUp(keyId: string): Promise<StoredKeyRow | null> {
    const row = await this.findById(keyId);
    const ttlMs = this.config.apiKeyCacheTtlSeconds * 1000;
    if (ttlMs > 0) {
      if (this.cache.size > 10_000) this.cache.clear(); // bounded: ids of random garbage keys must not grow it
      this.cache.set(keyId, { row, expiresAt: Date.now() + ttlMs });
    }
    return row;
  }

  private async findById(keyId: string): Promise<StoredKeyRow | null> {
    const rows = await this.clickhouse.query<StoredKeyRow>(
      `SELECT * FROM ${this.clickhouse.table('api_keys')} FINAL WHERE key_id = {key_id:String} LIMIT 1`,
      { key_id: keyId },
    );
    return rows[0] ?? null;
  }
}

function toRecord(row: StoredKeyRow): ApiKeyRecord {
  return {
    keyId: row.key_id,
    organizationId: row.organization_id,
    name: row.name,
    scopes: row.scopes as Scope[],
    createdAt: new Date(row.created_at + 'Z').toISOString(),
    revokedAt: row.revoked_at ? new Date(row.revoked_at + 'Z').toISOString() : null,
  };
}
