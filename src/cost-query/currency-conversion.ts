import { addDays, dayNumber } from '../common/dates/calendar-date';
import { parseExactDecimal } from '../common/money/exact-decimal';
import { ConversionPolicy, EffectiveRate, isApplicableRate, lastDayOfPeriod, RateBook } from '../common/money/exchange-rates';
import { resolveDateRange, WhereOptions } from './filter-compiler';
import { DateRange, FilterFields } from './filters.types';
import { SqlParameters } from './sql-parameters';

/**
 * Money in one currency: how a statement converts the amounts of rows billed in other currencies into the answer's
 * currency. The kernel sums each (billing currency, usage day — or billing period —) group exactly, multiplies that
 * Decimal sum by the group's rate (Decimal256, no rounding), adds the products, and rounds the answer's numbers once,
 * to 10 places. Rows already in the answer's currency are multiplied by 1: an answer whose rows are all in it is
 * exactly the unconverted one.
 */

/** Where the org's rows in one currency lie: per billing period, the first and last usage day. */
export interface CurrencyPresence {
  currency: string;
  billingPeriod: string;
  firstDay: string;
  lastDay: string;
}

/** The conversion of one answer: its currency, and a rate for every (currency, day or period) it may meet. */
export interface CurrencyConversion {
  target: string;
  policy: ConversionPolicy;
  /** Every rate the statement may apply, by currency; its key is a usage day (`usage_date`) or a billing period. */
  rates: Map<string, Map<string, EffectiveRate>>;
  /** Keys with costs in that currency in the answer's window but no rate it may apply: what a refusal names. */
  missing: Map<string, string[]>;
  /** Of the `missing` keys, those whose rate was found but lies outside RATE_RANGE: that rate, by key. */
  unusable: Map<string, Map<string, EffectiveRate>>;
}

/**
 * The dates an answer may read: its date ranges (none: any date, as with billing periods and no dateRange) and the
 * billing periods it is filtered to (none: any). A superset is always safe (it only adds rates to the statement); a
 * smaller one would refuse answers, so every caller gives at least what its statements read.
 */
export interface AnswerWindow {
  dateRanges?: DateRange[];
  billingPeriods?: string[];
}

/** The window of a statement compiled by compileWhere with these inclusions and options. */
export function windowOf(inclusions: FilterFields, options: WhereOptions): AnswerWindow {
  const range = resolveDateRange(inclusions, options);
  return { dateRanges: range && [range], billingPeriods: inclusions.billingPeriods };
}

/**
 * The conversion an answer needs, or undefined when the organisation has no cost outside `target` in the window (the
 * statements are then exactly the unconverted ones). A rate for each day (or period) on which the organisation has
 * costs in another currency inside the window; the days without one are `missing`.
 */
export function planConversion(
  target: string,
  policy: ConversionPolicy,
  presence: readonly CurrencyPresence[],
  window: AnswerWindow,
  book: RateBook,
): CurrencyConversion | undefined {
  const periods = window.billingPeriods?.length ? new Set(window.billingPeriods) : undefined;
  const rates = new Map<string, Map<string, EffectiveRate>>();
  const missing = new Map<string, Set<string>>();
  const unusable = new Map<string, Map<string, EffectiveRate>>();
  for (const entry of presence) {
    if (entry.currency === target || (periods && !periods.has(entry.billingPeriod))) continue;
    const spans = spansIn({ start: entry.firstDay, end: entry.lastDay }, window.dateRanges);
    if (spans.length === 0) continue;
    const byKey = rates.get(entry.currency) ?? new Map<string, EffectiveRate>();
    rates.set(entry.currency, byKey);
    for (const key of policy === 'usage_date' ? spans.flatMap(daysOf) : [entry.billingPeriod]) {
      if (byKey.has(key) || missing.get(entry.currency)?.has(key)) continue;
      const rate = rateFor(book, entry.currency, target, policy, key);
      if (rate && isApplicableRate(parseExactDecimal(rate.rate)!)) {
        byKey.set(key, rate);
        continue;
      }
      missing.set(entry.currency, (missing.get(entry.currency) ?? new Set()).add(key));
      if (rate) unusable.set(entry.currency, (unusable.get(entry.currency) ?? new Map<string, EffectiveRate>()).set(key, rate));
    }
  }
  if (rates.size === 0) return undefined;
  return { target, policy, rates, missing: new Map([...missing].map(([currency, keys]) => [currency, [...keys].sort()])), unusable };
}

