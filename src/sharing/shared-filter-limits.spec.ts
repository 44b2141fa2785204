import { lifetimeInWords, quotaExceededMessage } from './shared-filter-limits';

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
    const config = { sharedFilterQuotaCount: 1000, sharedFilterQuotaBytes: 16 * 1024 * 1024, sharedFilterTtlSeconds: 2_592_000 };
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
});
