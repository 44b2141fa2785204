import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { UpstreamUnavailableException } from '../../common/errors/api-errors';
import { metrics } from '../../observability/prometheus-metrics';
import {
  NewSharedFilter,
  SHARED_FILTER_STORAGE_NAME,
  SharedFilterRecord,
  SharedFilterSaveLimits,
  SharedFilterSaveOutcome,
  SharedFilterStore,
} from './shared-filter.store';

export const REDIS_SHARED_FILTER_KEY_PREFIX = 'cost-insights:shared-filter:';
export const REDIS_SHARED_FILTER_QUOTA_KEY_PREFIX = 'cost-insights:shared-filter-quota:';

export function redisSharedFilterKey(filterId: string): string {
  return REDIS_SHARED_FILTER_KEY_PREFIX + filterId;
}

/**
 * An organisation's quota accounting: a sorted set of its live filters (member `<filterId>:<bytes>`,
 * score = expiry in epoch ms) and the running sum of their bytes.
 */
export function redisSharedFilterQuotaKeys(organizationId: string): { filters: string; bytes: string } {
  const prefix = `${REDIS_SHARED_FILTER_QUOTA_KEY_PREFIX}${organizationId}:`;
  return { filters: `${prefix}filters`, bytes: `${prefix}bytes` };
}

/**
 * Checks the quota and stores the filter in one atomic step, so concurrent creations on any number of
 * instances cannot all pass. Redis's own clock (TIME; in a writing script since Redis 5) dates the
 * expiries, as it does the filter key's EX.
 * The limits mirror quotaRefusal (shared-filter.store.ts).
 *
 * KEYS: filter key, quota `filters` set, quota `bytes` total.
 * ARGV: stored value, TTL seconds, filter id, configuration bytes, quota count, quota bytes.
 * Returns { outcome ('saved' | 'count' | 'bytes' | 'collision'), live count, live bytes (before this filter) }.
 */
const SAVE_WITHIN_QUOTA_LUA = `
local filterKey, filtersKey, bytesKey = KEYS[1], KEYS[2], KEYS[3]
local value, ttlSeconds, filterId = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local bytes, quotaCount, quotaBytes = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local function bytesOf(member) return tonumber(string.match(member, ':(%d+)$')) end

local total = tonumber(redis.call('GET', bytesKey) or '')
local expired = redis.call('ZRANGEBYSCORE', filtersKey, '-inf', now)
if #expired > 0 then
  redis.call('ZREMRANGEBYSCORE', filtersKey, '-inf', now)
  if total then
    for _, member in ipairs(expired) do total = total - bytesOf(member) end
  end
end
local count = redis.call('ZCARD', filtersKey)
-- Rebuild the total if it is missing (never expected: both keys expire together) so it cannot drift.
if count == 0 then
  total = 0
elseif not total then
  total = 0
  for _, member in ipairs(redis.call('ZRANGE', filtersKey, 0, -1)) do total = total + bytesOf(member) end
end

if count + 1 > quotaCount then return { 'count', count, total } end
if total + bytes > quotaBytes then return { 'bytes', count, total } end
if not redis.call('SET', filterKey, value, 'EX', ttlSeconds, 'NX') then return { 'collision', count, total } end
redis.call('ZADD', filtersKey, now + ttlSeconds * 1000, filterId .. ':' .. bytes)
redis.call('SET', bytesKey, total + bytes)
-- The accounting lives as long as its longest-lived filter (the TTL setting may change between saves).
local keepUntil = tonumber(redis.call('ZRANGE', filtersKey, -1, -1, 'WITHSCORES')[2])
redis.call('PEXPIREAT', filtersKey, keepUntil)
redis.call('PEXPIREAT', bytesKey, keepUntil)
return { 'saved', count, total }
`;

type SaveWithinQuotaReply = ['saved' | 'count' | 'bytes' | 'collision', number, number];

interface SaveWithinQuotaCommand {
  saveSharedFilterWithinQuota(...keysAndArgs: Array<string | number>): Promise<SaveWithinQuotaReply>;
}

/** One JSON string per filter, written with `SET … EX ttl NX`: Redis itself expires it. */
export class RedisSharedFilterStore implements SharedFilterStore {
  private readonly logger = new Logger(RedisSharedFilterStore.name);

  constructor(private readonly redis: Redis) {
    // EVALSHA, falling back to EVAL when the server does not know the script yet.
    redis.defineCommand('saveSharedFilterWithinQuota', { numberOfKeys: 3, lua: SAVE_WITHIN_QUOTA_LUA });
  }

  async save(filter: NewSharedFilter, limits: SharedFilterSaveLimits): Promise<SharedFilterSaveOutcome> {
    const value = JSON.stringify({
      organizationId: filter.organizationId,
      configuration: filter.configuration,
      createdAt: filter.createdAt,
      creatorDataScope: filter.creatorDataScope,
    });
    const quotaKeys = redisSharedFilterQuotaKeys(filter.organizationId);
    const [outcome, count, bytes] = await this.call('save', () =>
      (this.redis as unknown as SaveWithinQuotaCommand).saveSharedFilterWithinQuota(
        redisSharedFilterKey(filter.filterId),
        quotaKeys.filters,
        quotaKeys.bytes,
        value,
        limits.ttlSeconds,
        filter.filterId,
        filter.configurationBytes,
        limits.quotaCount,
        limits.quotaBytes,
      ),
    );
    // NX: a (144-bit) ID collision must never overwrite another organisation's filter.
    if (outcome === 'collision') throw new Error(`Shared filter ID collision on ${filter.filterId}`);
    if (outcome === 'saved') return { saved: true };
    return { saved: false, exceeded: outcome, usage: { count, bytes } };
  }

  async find(filterId: string): Promise<SharedFilterRecord | undefined> {
    const value = await this.call('find', () => this.redis.get(redisSharedFilterKey(filterId)));
    if (value === null) return undefined;
    const stored = JSON.parse(value) as Omit<SharedFilterRecord, 'filterId'>;
    // Filters stored before keys had data scopes were all created by keys without one.
    return { filterId, ...stored, creatorDataScope: stored.creatorDataScope ?? '' };
  }

  /** The client rejects at once while disconnected (no offline queue) and times out hung commands. */
  private async call<T>(operation: string, command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      metrics.redisErrors.inc({ operation: 'shared_filters' });
      this.logger.error(`Redis ${operation} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new UpstreamUnavailableException(SHARED_FILTER_STORAGE_NAME);
    }
  }
}
