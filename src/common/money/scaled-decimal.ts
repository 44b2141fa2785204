// Money as integers: decimal texts of at most 10 places (the store's Decimal scale, as ClickHouse prints its sums) in
// units of 1e-10, so sums, splits and shares are exact.

/** Decimal text (at most 10 places) in units of 1e-10. */
export function scaled(text: string): bigint {
  if (text === '0') return 0n; // most sums of a sparse answer: no parse
  const match = /^(-?)(\d+)(?:\.(\d{1,10}))?$/.exec(text);
  if (!match) throw new Error(`not a decimal of at most 10 places: ${text}`);
  const units = BigInt(match[2]) * 10_000_000_000n + BigInt((match[3] ?? '').padEnd(10, '0'));
  return match[1] === '-' ? -units : units;
}

/** Units of 1e-10 as decimal text, trailing zeros trimmed. */
export function decimalText(units: bigint): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(11, '0');
  const whole = digits.slice(0, -10);
  const fraction = digits.slice(-10).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** `part / whole` rounded half up to 4 decimals (a share of cost, 0 when there is no cost), in integers. */
export function shareHalfUp(part: bigint, whole: bigint): number {
  return whole === 0n ? 0 : Number((part * 20_000n + whole) / (2n * whole)) / 10_000;
}

/** `part / whole` rounded half away from zero to `places` decimals (0 when `whole` is 0), in integers. */
export function fractionHalfUp(part: bigint, whole: bigint, places: number): number {
  if (whole === 0n) return 0;
  const scale = 10n ** BigInt(places);
  const [numerator, denominator] = [(part < 0n ? -part : part) * scale, whole < 0n ? -whole : whole];
  const rounded = (2n * numerator + denominator) / (2n * denominator);
  const negative = part < 0n !== whole < 0n && rounded !== 0n;
  return Number(negative ? -rounded : rounded) / Number(scale);
}