/**
 * The rate found for a day, or for a period (its last day's), applicable or not; none for a period that is not
 * `YYYY-MM` (a row without one).
 */
function rateFor(book: RateBook, from: string, to: string, policy: ConversionPolicy, key: string): EffectiveRate | undefined {
  if (policy === 'usage_date') return book.rateFoundOn(from, to, key);
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(key) ? book.rateFoundOn(from, to, lastDayOfPeriod(key)) : undefined;
}

/** The parts of `span` inside the ranges (all of it without ranges). */
function spansIn(span: DateRange, ranges: DateRange[] | undefined): DateRange[] {
  if (!ranges) return [span];
  return ranges.flatMap((range) => {
    const start = span.start > range.start ? span.start : range.start;
    const end = span.end < range.end ? span.end : range.end;
    return start <= end ? [{ start, end }] : [];
  });
}

function daysOf(span: DateRange): string[] {
  const count = dayNumber(span.end) - dayNumber(span.start) + 1;
  return Array.from({ length: count }, (_, i) => addDays(span.start, i));
}

/** The message a statement fails with when it meets a (currency, day) its conversion has no rate for. */
export const MISSING_RATE_SIGNAL = 'CI_MISSING_EXCHANGE_RATE';

/** A complete build of an organisation's converted sums (src/currency/converted-sums.service.ts) and its table. */
export interface ConvertedSums {
  table: string;
  buildId: string;
  /** The currencies the build converted: bit i of its rows' `converted_bit` is the i-th. */
  currencies: string[];
}

/** Most currencies one answer converts: the bits of a UInt64 (an organisation bills in a handful). */
export const MAX_CONVERTED_CURRENCIES = 52;

/** Places of the answer's converted numbers (those of the stored amounts). */
export const ANSWER_SCALE = 10;

/**
 * One SELECT's share of a converting statement: the rows it reads (`condition`, ANDed to the statement's WHERE), the
 * GROUP BY keys its partial sums need beside the statement's own, the partial sums and each group's currency bit.
 */
export interface MoneyBranch {
  /** The table the branch reads instead of the statement's (a build of converted sums). */
  from?: string;
  condition?: string;
  groupKeys: string[];
  /** Partial sums of `columns` in the answer's currency, the rate written once (as the alias `group_rate`). */
  sums(columns: readonly string[]): string[];
  /** The group's bits among the converted currencies (MoneySql.convertedCurrencies; 0 for the answer's own). */
  currencyBit: string;
}

/**
 * The SQL of money in one statement. Without a conversion, one SELECT of plain `sum(column)`s. With one, two SELECTs
 * whose rows are UNION ALL-ed: the rows already in the answer's currency, summed as they are (so a monthly question
 * still reads the monthly projection), and the rows in other currencies, summed per (currency, day or period) and
 * multiplied by that group's rate.
 */
export class MoneySql {
  private rate?: string;

  /** `sums`: a complete build of the conversion's converted sums, read instead of converting the cost rows. */
  constructor(
    readonly conversion: CurrencyConversion | undefined,
    private readonly params: SqlParameters,
    private readonly sums?: ConvertedSums,
  ) {}

  /**
   * The branches of one aggregation: one without a conversion, the answer's own currency and the others with one —
   * or, from a build of converted sums, one branch summing amounts already in the answer's currency (their
   * currencies' bits ORed).
   */
  branches(): MoneyBranch[] {
    const plain = (columns: readonly string[]) => columns.map((column) => `sum(${column})`);
    if (!this.conversion) return [{ groupKeys: [], sums: plain, currencyBit: 'toUInt64(0)' }];
    if (this.sums) {
      const build = this.params.named('build_id', 'UUID', this.sums.buildId);
      return [
        { from: this.sums.table, condition: `build_id = ${build}`, groupKeys: [], sums: plain, currencyBit: 'groupBitOr(converted_bit)' },
      ];
    }
    const target = this.params.named('currency', 'String', this.conversion.target);
    return [
      {
        condition: `billing_currency = ${target}`,
        groupKeys: [],
        sums: (columns) => columns.map((column) => `toDecimal256(sum(${column}), ${ANSWER_SCALE})`),
        currencyBit: 'toUInt64(0)',
      },
      {
        condition: `billing_currency != ${target}`,
        groupKeys: ['billing_currency', this.conversion.policy === 'usage_date' ? 'usage_date' : 'billing_period'],
        sums: (columns) =>
          columns.map(
            (column, i) =>
              `toDecimal256(sum(${column}), ${ANSWER_SCALE}) * ${i === 0 ? `(${this.rateSql()} AS group_rate)` : 'group_rate'}`,
          ),
        currencyBit: this.currencyBit(),
      },
    ];
  }

