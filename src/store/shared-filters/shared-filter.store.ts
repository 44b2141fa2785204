import { SharedFilterConfiguration } from './shared-filter-configuration';

/** One stored shared filter. The organisation is kept with it: reads by another organisation must fail. */
export interface SharedFilterRecord {
  filterId: string;
  organizationId: string;
  configuration: SharedFilterConfiguration;
  /** ISO-8601 UTC. */
  createdAt: string;
  /** The creating key's data scope (canonical JSON; '' for a key that sees its whole organisation). */
  creatorDataScope: string;
  /** The creating key's public id ('' for filters created before it was recorded: only an admin key deletes those). */
  creatorKeyId: string;
  /** UTF-8 bytes of the stored configuration, as the quotas count them. */
  configurationBytes: number;
  /** ClickHouse store: when the row expires (a deletion's tombstone expires with it). */
  expiresAt?: string;
}

/** A filter about to be stored, with the size the quota counts (computed once by the caller). */
export type NewSharedFilter = Omit<SharedFilterRecord, 'expiresAt'>;

/**
 * What a save must respect: the filter's lifetime, its organisation's quota of live filters, and the share of it
 * that the filters of the creating key's holder may hold: the keys whose filters count together (the creating key
 * alone; for a data-scoped key, every unrevoked key of that scope). Filters of revoked keys count for nobody's share.
 */
export interface SharedFilterSaveLimits {
  ttlSeconds: number;
  quotaCount: number;
  quotaBytes: number;
  shareCount: number;
  shareBytes: number;
  /** The ids of the keys whose live filters count against the share, the creating key among them. */
  holderKeyIds: string[];
}

/** An organisation's live (unexpired) shared filters, as the quota counts them. */
export interface SharedFilterUsage {
  count: number;
  /** Sum of configurationBytes. */
  bytes: number;
}

/** Which limit a refused save would have exceeded: the organisation's, or the share of the key (or its data scope). */
export type SharedFilterLimit = 'count' | 'bytes' | 'shareCount' | 'shareBytes';

/** Saved, or refused (nothing written) because the organisation's quota or the key's share would be exceeded. */
export type SharedFilterSaveOutcome =
  { saved: true } | { saved: false; exceeded: SharedFilterLimit; usage: SharedFilterUsage; share: SharedFilterUsage };

/**
 * Where shared filters live: Redis when REDIS_URL is set (shared by every instance, native expiry),
 * otherwise the ClickHouse table `shared_filters`. Both expire records after the given TTL, check the
 * organisation's quota and store in one step, and fail with UpstreamUnavailableException (never hang)
 * when their backend does not answer.
 */
export interface SharedFilterStore {
  save(filter: NewSharedFilter, limits: SharedFilterSaveLimits): Promise<SharedFilterSaveOutcome>;
  /** The record, or undefined when it does not exist, has expired or was deleted. */
  find(filterId: string): Promise<SharedFilterRecord | undefined>;
  /**
   * Deletes a record `find` returned and frees its quota (the organisation's and its creator's) at once; false
   * when it was gone meanwhile (expired, or deleted by another request).
   */
  delete(record: SharedFilterRecord): Promise<boolean>;
}

/**
 * The refusal when saving `filter` would take the organisation (`usage`) or the holder of its creating key (`share`)
 * past a limit, else undefined. The organisation's limits first (as before shares existed), then the share's.
 */
export function quotaRefusal(
  usage: SharedFilterUsage,
  share: SharedFilterUsage,
  filter: NewSharedFilter,
  limits: SharedFilterSaveLimits,
): SharedFilterSaveOutcome | undefined {
  const refused = (exceeded: SharedFilterLimit): SharedFilterSaveOutcome => ({ saved: false, exceeded, usage, share });
  if (usage.count + 1 > limits.quotaCount) return refused('count');
  if (usage.bytes + filter.configurationBytes > limits.quotaBytes) return refused('bytes');
  if (share.count + 1 > limits.shareCount) return refused('shareCount');
  if (share.bytes + filter.configurationBytes > limits.shareBytes) return refused('shareBytes');
  return undefined;
}

export const SHARED_FILTER_STORE = Symbol('SHARED_FILTER_STORE');

export const SHARED_FILTER_STORAGE_NAME = 'Shared filter storage';
