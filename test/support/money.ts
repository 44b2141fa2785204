/**
 * Exact money for test expectations, written independently of the service's own code: decimal text as a
 * BigInt numerator over a power of ten, products exact, quotients rounded half to even at a fixed scale,
 * answers rounded half away from zero to 10 places (as the API documents its converted numbers).
 */
export interface Exact {
  n: bigint;
  scale: number;
}

export function exact(text: string): Exact {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not decimal text: ${text}`);
  const fraction = match[3] ?? '';
  const n = BigInt(match[2] + fraction);
  return { n: match[1] ? -n : n, scale: fraction.length };
}

function aligned(a: Exact, scale: number): bigint {
  return a.n * 10n ** BigInt(scale - a.scale);
}

export function plus(a: Exact, b: Exact): Exact {
  const scale = Math.max(a.scale, b.scale);
  return { n: aligned(a, scale) + aligned(b, scale), scale };
}

export function sum(values: Exact[]): Exact {
  return values.reduce(plus, { n: 0n, scale: 0 });
}

export function times(a: Exact, b: Exact): Exact {
  return { n: a.n * b.n, scale: a.scale + b.scale };
}

/** a ÷ b to `scale` places, half to even (how the API derives an inverse or cross rate, to 18 places). */
export function dividedBy(a: Exact, b: Exact, scale = 18): Exact {
  const numerator = a.n * 10n ** BigInt(b.scale + scale);
  const denominator = b.n * 10n ** BigInt(a.scale);
  let q = numerator / denominator;
  const r = numerator % denominator;
  const twice = 2n * (r < 0n ? -r : r);
  const d = denominator < 0n ? -denominator : denominator;
  if (twice > d || (twice === d && q % 2n !== 0n)) q += numerator < 0n !== denominator < 0n ? -1n : 1n;
  return { n: q, scale };
}

/** Rounded half away from zero to `places`. */
export function rounded(a: Exact, places = 10): Exact {
  if (a.scale <= places) return a;
  const factor = 10n ** BigInt(a.scale - places);
  const magnitude = a.n < 0n ? -a.n : a.n;
  let q = magnitude / factor;
  if ((magnitude % factor) * 2n >= factor) q += 1n;
  return { n: a.n < 0n ? -q : q, scale: places };
}

/** Shortest decimal text (no trailing zeros), as ClickHouse writes a Decimal. */
export function text(a: Exact): string {
  const negative = a.n < 0n;
  const digits = (negative ? -a.n : a.n).toString().padStart(a.scale + 1, '0');
  const whole = digits.slice(0, digits.length - a.scale);
  const fraction = digits.slice(digits.length - a.scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The JSON number an exact amount is answered as. */
export function asNumber(a: Exact): number {
  return Number(text(a));
}
