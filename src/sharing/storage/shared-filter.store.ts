import { SharedFilterConfiguration } from '../shared-filter-configuration';

/** One stored shared filter. The organisation is kept with it: reads by another organisation must fail. */
export interface SharedFilterRecord {
  filterId: string;
  organizationId: string;
  configuration: SharedFilterConfiguration;
  /** ISO-8601 UTC. */
  createdAt: string;
  /** The creating key's data scope (canonical JSON; '' for a key that sees its whole organisation). */
  creatorDataScope: string;
}

/** A filter about to be stored, with the size the quota counts (computed once by the caller). */
export interface NewSharedFilter extends SharedFilterRecord {
  /** UTF-8 bytes of the stored configuration JSON (sharedFilterConfigurationBytes). */
  configurationBytes: number;
}

/** What a save must respect: the filter's lifetime and its organisation's quota of live filters. */
export interface SharedFilterSaveLimits {
  ttlSeconds: number;
  quotaCount: number;
  quotaBytes: number;
}

/** An organisation's live (unexpired) shared filters, as the quota counts them. */
export interface SharedFilterUsage {
  count: number;
  /** Sum of configurationBytes. */
  bytes: number;
}

/** Saved, or refused (nothing written) because the organisation's quota would be exceeded. */
export type SharedFilterSaveOutcome = { saved: true } | { saved: false; exceeded: 'count' | 'bytes'; usage: SharedFilterUsage };

/**
 * Where shared filters live: Redis when REDIS_URL is set (shared by every instance, native expiry),
 * otherwise the ClickHouse table `shared_filters`. Both expire records after the given TTL, check the
 * organisation's quota and store in one step, and fail with UpstreamUnavailableException (never hang)
 * when their backend does not answer.
 */
export interface SharedFilterStore {
  save(filter: NewSharedFilter, limits: SharedFilterSaveLimits): Promise<SharedFilterSaveOutcome>;
  /** The record, or undefined when it does not exist or has expired. */
  find(filterId: string): Promise<SharedFilterRecord | undefined>;
}

/** The refusal when saving `filter` would take the organisation past a limit, else undefined. */
export function quotaRefusal(
  usage: SharedFilterUsage,
  filter: NewSharedFilter,
  limits: SharedFilterSaveLimits,
): SharedFilterSaveOutcome | undefined {
  if (usage.count + 1 > limits.quotaCount) return { saved: false, exceeded: 'count', usage };
  if (usage.bytes + filter.configurationBytes > limits.quotaBytes) return { saved: false, exceeded: 'bytes', usage };
  return undefined;
}

export const SHARED_FILTER_STORE = Symbol('SHARED_FILTER_STORE');

export const SHARED_FILTER_STORAGE_NAME = 'Shared filter storage';
