import { scaled, decimalText } from '../common/money/scaled-decimal';

/** The store's places (scaled-decimal.ts): a file's sums carry at most as many as the store keeps. */
const BEYOND_THE_STORE = /(\.\d{10})\d+$/;

/**
 * Exact addition of decimal texts (as ClickHouse prints Decimal sums), for reconciliation totals. A file's sums as
 * read: places beyond the store's 10 are cut, as the store keeps them.
 */
export function addDecimalStrings(a: string, b: string): string {
  const stored = (text: string) => scaled(text.trim().replace(BEYOND_THE_STORE, '$1'));
  return decimalText(stored(a) + stored(b));
}
