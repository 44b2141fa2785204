import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../common/errors/api-errors';
import type { AppConfig } from '../config/app-config';
import type { SharedFilterLimit, SharedFilterUsage } from '../store/shared-filters/shared-filter.store';

/** The 400 detail for a configuration over SHARED_FILTER_MAX_BYTES. */
export function configurationTooLargeDetail(bytes: number, maxBytes: number): string {
  return `filterConfiguration: ${bytes} bytes as stored, over the limit of ${maxBytes} bytes (SHARED_FILTER_MAX_BYTES); use fewer or shorter filter values.`;
}

/**
 * 403, not 429: waiting a moment does not help (clients retry 429 automatically), only expiry frees
 * quota. The message names the limit, the organisation's use and when filters free up.
 */
export class SharedFilterQuotaExceededException extends ApiError {
  constructor(message: string) {
    super(HttpStatus.FORBIDDEN, message);
  }
}

type QuotaSettings = Pick<
  AppConfig,
  'sharedFilterQuotaCount' | 'sharedFilterQuotaBytes' | 'sharedFilterTtlSeconds' | 'sharedFilterMaxBytes' | 'sharedFilterKeyQuotaPercent'
>;

/**
 * The share of the organisation's quota that one key's live filters may hold (one data scope's, for scoped keys):
 * SHARED_FILTER_KEY_QUOTA_PERCENT of each limit, rounded down, but at least one filter of the largest size.
 */
export function keyQuotaShare(config: QuotaSettings): { count: number; bytes: number } {
  const percent = config.sharedFilterKeyQuotaPercent;
  return {
    count: Math.max(1, Math.floor((config.sharedFilterQuotaCount * percent) / 100)),
    bytes: Math.min(
      config.sharedFilterQuotaBytes,
      Math.max(config.sharedFilterMaxBytes, Math.floor((config.sharedFilterQuotaBytes * percent) / 100)),
    ),
  };
}

export const DELETE_HINT = 'DELETE /v1/cost-insights/shared-filters/{filterId}';

export function quotaExceededMessage(
  exceeded: SharedFilterLimit,
  usage: SharedFilterUsage,
  configurationBytes: number,
  config: QuotaSettings,
  share: SharedFilterUsage = { count: 0, bytes: 0 },
  scoped = false,
): string {
  const freedBy = `Filters free up as they expire, ${lifetimeInWords(config.sharedFilterTtlSeconds)} after creation (SHARED_FILTER_TTL_SECONDS).`;
  if (exceeded === 'shareCount' || exceeded === 'shareBytes') {
    const [owner, has, its] = scoped ? ['the API keys of this data scope', 'have', 'their'] : ['this API key', 'has', 'its'];
    const limit = keyQuotaShare(config);
    const percent = `SHARED_FILTER_KEY_QUOTA_PERCENT = ${config.sharedFilterKeyQuotaPercent}`;
    const used =
      exceeded === 'shareCount'
        ? `${owner} ${has} ${share.count} live shared filters and ${its} share of the organization's quota is ${limit.count} ` +
          `(${percent} of SHARED_FILTER_QUOTA_COUNT).`
        : `the live shared filters of ${owner} hold ${share.bytes} bytes, and this one (${configurationBytes} bytes) would exceed ` +
          `${its} share of the organization's quota, ${limit.bytes} bytes (${percent} of SHARED_FILTER_QUOTA_MB).`;
    return `Shared filter quota exceeded: ${used} Delete filters that are no longer needed (${DELETE_HINT}) or wait: ${freedBy.charAt(0).toLowerCase()}${freedBy.slice(1)}`;
  }
  if (exceeded === 'count') {
    return (
      `Shared filter quota exceeded: this organization has ${usage.count} live shared filters ` +
      `and the limit is ${config.sharedFilterQuotaCount} (SHARED_FILTER_QUOTA_COUNT). ${freedBy}`
    );
  }
  return (
    `Shared filter quota exceeded: this organization's live shared filters hold ${usage.bytes} bytes, ` +
    `and this one (${configurationBytes} bytes) would exceed the limit of ${config.sharedFilterQuotaBytes} bytes ` +
    `(SHARED_FILTER_QUOTA_MB = ${config.sharedFilterQuotaBytes / 1024 ** 2}). ${freedBy}`
  );
}

/** `30 days`, `1 day`, `12 hours`, `90 seconds`: the largest whole unit, so the default reads in days. */
export function lifetimeInWords(seconds: number): string {
  const units: Array<[string, number]> = [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ];
  const [unit, size] = units.find(([, length]) => seconds % length === 0) ?? ['second', 1];
  const amount = seconds / size;
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}
