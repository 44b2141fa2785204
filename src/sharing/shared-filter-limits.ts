import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../common/errors/api-errors';
import type { AppConfig } from '../config/app-config';
import type { SharedFilterUsage } from './storage/shared-filter.store';

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

export function quotaExceededMessage(
  exceeded: 'count' | 'bytes',
  usage: SharedFilterUsage,
  configurationBytes: number,
  config: Pick<AppConfig, 'sharedFilterQuotaCount' | 'sharedFilterQuotaBytes' | 'sharedFilterTtlSeconds'>,
): string {
  const freedBy = `Filters free up as they expire, ${lifetimeInWords(config.sharedFilterTtlSeconds)} after creation (SHARED_FILTER_TTL_SECONDS).`;
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
