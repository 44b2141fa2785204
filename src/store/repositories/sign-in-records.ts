import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { clickhouseTimestamp } from '../../common/dates/clickhouse-time';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

/** What the sign-in keeps server-side: a pending sign-in (between the redirect and the callback) or a session. */
export type SignInRecordKind = 'pending' | 'session';

/**
 * Records shared by every instance (Redis, else ClickHouse: migration 0025), keyed by the SHA-256 of a browser's random
 * cookie value, so neither store holds a usable cookie. A record ends at its expiry or when ended; `take` ends it on
 * reading (a pending sign-in is used once: a replayed callback finds nothing).
 */
export interface SignInRecords {
  put(kind: SignInRecordKind, cookie: string, payload: object, expiresAtMs: number): Promise<void>;
  /** Extends a record that still exists (never one ended meanwhile, e.g. by a sign-out racing a request). */
  touch(kind: SignInRecordKind, cookie: string, payload: object, expiresAtMs: number): Promise<void>;
  get<T>(kind: SignInRecordKind, cookie: string): Promise<T | undefined>;
  take<T>(kind: SignInRecordKind, cookie: string): Promise<T | undefined>;
  end(kind: SignInRecordKind, cookie: string): Promise<void>;
}

export const SIGN_IN_RECORDS = Symbol('SIGN_IN_RECORDS');

function recordKey(kind: SignInRecordKind, cookie: string): string {
  return `${kind}:${createHash('sha256').update(cookie).digest('hex')}`;
}

export class RedisSignInRecords implements SignInRecords {
  constructor(private readonly redis: Redis) {}

  async put(kind: SignInRecordKind, cookie: string, payload: object, expiresAtMs: number): Promise<void> {
    await this.redis.set(this.key(kind, cookie), JSON.stringify(payload), 'PXAT', Math.ceil(expiresAtMs));
  }

  async touch(kind: SignInRecordKind, cookie: string, payload: object, expiresAtMs: number): Promise<void> {
    await this.redis.set(this.key(kind, cookie), JSON.stringify(payload), 'PXAT', Math.ceil(expiresAtMs), 'XX');
  }

  async get<T>(kind: SignInRecordKind, cookie: string): Promise<T | undefined> {
    const stored = await this.redis.get(this.key(kind, cookie));
    return stored === null ? undefined : (JSON.parse(stored) as T);
  }

  async take<T>(kind: SignInRecordKind, cookie: string): Promise<T | undefined> {
    const stored = await this.redis.getdel(this.key(kind, cookie));
    return stored === null ? undefined : (JSON.parse(stored) as T);
  }

  async end(kind: SignInRecordKind, cookie: string): Promise<void> {
    await this.redis.del(this.key(kind, cookie));
  }

  private key(kind: SignInRecordKind, cookie: string): string {
    return `cost-insights:sign-in:${recordKey(kind, cookie)}`;
  }
}

interface StoredRow {
  payload: string;
  expires_ms: string;
  ended: number;
}

/**
 * Without Redis. Append-only (a Distributed table takes no updates): the newest row of a key is the record, unless a
 * row ended it. `take`
 * writes the end after reading, so two callbacks racing within milliseconds could both read a pending sign-in; the
 * provider's code is itself single-use, so the second exchange fails at the provider.
 */
export class ClickhouseSignInRecords implements SignInRecords {
  constructor(private readonly clickhouse: ClickhouseService) {}

  async put(kind: SignInRecordKind, cookie: string, payload: object, expiresAtMs: number): Promise<void> {
    await this.write(recordKey(kind, cookie), JSON.stringify(payload), expiresAtMs, 0);
  }

  /** A later row of the key is its activity; any ended row ends it for good. */
  touch(kind: SignInRecordKind, cookie: string, payload: object, expiresAtMs: number): Promise<void> {
    return this.put(kind, cookie, payload, expiresAtMs);
  }

  async get<T>(kind: SignInRecordKind, cookie: string): Promise<T | undefined> {
    const [row] = await this.clickhouse.query<StoredRow>(
      `SELECT argMax(payload, written_at) AS payload, max(ended) AS ended,
              toString(toUnixTimestamp64Milli(argMax(expires_at, written_at))) AS expires_ms
       FROM ${this.clickhouse.table('sign_in_records')}
       WHERE record_key = {key:String}`,
      { key: recordKey(kind, cookie) },
    );
    if (!row || Number(row.ended) === 1 || Number(row.expires_ms) <= Date.now()) return undefined;
    return JSON.parse(row.payload) as T;
  }

  async take<T>(kind: SignInRecordKind, cookie: string): Promise<T | undefined> {
    const record = await this.get<T>(kind, cookie);
    if (record !== undefined) await this.end(kind, cookie);
    return record;
  }

  async end(kind: SignInRecordKind, cookie: string): Promise<void> {
    // Kept as long as any earlier row of the key could be: a day (the longest session is bounded by the settings).
    await this.write(recordKey(kind, cookie), '', Date.now() + 31 * 86_400_000, 1);
  }

  private async write(key: string, payload: string, expiresAtMs: number, ended: 0 | 1): Promise<void> {
    await this.clickhouse.insert('sign_in_records', [
      {
        record_key: key,
        payload,
        written_at: clickhouseTimestamp(new Date()),
        expires_at: clickhouseTimestamp(new Date(expiresAtMs)),
        ended,
      },
    ]);
  }
}
