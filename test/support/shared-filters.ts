import type Redis from 'ioredis';

/** Shared-filter configurations of exact sizes and the quota messages, for the shared-filter suites (e2e and timing). */

/** Every FilterFields field as a read shows it when unset (written out here, not taken from the code). */
export const UNSET_FIELDS = {
  costLayers: [],
  clouds: [],
  services: [],
  resourceFamilies: [],
  regions: [],
  instanceTypes: [],
  usageTypes: [],
  billingPeriods: [],
  dateRange: null,
  costTypes: [],
  accountIds: [],
  integrationIds: [],
  resourceTag: null,
  resourceTagValues: [],
  costCategory: null,
  costCategoryValues: [],
  billingCurrencies: [],
  allocatedMethods: [],
};

/** A configuration already in the stored (normalised) form, so what is stored is exactly its JSON. */
export function storedForm(services: string[], description: string, name = '') {
  return {
    filters: { inclusions: { ...UNSET_FIELDS, services }, exclusions: UNSET_FIELDS },
    groupBy: { dateGrouping: 'daily', dimension: null },
    metric: 'amortized_cost',
    comparisonEnabled: false,
    metadata: { name, description },
  };
}

export const storedBytes = (configuration: unknown) => Buffer.byteLength(JSON.stringify(configuration));

/**
 * A configuration whose stored JSON is exactly `bytes` UTF-8 bytes: values of 500 characters, then a
 * description of 'é' (two bytes each) to land on the exact size, so bytes (not characters) are counted.
 */
export function configurationOfBytes(bytes: number, tag = 'v') {
  // Each 500-character value adds 502 bytes (quoted) and, after the first, a comma.
  const count = Math.max(0, Math.floor((bytes - storedBytes(storedForm([], '')) + 1) / 503));
  const services = Array.from({ length: count }, (_, n) => `${tag}${n}`.padEnd(500, 'x'));
  const missing = bytes - storedBytes(storedForm(services, ''));
  const configuration = storedForm(services, `${'é'.repeat(Math.floor(missing / 2))}${missing % 2 ? 'd' : ''}`);
  expect(storedBytes(configuration)).toBe(bytes);
  return configuration;
}

export const countQuotaMessage = (live: number, limit: number, lifetime: string) =>
  `Shared filter quota exceeded: this organization has ${live} live shared filters and the limit is ${limit} ` +
  `(SHARED_FILTER_QUOTA_COUNT). Filters free up as they expire, ${lifetime} after creation (SHARED_FILTER_TTL_SECONDS).`;

export const bytesQuotaMessage = (live: number, size: number, megabytes: number, lifetime: string) =>
  `Shared filter quota exceeded: this organization's live shared filters hold ${live} bytes, and this one ` +
  `(${size} bytes) would exceed the limit of ${megabytes * 1024 * 1024} bytes (SHARED_FILTER_QUOTA_MB = ${megabytes}). ` +
  `Filters free up as they expire, ${lifetime} after creation (SHARED_FILTER_TTL_SECONDS).`;

/** The 403 of a key (`scoped`: of the keys of one data scope) over its share of the organisation's count quota. */
export const shareCountMessage = (live: number, share: number, percent: number, lifetime: string, scoped = false) =>
  `Shared filter quota exceeded: ${scoped ? 'the API keys of this data scope have' : 'this API key has'} ${live} live shared filters ` +
  `and ${scoped ? 'their' : 'its'} share of the organization's quota is ${share} (SHARED_FILTER_KEY_QUOTA_PERCENT = ${percent} of ` +
  'SHARED_FILTER_QUOTA_COUNT). Delete filters that are no longer needed (DELETE /v1/cost-insights/shared-filters/{filterId}) ' +
  `or wait: filters free up as they expire, ${lifetime} after creation (SHARED_FILTER_TTL_SECONDS).`;

/** The 403 of a key over its share of the organisation's byte quota. */
export const shareBytesMessage = (live: number, size: number, share: number, percent: number, lifetime: string, scoped = false) =>
  `Shared filter quota exceeded: the live shared filters of ${scoped ? 'the API keys of this data scope' : 'this API key'} hold ` +
  `${live} bytes, and this one (${size} bytes) would exceed ${scoped ? 'their' : 'its'} share of the organization's quota, ` +
  `${share} bytes (SHARED_FILTER_KEY_QUOTA_PERCENT = ${percent} of SHARED_FILTER_QUOTA_MB). Delete filters that are no longer ` +
  `needed (DELETE /v1/cost-insights/shared-filters/{filterId}) or wait: filters free up as they expire, ${lifetime} after ` +
  'creation (SHARED_FILTER_TTL_SECONDS).';

/** Redis mode: an organisation's quota accounting (ids and byte sizes of the members, the byte total, their TTLs). */
export async function quotaAccounting(redis: Redis, organizationId: string) {
  const filtersKey = `cost-insights:shared-filter-quota:${organizationId}:filters`;
  const bytesKey = `cost-insights:shared-filter-quota:${organizationId}:bytes`;
  const members = await redis.zrange(filtersKey, '0', '-1');
  return {
    ids: members.map((member) => member.split(':')[0]).sort(),
    memberBytes: members.reduce((sum, member) => sum + Number(member.split(':')[1]), 0),
    total: Number((await redis.get(bytesKey)) ?? 0),
    ttlsMs: [await redis.pttl(filtersKey), await redis.pttl(bytesKey)],
  };
}

/** Redis mode: the filter ids in one key's accounting set (the members its share counts). */
export async function keyAccounting(redis: Redis, organizationId: string, keyId: string): Promise<string[]> {
  const members = await redis.zrange(`cost-insights:shared-filter-quota:${organizationId}:key:${keyId}`, '0', '-1');
  return members.map((member) => member.split(':')[0]).sort();
}
