import { decimalText } from '../common/money/scaled-decimal';

/** Exact addition of decimal texts (as ClickHouse prints Decimal sums), for reconciliation totals. */
const SCALE = 10;
const FACTOR = 10n ** BigInt(SCALE);

function decimalTextToScaled(text: string): bigint {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`not a decimal: ${text}`);
  const [, sign, whole, fraction = ''] = match;
  const scaled = BigInt(whole) * FACTOR + BigInt(fraction.slice(0, SCALE).padEnd(SCALE, '0'));
  return sign ? -scaled : scaled;
}

/** A file's sums as read: places beyond the store's 10 are cut, as the store keeps them. */
export function addDecimalStrings(a: string, b: string): string {
  return decimalText(decimalTextToScaled(a) + decimalTextToScaled(b));
}
