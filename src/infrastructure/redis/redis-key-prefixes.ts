/**
 * The Redis keys that hold state worth keeping (the rest, rate-limit counters and leases, are rebuilt on their own):
 * shared filters and their quota accounting. Their store writes them (sharing/storage) through the builders below;
 * backups export and restore exactly the keys of these shapes (backup/), and refuse a backup naming any other.
 */
export const SHARED_FILTER_KEYS_PREFIX = 'cost-insights:shared-filter';
export const REDIS_SHARED_FILTER_KEY_PREFIX = `${SHARED_FILTER_KEYS_PREFIX}:`;
export const REDIS_SHARED_FILTER_QUOTA_KEY_PREFIX = `${SHARED_FILTER_KEYS_PREFIX}-quota:`;

/** An id inside a key (a filter id, an organisation id, an API key id): base64url characters, never `:` or a glob. */
const ID = '[A-Za-z0-9_-]{1,64}';
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** The keys of shared-filter state: a filter, an organisation's quota set and byte sum, one API key's set of filters. */
const SHARED_FILTER_STATE_KEY = new RegExp(
  `^(?:${escaped(REDIS_SHARED_FILTER_KEY_PREFIX)}${ID}|${escaped(REDIS_SHARED_FILTER_QUOTA_KEY_PREFIX)}${ID}:(?:filters|bytes|key:${ID}))$`,
);

export function isSharedFilterStateKey(key: string): boolean {
  return SHARED_FILTER_STATE_KEY.test(key);
}

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

/** The live filters one key created, as the organisation's set holds them (the shares sum these sets' members). */
export function redisSharedFilterKeySetKey(organizationId: string, keyId: string): string {
  return `${REDIS_SHARED_FILTER_QUOTA_KEY_PREFIX}${organizationId}:key:${keyId}`;
}
