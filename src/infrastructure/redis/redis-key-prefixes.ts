/**
 * The Redis keys that hold state worth keeping (the rest, rate-limit counters and leases, are rebuilt on their own):
 * shared filters and their quota accounting. Their store writes them (sharing/storage); backups export and restore
 * every key under SHARED_FILTER_KEYS_PREFIX (backup/).
 */
export const SHARED_FILTER_KEYS_PREFIX = 'cost-insights:shared-filter';
export const REDIS_SHARED_FILTER_KEY_PREFIX = `${SHARED_FILTER_KEYS_PREFIX}:`;
export const REDIS_SHARED_FILTER_QUOTA_KEY_PREFIX = `${SHARED_FILTER_KEYS_PREFIX}-quota:`;