  /**
   * One aggregation as the SQL of its rows: `build` writes a branch's SELECT (its WHERE gains `where(branch)`), and
   * the branches are UNION ALL-ed.
   */
  select(build: (branch: MoneyBranch, where: (base: string) => string) => string): string {
    return this.branches()
      .map((branch) => build(branch, (base) => (branch.condition ? `${base}\n  AND ${branch.condition}` : base)))
      .join('\nUNION ALL\n');
  }

  /**
   * Partial sums re-added, in the answer's numbers (Decimal(38, 10)), rounded half away from zero. The exact
   * Decimal256 sum is first cut to one more place (a conversion truncates toward zero), then rounded there as a
   * Decimal128: the same digits (the extra digit alone decides the rounding of a value cut toward zero), at a fraction
   * of the cost of rounding the Decimal256 (bench: 59.9 → 47.6 ms for 12 months by account).
   */
  total(partialSums: string): string {
    if (!this.conversion) return partialSums;
    return `toDecimal128(round(toDecimal128(${partialSums}, ${ANSWER_SCALE + 1}), ${ANSWER_SCALE}), ${ANSWER_SCALE})`;
  }

  /** Whether the branches give one partial row per group of the statement's own keys (the items can be counted). */
  onePartPerGroup(): boolean {
    const branches = this.branches();
    return branches.length === 1 && branches[0].groupKeys.length === 0;
  }

  /** The codes of the currencies converted, from the OR of the partial rows' bits (`bits`: that aggregate). */
  convertedCurrencies(bits: string): string {
    const codes = this.sums?.currencies ?? [...this.conversion!.rates.keys()];
    return `arrayMap(bit -> ${this.params.named('converted_codes', 'Array(String)', codes)}[bit + 1], bitPositionsToArray(${bits}))`;
  }

  private currencyBit(): string {
    return currencyBitSql([...this.conversion!.rates.keys()], this.params);
  }

  /**
   * The rate of a group of another currency, looked up by `<currency>|<day or period>` in the statement's rate
   * parameters (a hash lookup per group, after the aggregation). A group without one stops the statement with
   * MISSING_RATE_SIGNAL: never a silent 1:1.
   */
  private rateSql(): string {
    if (this.rate) return this.rate;
    const conversion = this.conversion!;
    const keys: string[] = [];
    const values: string[] = [];
    for (const [currency, byKey] of conversion.rates) {
      for (const [key, rate] of byKey) {
        keys.push(`${currency}|${key}`);
        values.push(rate.rate);
      }
    }
    const keyColumn = conversion.policy === 'usage_date' ? 'toString(usage_date)' : 'billing_period';
    const index = `transform(concat(billing_currency, '|', ${keyColumn}), ${this.params.named('rate_keys', 'Array(String)', keys)}, ${this.params.named(
      'rate_indexes',
      'Array(UInt32)',
      keys.map((_, i) => i + 1),
    )}, 0)`;
    const rates = `arrayMap(rate -> toDecimal128(rate, 18), ${this.params.named('rate_values', 'Array(String)', values)})`;
    this.rate = `arrayElement(${rates}, ${index} + throwIf(${index} = 0, '${MISSING_RATE_SIGNAL}'))`;
    return this.rate;
  }
}

/** A row's bit among `codes` (bit i: the i-th), from its billing currency; 0 for any other currency. */
export function currencyBitSql(codes: string[], params: SqlParameters): string {
  const bits = codes.map((_, i) => 2 ** i);
  return `transform(billing_currency, ${params.named('converted_codes', 'Array(String)', codes)}, ${params.named('converted_bits', 'Array(UInt64)', bits)}, toUInt64(0))`;
}
