import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { UpstreamUnavailableException } from '../../common/errors/api-errors';
import { metrics } from '../../observability/prometheus-metrics';
import {
  redisSharedFilterKey,
  redisSharedFilterKeySetKey,
  redisSharedFilterQuotaKeys,
} from '../../infrastructure/redis/redis-key-prefixes';
import { serializeSharedFilterConfiguration } from '../../store/shared-filters/shared-filter-configuration';
import {
  NewSharedFilter,
  SHARED_FILTER_STORAGE_NAME,
  SharedFilterLimit,
  SharedFilterRecord,
  SharedFilterSaveLimits,
  SharedFilterSaveOutcome,
  SharedFilterStore,
} from '../../store/shared-filters/shared-filter.store';

/** Shared by both scripts: Redis's clock, and the byte size a member carries. */
const LUA_COMMON = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local function bytesOf(member) return tonumber(string.match(member, ':(%d+)$')) end
`;

/**
 * Checks the organisation's quota and the share of the creating key's holder and stores the filter in one atomic
 * step, so concurrent creations on any number of instances cannot all pass. Redis's own clock (TIME; in a writing
 * script since Redis 5) dates the expiries, as it does the filter key's EX.
 * The limits mirror quotaRefusal (shared-filter.store.ts).
 *
 * KEYS: filter key, quota `filters` set, quota `bytes` total, the creating key's set, then the sets of the other keys
 * of its holder (for a data-scoped key: the other unrevoked keys of the scope).
 * ARGV: stored value, TTL seconds, filter id, configuration bytes, quota count, quota bytes, share count, share bytes.
 * Returns { outcome ('saved' | 'count' | 'bytes' | 'shareCount' | 'shareBytes' | 'collision'), live count, live
 * bytes, the holder's live count, the holder's live bytes } (before this filter).
 */
const SAVE_WITHIN_QUOTA_LUA = `${LUA_COMMON}
local filterKey, filtersKey, bytesKey, ownKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local value, ttlSeconds, filterId = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local bytes, quotaCount, quotaBytes = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local shareCount, shareBytes = tonumber(ARGV[7]), tonumber(ARGV[8])

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

-- The holder's use: the members of its keys' sets, summed (each set is at most a share long).
local heldCount, heldBytes = 0, 0
for i = 4, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  for _, member in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
    heldCount = heldCount + 1
    heldBytes = heldBytes + bytesOf(member)
  end
end

