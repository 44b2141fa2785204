/**
 * Exact decimal arithmetic for expected values in tests: amounts are inserted as decimal strings
 * and summed here as scaled BigInts, so an expectation never inherits float error.
 */
const SCALE = 10;
const FACTOR = 10n ** BigInt(SCALE);

export function toScaled(value: string): bigint {
  const match = /^(-)?(\d+)(?:\.(\d{1,10}))?$/.exec(value);
  if (!match) throw new Error(`not a decimal with at most ${SCALE} places: ${value}`);
  const [, sign, whole, fraction = ''] = match;
  const scaled = BigInt(whole) * FACTOR + BigInt(fraction.padEnd(SCALE, '0'));
  return sign ? -scaled : scaled;
}

/** The exact sum of decimal strings, as the nearest JSON number. */
export function sumDecimals(values: string[]): number {
  return scaledToNumber(values.reduce((total, value) => total + toScaled(value), 0n));
}

export function scaledToNumber(scaled: bigint): number {
  const negative = scaled < 0n;
  const abs = negative ? -scaled : scaled;
  const text = `${abs / FACTOR}.${(abs % FACTOR).toString().padStart(SCALE, '0')}`;
  return Number(negative ? `-${text}` : text);
}

/** The exact sum of decimal strings as decimal text, without trailing zeros (as ClickHouse writes a Decimal). */
export function sumDecimalText(values: string[]): string {
  const scaled = values.reduce((total, value) => total + toScaled(value), 0n);
  const negative = scaled < 0n;
  const abs = negative ? -scaled : scaled;
  const fraction = (abs % FACTOR).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / FACTOR}${fraction ? `.${fraction}` : ''}`;
}
