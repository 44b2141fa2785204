import { randomBytes } from 'node:crypto';

/**
 * Shared filter IDs: `sf_` + base64url of 18 random bytes (144 bits, 24 characters). Anyone holding
 * an ID within the owning organisation can read the filter, so IDs must be unguessable, not sequential.
 */
export const FILTER_ID_PREFIX = 'sf_';
const RANDOM_BYTES = 18;
export const FILTER_ID_PATTERN = /^sf_[A-Za-z0-9_-]{24}$/;
export const FILTER_ID_FORMAT_DESCRIPTION = '"sf_" followed by 24 base64url characters (144 random bits)';
export const FILTER_ID_EXAMPLE = 'sf_kX3v9QmT2bL8wN5rHc1zYa0d';

export function generateFilterId(): string {
  return FILTER_ID_PREFIX + randomBytes(RANDOM_BYTES).toString('base64url');
}

export function isFilterId(value: string): boolean {
  return FILTER_ID_PATTERN.test(value);
}
