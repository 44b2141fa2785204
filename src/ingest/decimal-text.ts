/** Exact addition of decimal texts (as ClickHouse prints Decimal sums), for reconciliation totals. */
const SCALE = 10;
const FACTOR = 10n ** BigInt(SCALE);

export function decimalTextToScaled(text: string): bigint {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`not a decimal: ${text}`);
  const [, sign, whole, fraction = ''] = match;
  const scaled = BigInt(whole) * FACTOR + BigInt(fraction.slice(0, SCALE).padEnd(SCALE, '0'));
  return sign ? -scaled : scaled;
}

export function scaledToDecimalText(scaled: bigint): string {
  const negative = scaled < 0n;
  const abs = negative ? -scaled : scaled;
  const fraction = (abs % FACTOR).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / FACTOR}${fraction ? `.${fraction}` : ''}`;
}

export function addDecimalStrings(a: string, b: string): string {
  return scaledToDecimalText(decimalTextToScaled(a) + decimalTextToScaled(b));
}
