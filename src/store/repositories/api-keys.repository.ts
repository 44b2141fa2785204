import { Injectable } from '@nestjs/common';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

/** Where a page of GET /v1/admin/api-keys starts: after this key in the list's order (created, then id). */
export interface KeyListPosition {
  createdAtMs: number;
  keyId: string;
}

/** A page of the key list, as asked for: how many keys, and after which. */
export interface KeyListPage {
  limit: number;
  after?: KeyListPosition;
}

/** A version of an API key as stored (api_keys, migrations 0002 and 0011): only the key's SHA-256. */
export interface StoredKeyRow {
  key_id: string;
  organization_id: string;
  name: string;
  key_hash: string;
  scopes: string[];
  data_scope: string;
  created_at: string;
  revoked_at: string | null;
  version: string;
}

/** A version to write: times in milliseconds since the epoch. */
export type KeyVersion = Omit<StoredKeyRow, 'created_at' | 'revoked_at' | 'version'> & {
  created_at: number;
  revoked_at: number | null;
  version: number;
};

/**
 * The SQL of API keys and their last use (api_keys, api_key_usage): a key is rewritten as a newer version (a
 * revocation), readers take the latest with FINAL.
 */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly clickhouse: ClickhouseService) {}

  async write(version: KeyVersion): Promise<void> {
    await this.clickhouse.insert('api_keys', [version]);
  }

  async writeLastUsed(times: { key_id: string; last_used_at: number }[]): Promise<void> {
    await this.clickhouse.insert('api_key_usage', times);
  }

  async findById(keyId: string): Promise<StoredKeyRow | null> {
    const rows = await this.clickhouse.query<StoredKeyRow>(
      `SELECT * FROM ${this.clickhouse.table('api_keys')} FINAL WHERE key_id = {key_id:String} LIMIT 1`,
      { key_id: keyId },
    );
    return rows[0] ?? null;
  }

  /** The ids of every unrevoked key. */
  async activeKeyIds(): Promise<string[]> {
    const rows = await this.clickhouse.query<{ key_id: string }>(
      `SELECT key_id FROM ${this.clickhouse.table('api_keys')} FINAL WHERE revoked_at IS NULL`,
    );
    return rows.map((row) => row.key_id);
  }

  async countActive(organizationId: string): Promise<number> {
    const [row] = await this.clickhouse.query<{ active: string }>(
      `SELECT count() AS active FROM ${this.clickhouse.table('api_keys')} FINAL
       WHERE organization_id = {organization_id:UUID} AND revoked_at IS NULL`,
      { organization_id: organizationId },
    );
    return Number(row?.active ?? 0);
  }

  /** The organisation's keys with their last use, oldest first (then by id): all, or one page (`limit` after `after`). */
  async list(organizationId: string, page?: KeyListPage): Promise<(StoredKeyRow & { last_used_at: string | null })[]> {
    const params: Record<string, unknown> = { organization_id: organizationId };
    let pageSql = '';
    if (page) {
      if (page.after) {
        pageSql += ' AND (toUnixTimestamp64Milli(created_at), key_id) > ({after_ms:Int64}, {after_key:String})';
        Object.assign(params, { after_ms: page.after.createdAtMs, after_key: page.after.keyId });
      }
      pageSql += ' ORDER BY created_at, key_id LIMIT {limit:UInt64}';
      params.limit = page.limit;
    }
    return this.clickhouse.query<StoredKeyRow & { last_used_at: string | null }>(
      `SELECT keys.*, usage.last_used_at AS last_used_at
       FROM (SELECT * FROM ${this.clickhouse.table('api_keys')} FINAL WHERE organization_id = {organization_id:UUID}${pageSql}) AS keys
       LEFT JOIN (
         SELECT key_id, max(last_used_at) AS last_used_at FROM ${this.clickhouse.table('api_key_usage')} GROUP BY key_id
       ) AS usage ON usage.key_id = keys.key_id
       ORDER BY keys.created_at, keys.key_id
       SETTINGS join_use_nulls = 1`,
      params,
    );
  }
}
