import { addDays, dayNumber, formatDayNumber } from '../dates/calendar-date';
import { compareExact, divideExact, ExactDecimal, formatExactDecimal, parseExactDecimal } from './exact-decimal';

/**
 * Exchange rates as loaded (one row per date and currency pair: 1 `base` = `rate` `quote`) and the rate that
 * converts one currency into another on a given day, with where it comes from. Pure: the rates come from the
 * organisation's `exchange_rates` table (src/currency), the answers feed the query kernel.
 */
export interface LoadedRate {
  date: string;
  base: string;
  quote: string;
  /** Exact decimal text, > 0. */
  rate: string;
  source: string;
}

/**
 * A rate's source, as every reader of an answer's `exchange_rates` sees it: a pairs file's `source` column, or the
 * name given to a file without one (`?source=`, `rates import --source`). No text a spreadsheet takes for a formula.
 */
const RATE_SOURCE_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._:/()+-]{0,63}$/u;
export const RATE_SOURCE_RULE = 'must be 1 to 64 letters, digits, spaces or ._:/()+-, starting with a letter or digit';

export function isRateSource(text: string): boolean {
  return RATE_SOURCE_PATTERN.test(text);
}

/** 1 `from` = `rate` `to` on `date`: the loaded rate(s) it is derived from, and how. */
export interface EffectiveRate {
  from: string;
  to: string;
  /** The day (or, by period, the period's last day) it converts. */
  date: string;
  /** Exact decimal text with at most RATE_SCALE places. */
  rate: string;
  /** The date of the loaded rate(s) used: `date`, or the latest earlier one within MAX_RATE_AGE_DAYS. */
  rateDate: string;
  /** `direct`: loaded as from→to; `inverse`: 1 ÷ the loaded to→from; `cross`: to ÷ from, both loaded against `via`. */
  derivation: 'direct' | 'inverse' | 'cross';
  via?: string;
  /** The source of the loaded rate (both, `+`-joined, when a cross rate's legs differ). */
  source: string;
}

/** Places of a derived (inverse or cross) rate, rounded half to even: 18, the scale of the stored rates. */
export const RATE_SCALE = 18;

/**
 * The rates a conversion may apply: 10^-12 to 10^12, both included. A loaded rate outside is refused by the import; a
 * derived one (or one loaded before the bound), as rounded to RATE_SCALE places, is never applied. Symmetric, so the
 * inverse of a rate inside is inside; 12 < RATE_SCALE, so a rate inside never rounds to 0.
 */
const RATE_MAGNITUDE = 12;
export const RATE_RANGE = {
  min: { units: 1n, scale: RATE_MAGNITUDE } as ExactDecimal,
  max: { units: 10n ** BigInt(RATE_MAGNITUDE), scale: 0 } as ExactDecimal,
  text: `1e-${RATE_MAGNITUDE} to 1e${RATE_MAGNITUDE}`,
} as const;

/** Whether a conversion may apply this rate (RATE_RANGE). */
export function isApplicableRate(rate: ExactDecimal): boolean {
  return compareExact(rate, RATE_RANGE.min) >= 0 && compareExact(rate, RATE_RANGE.max) <= 0;
}

/** A derived rate as applied: an inverse (1 ÷ rate) or a cross rate (to leg ÷ from leg), to RATE_SCALE places. */
export function derivedRate(dividend: ExactDecimal, divisor: ExactDecimal): ExactDecimal {
  return divideExact(dividend, divisor, RATE_SCALE);
}

/** A day without a rate takes the latest earlier one up to this many days back (weekends, holidays); older is missing. */
export const MAX_RATE_AGE_DAYS = 7;

/** Which day's rate converts a cost: its usage date's, or the last day of its billing period's (as invoices are). */
export const CONVERSION_POLICIES = ['usage_date', 'period_end'] as const;
export type ConversionPolicy = (typeof CONVERSION_POLICIES)[number];
export const DEFAULT_CONVERSION_POLICY: ConversionPolicy = 'usage_date';

interface StoredRate {
  value: ExactDecimal;
  text: string;
  source: string;
}