local function refused(limit) return { limit, count, total, heldCount, heldBytes } end
if count + 1 > quotaCount then return refused('count') end
if total + bytes > quotaBytes then return refused('bytes') end
if heldCount + 1 > shareCount then return refused('shareCount') end
if heldBytes + bytes > shareBytes then return refused('shareBytes') end
if not redis.call('SET', filterKey, value, 'EX', ttlSeconds, 'NX') then return refused('collision') end
local member = filterId .. ':' .. bytes
redis.call('ZADD', filtersKey, now + ttlSeconds * 1000, member)
redis.call('ZADD', ownKey, now + ttlSeconds * 1000, member)
redis.call('SET', bytesKey, total + bytes)
-- The accounting lives as long as its longest-lived filter (the TTL setting may change between saves).
local keepUntil = tonumber(redis.call('ZRANGE', filtersKey, -1, -1, 'WITHSCORES')[2])
redis.call('PEXPIREAT', filtersKey, keepUntil)
redis.call('PEXPIREAT', bytesKey, keepUntil)
redis.call('PEXPIREAT', ownKey, tonumber(redis.call('ZRANGE', ownKey, -1, -1, 'WITHSCORES')[2]))
return { 'saved', count, total, heldCount, heldBytes }
`;

/**
 * Deletes a filter and frees its quota in one atomic step: the filter key, its member of the organisation's set
 * (and its bytes of the total) and of its creating key's set. Nothing to free when the filter key was gone already.
 *
 * KEYS: filter key, quota `filters` set, quota `bytes` total, the creating key's set (or the filters set again).
 * ARGV: filter id.
 * Returns 1 when the filter was deleted, 0 when it was gone.
 */
const DELETE_LUA = `${LUA_COMMON}
local filterKey, filtersKey, bytesKey, creatorKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local prefix = ARGV[1] .. ':'
if redis.call('DEL', filterKey) == 0 then return 0 end
local function remove(setKey)
  local freed = 0
  for _, member in ipairs(redis.call('ZRANGE', setKey, 0, -1)) do
    if string.sub(member, 1, #prefix) == prefix then
      redis.call('ZREM', setKey, member)
      freed = freed + bytesOf(member)
    end
  end
  return freed
end
local freed = remove(filtersKey)
local total = tonumber(redis.call('GET', bytesKey) or '')
-- KEEPTTL: the total keeps expiring with its set (a missing total is rebuilt by the next save).
if total then redis.call('SET', bytesKey, math.max(0, total - freed), 'KEEPTTL') end
if creatorKey ~= filtersKey then remove(creatorKey) end
return 1
`;

type SaveWithinQuotaReply = [SharedFilterLimit | 'saved' | 'collision', number, number, number, number];

interface SharedFilterCommands {
  saveSharedFilterWithinQuota(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<SaveWithinQuotaReply>;
  deleteSharedFilter(...keysAndArgs: string[]): Promise<number>;
}

/** What a filter key holds (the filter id is the key's name). */
interface StoredValue {
  organizationId: string;
  configuration: SharedFilterRecord['configuration'];
  createdAt: string;
  creatorDataScope?: string;
  creatorKeyId?: string;
  configurationBytes?: number;
}

/** One JSON string per filter, written with `SET … EX ttl NX`: Redis itself expires it. */
export class RedisSharedFilterStore implements SharedFilterStore {
  private readonly logger = new Logger(RedisSharedFilterStore.name);

  constructor(private readonly redis: Redis) {
    // EVALSHA, falling back to EVAL when the server does not know the script yet. The save takes a key count first.
    redis.defineCommand('saveSharedFilterWithinQuota', { lua: SAVE_WITHIN_QUOTA_LUA });
    redis.defineCommand('deleteSharedFilter', { numberOfKeys: 4, lua: DELETE_LUA });
  }

  private get commands(): SharedFilterCommands {
    return this.redis as unknown as SharedFilterCommands;
  }

  async save(filter: NewSharedFilter, limits: SharedFilterSaveLimits): Promise<SharedFilterSaveOutcome> {
    const stored: StoredValue = {
      organizationId: filter.organizationId,
      configuration: filter.configuration,
      createdAt: filter.createdAt,
      creatorDataScope: filter.creatorDataScope,
      creatorKeyId: filter.creatorKeyId,
      configurationBytes: filter.configurationBytes,
    };
    const quotaKeys = redisSharedFilterQuotaKeys(filter.organizationId);
    const holderSets = [filter.creatorKeyId, ...limits.holderKeyIds.filter((keyId) => keyId !== filter.creatorKeyId)].map((keyId) =>
      redisSharedFilterKeySetKey(filter.organizationId, keyId),
    );
    const keys = [redisSharedFilterKey(filter.filterId), quotaKeys.filters, quotaKeys.bytes, ...holderSets];
    const [outcome, count, bytes, heldCount, heldBytes] = await this.call('save', () =>
      this.commands.saveSharedFilterWithinQuota(
        keys.length,
        ...keys,
        JSON.stringify(stored),
        limits.ttlSeconds,
        filter.filterId,
        filter.configurationBytes,
        limits.quotaCount,
        limits.quotaBytes,
        limits.shareCount,
        limits.shareBytes,
      ),
    );
    // NX: a (144-bit) ID collision must never overwrite another organisation's filter.
    if (outcome === 'collision') throw new Error(`Shared filter ID collision on ${filter.filterId}`);
    if (outcome === 'saved') return { saved: true };
    return { saved: false, exceeded: outcome, usage: { count, bytes }, share: { count: heldCount, bytes: heldBytes } };
  }

  async find(filterId: string): Promise<SharedFilterRecord | undefined> {
    const value = await this.call('find', () => this.redis.get(redisSharedFilterKey(filterId)));
    if (value === null) return undefined;
    const stored = JSON.parse(value) as StoredValue;
    return {
      filterId,
      organizationId: stored.organizationId,
      configuration: stored.configuration,
      createdAt: stored.createdAt,
      // Filters stored before keys had data scopes were all created by keys without one; before creators were
      // recorded, no key is theirs (only an admin key deletes them).
      creatorDataScope: stored.creatorDataScope ?? '',
      creatorKeyId: stored.creatorKeyId ?? '',
      configurationBytes: stored.configurationBytes ?? Buffer.byteLength(serializeSharedFilterConfiguration(stored.configuration)),
    };
  }

  async delete(record: SharedFilterRecord): Promise<boolean> {
    const quotaKeys = redisSharedFilterQuotaKeys(record.organizationId);
    const creatorSet = record.creatorKeyId ? redisSharedFilterKeySetKey(record.organizationId, record.creatorKeyId) : quotaKeys.filters;
    const deleted = await this.call('delete', () =>
      this.commands.deleteSharedFilter(
        redisSharedFilterKey(record.filterId),
        quotaKeys.filters,
        quotaKeys.bytes,
        creatorSet,
        record.filterId,
      ),
    );
    return deleted === 1;
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
