import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { BuildClaims } from '../../common/cache/background-builds';

/** Extends the lease only while this holder still has it (another may have taken it after it expired). */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * A lease in Redis: at most one holder at a time across every process sharing the Redis; a holder that dies loses
 * it after `ttlMs` (the bound on a crashed holder blocking the others). Without Redis (one process) always held.
 */
export class RedisLease {
  private readonly token = randomUUID();

  constructor(
    private readonly redis: Redis | null,
    readonly key: string,
    private readonly ttlMs: number,
  ) {}

  /** Takes the lease, or keeps it if held: true when this holder has it now. */
  async acquire(): Promise<boolean> {
    if (!this.redis) return true;
    if ((await this.redis.set(this.key, this.token, 'PX', this.ttlMs, 'NX')) === 'OK') return true;
    return this.renew();
  }

  async renew(): Promise<boolean> {
    if (!this.redis) return true;
    return Number(await this.redis.eval(RENEW, 1, this.key, this.token, String(this.ttlMs))) === 1;
  }

  async release(): Promise<void> {
    if (this.redis) await this.redis.eval(RELEASE, 1, this.key, this.token);
  }
}

/**
 * Claims on background builds (common/cache/background-builds.ts) across instances: a claim is held until released
 * or `ttlMs` passed. Without Redis, or with it unreachable, every claim is granted (this process builds; a second
 * instance building the same key at worst writes a build nobody reads).
 */
export function redisBuildClaims(redis: Redis | null, ttlMs: number): BuildClaims {
  return {
    claim: async (claim) => {
      if (!redis) return true;
      try {
        return (await redis.set(claim, '1', 'PX', ttlMs, 'NX')) === 'OK';
      } catch {
        return true;
      }
    },
    release: async (claim) => {
      await redis?.del(claim).catch(() => undefined);
    },
  };
}