const ONE: ExactDecimal = { units: 1n, scale: 0 };

/** An organisation's loaded rates, indexed for lookups by pair and date and by base (cross rates). */
export class RateBook {
  /** `BASE/QUOTE` → date → rate. */
  private readonly pairs = new Map<string, Map<string, StoredRate>>();
  /** base → the quotes it has rates to. */
  private readonly quotesOf = new Map<string, Set<string>>();

  constructor(rates: Iterable<LoadedRate>) {
    for (const rate of rates) {
      const value = parseExactDecimal(rate.rate);
      if (!value || value.units <= 0n) throw new RangeError(`not a positive rate: ${rate.rate}`);
      const key = `${rate.base}/${rate.quote}`;
      const byDate = this.pairs.get(key) ?? new Map<string, StoredRate>();
      this.pairs.set(key, byDate);
      byDate.set(rate.date, { value, text: formatExactDecimal(value), source: rate.source });
      const quotes = this.quotesOf.get(rate.base) ?? new Set<string>();
      this.quotesOf.set(rate.base, quotes);
      quotes.add(rate.quote);
    }
  }

  get size(): number {
    let count = 0;
    for (const byDate of this.pairs.values()) count += byDate.size;
    return count;
  }

  /** The rate a conversion applies (rateFoundOn's, when within RATE_RANGE), or undefined. */
  rateOn(from: string, to: string, date: string): EffectiveRate | undefined {
    const found = this.rateFoundOn(from, to, date);
    return found && isApplicableRate(parseExactDecimal(found.rate)!) ? found : undefined;
  }

  /**
   * The rate converting 1 `from` into `to` on `date`: the loaded rates of that date, else of the latest earlier date
   * within MAX_RATE_AGE_DAYS; on one date a direct rate wins over an inverse one, which wins over a cross rate (the
   * common base first in code order). Undefined when no date within the window has one. It may lie outside
   * RATE_RANGE: such a rate is refused, never replaced by a less preferred or older one.
   */
  rateFoundOn(from: string, to: string, date: string): EffectiveRate | undefined {
    for (let age = 0; age <= MAX_RATE_AGE_DAYS; age++) {
      const rateDate = addDays(date, -age);
      const found = this.direct(from, to, rateDate) ?? this.inverse(from, to, rateDate) ?? this.cross(from, to, rateDate);
      if (found) return { from, to, date, rateDate, ...found };
    }
    return undefined;
  }

  private direct(from: string, to: string, date: string) {
    const stored = this.pairs.get(`${from}/${to}`)?.get(date);
    return stored && { rate: stored.text, derivation: 'direct' as const, source: stored.source };
  }

  private inverse(from: string, to: string, date: string) {
    const stored = this.pairs.get(`${to}/${from}`)?.get(date);
    return stored && { rate: formatExactDecimal(derivedRate(ONE, stored.value)), derivation: 'inverse' as const, source: stored.source };
  }

  private cross(from: string, to: string, date: string) {
    const bases = [...this.quotesOf.keys()].filter((base) => base !== from && base !== to).sort();
    for (const via of bases) {
      const toLeg = this.pairs.get(`${via}/${to}`)?.get(date);
      const fromLeg = toLeg && this.pairs.get(`${via}/${from}`)?.get(date);
      if (!toLeg || !fromLeg) continue;
      const source = toLeg.source === fromLeg.source ? toLeg.source : `${fromLeg.source}+${toLeg.source}`;
      return { rate: formatExactDecimal(derivedRate(toLeg.value, fromLeg.value)), derivation: 'cross' as const, via, source };
    }
    return undefined;
  }
}

/** The last day (`YYYY-MM-DD`) of a billing period `YYYY-MM`. */
export function lastDayOfPeriod(period: string): string {
  const [year, month] = [Number(period.slice(0, 4)), Number(period.slice(5, 7))];
  const nextMonth = month === 12 ? `${year + 1}-01-01` : `${period.slice(0, 4)}-${String(month + 1).padStart(2, '0')}-01`;
  return formatDayNumber(dayNumber(nextMonth) - 1);
}
