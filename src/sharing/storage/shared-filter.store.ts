import { SharedFilterConfiguration } from '../shared-filter-configuration';

/** One stored shared filter. The organisation is kept with it: reads by another organisation must fail. */
export interface SharedFilterRecord {
  filterId: string;
  organizationId: string;
  configuration: SharedFilterConfiguration;
  /** ISO-8601 UTC. */
  createdAt: string;
}

/**
 * Where shared filters live: Redis when REDIS_URL is set (shared by every instance, native expiry),
 * otherwise the ClickHouse table `shared_filters`. Both expire records after the given TTL and fail
 * with UpstreamUnavailableException (never hang) when their backend does not answer.
 */
export interface SharedFilterStore {
  save(record: SharedFilterRecord, ttlSeconds: number): Promise<void>;
  /** The record, or undefined when it does not exist or has expired. */
  find(filterId: string): Promise<SharedFilterRecord | undefined>;
}

export const SHARED_FILTER_STORE = Symbol('SHARED_FILTER_STORE');

export const SHARED_FILTER_STORAGE_NAME = 'Shared filter storage';
