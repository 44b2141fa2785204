import { keyQuotaShare, lifetimeInWords, quotaExceededMessage } from './shared-filter-limits';

describe('shared filter limits', () => {
  it.each([
    [30 * 86_400, '30 days'],
    [86_400, '1 day'],
    [36 * 3600, '36 hours'],
    [60, '1 minute'],
    [90, '90 seconds'],
    [3, '3 seconds'],
  ])('words a lifetime of %i s as "%s"', (seconds, words) => {
    expect(lifetimeInWords(seconds)).toBe(words);
  });

  it('names the quota, the use, the limit and when filters free up', () => {
    const config = {
      sharedFilterQuotaCount: 1000,
      sharedFilterQuotaBytes: 16 * 1024 * 1024,
      sharedFilterTtlSeconds: 2_592_000,
      sharedFilterMaxBytes: 65_536,
      sharedFilterKeyQuotaPercent: 25,
    };
    expect(quotaExceededMessage('count', { count: 1000, bytes: 5_000_000 }, 800, config)).toBe(
      'Shared filter quota exceeded: this organization has 1000 live shared filters and the limit is 1000 ' +
        '(SHARED_FILTER_QUOTA_COUNT). Filters free up as they expire, 30 days after creation (SHARED_FILTER_TTL_SECONDS).',
    );
    expect(quotaExceededMessage('bytes', { count: 300, bytes: 16_700_000 }, 65_536, config)).toBe(
      "Shared filter quota exceeded: this organization's live shared filters hold 16700000 bytes, and this one " +
        '(65536 bytes) would exceed the limit of 16777216 bytes (SHARED_FILTER_QUOTA_MB = 16). ' +
        'Filters free up as they expire, 30 days after creation (SHARED_FILTER_TTL_SECONDS).',
    );
  });

  it("names the key's (or data scope's) share, its use and how to free it", () => {
    const config = {
      sharedFilterQuotaCount: 1000,
      sharedFilterQuotaBytes: 16 * 1024 * 1024,
      sharedFilterTtlSeconds: 2_592_000,
      sharedFilterMaxBytes: 65_536,
      sharedFilterKeyQuotaPercent: 25,
    };
    const usage = { count: 300, bytes: 5_000_000 };
    expect(quotaExceededMessage('shareCount', usage, 800, config, { count: 250, bytes: 200_000 })).toBe(
      "Shared filter quota exceeded: this API key has 250 live shared filters and its share of the organization's quota is 250 " +
        '(SHARED_FILTER_KEY_QUOTA_PERCENT = 25 of SHARED_FILTER_QUOTA_COUNT). Delete filters that are no longer needed ' +
        '(DELETE /v1/cost-insights/shared-filters/{filterId}) or wait: filters free up as they expire, 30 days after creation (SHARED_FILTER_TTL_SECONDS).',
    );
    expect(quotaExceededMessage('shareBytes', usage, 65_536, config, { count: 70, bytes: 4_190_000 }, true)).toBe(
      'Shared filter quota exceeded: the live shared filters of the API keys of this data scope hold 4190000 bytes, and this one ' +
        "(65536 bytes) would exceed their share of the organization's quota, 4194304 bytes (SHARED_FILTER_KEY_QUOTA_PERCENT = 25 of " +
        'SHARED_FILTER_QUOTA_MB). Delete filters that are no longer needed (DELETE /v1/cost-insights/shared-filters/{filterId}) ' +
        'or wait: filters free up as they expire, 30 days after creation (SHARED_FILTER_TTL_SECONDS).',
    );
  });

  it.each([
    [1000, 16, 65_536, 25, { count: 250, bytes: 4 * 1024 * 1024 }],
    [3, 1, 65_536, 25, { count: 1, bytes: 262_144 }],
    [3, 1, 400_000, 25, { count: 1, bytes: 400_000 }], // at least one filter of the largest size
    [10, 2, 65_536, 100, { count: 10, bytes: 2 * 1024 * 1024 }],
    [7, 1, 4096, 1, { count: 1, bytes: 10_485 }],
  ])('shares %i filters of %i MiB (max %i bytes) at %i %% as %j', (count, mb, maxBytes, percent, share) => {
    expect(
      keyQuotaShare({
        sharedFilterQuotaCount: count,
        sharedFilterQuotaBytes: mb * 1024 * 1024,
        sharedFilterMaxBytes: maxBytes,
        sharedFilterKeyQuotaPercent: percent,
        sharedFilterTtlSeconds: 60,
      }),
    ).toEqual(share);
  });
});
