/**
 * Exact decimal numbers for money and exchange rates: an integer of units of 10^-scale (BigInt), never a
 * binary double. Parsing is strict (plain decimal notation only); division is the one operation that rounds,
 * and it says how.
 */
export interface ExactDecimal {
  units: bigint;
  scale: number;
}

const DECIMAL_TEXT = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** `12.50`, `-0.3`, `7`: plain decimal text (no exponent, no thousands separators); undefined otherwise. */
export function parseExactDecimal(text: string): ExactDecimal | undefined {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt(`${whole}${fraction}`);
  return { units: sign === '-' ? -units : units, scale: fraction.length };
}

/** The shortest plain text of a decimal (no trailing fraction zeros, no exponent): `1.5`, `-0.0023`, `12`. */
export function formatExactDecimal({ units, scale }: ExactDecimal): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * a ÷ b to `scale` decimal places, rounded half to even (a tie goes to the even last digit, so repeated roundings
 * do not drift up). Throws on a zero divisor.
 */
export function divideExact(a: ExactDecimal, b: ExactDecimal, scale: number): ExactDecimal {
  if (b.units === 0n) throw new RangeError('division by zero');
  // a/b = (a.units / 10^a.scale) / (b.units / 10^b.scale); scaled by 10^scale:
  let numerator = a.units * 10n ** BigInt(scale + b.scale);
  let denominator = b.units * 10n ** BigInt(a.scale);
  if (denominator < 0n) [numerator, denominator] = [-numerator, -denominator];
  const quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator - quotient * denominator;
  const twice = 2n * (remainder < 0n ? -remainder : remainder);
  let units = quotient;
  if (twice > denominator || (twice === denominator && quotient % 2n !== 0n)) units += numerator < 0n ? -1n : 1n;
  return { units, scale };
}

/** Numeric order of two decimals (-1, 0, 1). */
export function compareExact(a: ExactDecimal, b: ExactDecimal): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.units * powerOfTen(scale - a.scale);
  const y = b.units * powerOfTen(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** 10^n, the common ones computed once (a rates file compares hundreds of thousands of rates). */
const POWERS_OF_TEN = Array.from({ length: 40 }, (_, n) => 10n ** BigInt(n));
function powerOfTen(n: number): bigint {
  return POWERS_OF_TEN[n] ?? 10n ** BigInt(n);
}

/** a × b, exactly. */
export function multiplyExact(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}
