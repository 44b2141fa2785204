import { isCalendarDate } from '../common/dates/calendar-date';
import { isCurrencyCode } from '../common/money/currency-codes';
import { compareExact, ExactDecimal, formatExactDecimal, parseExactDecimal } from '../common/money/exact-decimal';
import {
  derivedRate,
  isApplicableRate,
  isRateSource,
  LoadedRate,
  RATE_RANGE,
  RATE_SCALE,
  RATE_SOURCE_RULE,
} from '../common/money/exchange-rates';

/**
 * The two rate files `rates import` and POST /v1/admin/exchange-rates read, parsed and checked whole before anything
 * is stored (a file with one bad line changes nothing):
 *
 * - `ecb`: the European Central Bank's reference rates as published (eurofxref-hist.csv, eurofxref.csv): a header
 *   `Date,USD,JPY,…` (a trailing comma and spaces allowed), one line per business day, 1 EUR = value; `N/A` or an
 *   empty cell where a currency had no rate that day;
 * - `pairs`: `date,from,to,rate` (and optionally `,source`): 1 `from` = `rate` `to`.
 */
export type RatesFileFormat = 'ecb' | 'pairs';

/** Rate dates accepted: from the ECB's first reference rates (1999) through the API's last date, with slack before. */
export const RATE_DATES = { first: '1990-01-01', last: '2099-12-31' } as const;
/** Most rates one file may hold: one insert of one block, so a load is all or nothing. */
export const MAX_RATES_PER_FILE = 1_000_000;
/** Problems listed in one refusal; the count of the rest follows. */
const MAX_PROBLEMS_LISTED = 20;

export interface ParsedRatesFile {
  format: RatesFileFormat;
  rates: LoadedRate[];
  /** Per pair `BASE/QUOTE`: how many rates and their first and last date. */
  pairs: { pair: string; rates: number; first: string; last: string }[];
}

export class RatesFileError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

interface Cell {
  line: number;
  rate: LoadedRate;
  value: ExactDecimal;
}

/** Parses a rates file; `defaultSource` names rates whose file does not (the ECB format: `ECB`). Throws RatesFileError. */
export function parseRatesFile(text: string, defaultSource?: string): ParsedRatesFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = splitCsvLine(lines[0] ?? '');
  const problems: string[] = [];
  const cells: Cell[] = [];
  let format: RatesFileFormat;
  if (header[0]?.toLowerCase() === 'date' && header[1]?.toLowerCase() === 'from') {
    format = 'pairs';
    readPairs(header, lines, defaultSource, cells, problems);
  } else if (header[0] === 'Date' && header.length > 1) {
    format = 'ecb';
    readEcb(header, lines, defaultSource ?? 'ECB', cells, problems);
  } else {
    throw new RatesFileError([
      'line 1: expected the header of an ECB reference-rate file (Date,USD,JPY,…) or of a pairs file (date,from,to,rate or date,from,to,rate,source)',
    ]);
  }
  if (problems.length === 0 && cells.length === 0) problems.push('the file holds no rate');
  if (cells.length > MAX_RATES_PER_FILE)
    problems.push(`the file holds ${cells.length} rates; at most ${MAX_RATES_PER_FILE} load at once (split it)`);
  const unique = problems.length === 0 ? withoutDuplicates(cells, problems) : [];
  if (problems.length === 0) checkCrossRates(unique, problems);
  if (problems.length > 0) throw new RatesFileError(listed(problems));
  const rates = unique.map((cell) => cell.rate);
  return { format, rates, pairs: pairSummary(rates) };
}

function readPairs(header: string[], lines: string[], defaultSource: string | undefined, cells: Cell[], problems: string[]): void {
  const names = header.map((name) => name.toLowerCase());
  const withSource = names.length === 5 && names[4] === 'source';
  if (names.join(',') !== 'date,from,to,rate' && !withSource) {
    problems.push(`line 1: the header must be date,from,to,rate or date,from,to,rate,source, not ${header.join(',')}`);
    return;
  }
  if (!withSource && !defaultSource) {
    problems.push(
      'line 1: the file has no source column; name the source of its rates with ?source=<name> on POST /v1/admin/exchange-rates (--source <name> for `rates import`), or add a source column',
    );
    return;
  }
  if (!withSource && !isRateSource(defaultSource!)) {
    problems.push(`the source of its rates ${RATE_SOURCE_RULE}`);
    return;
  }
  forEachLine(lines, (fields, line) => {
    if (fields.length !== names.length) {
      problems.push(`line ${line}: expected ${names.length} fields, found ${fields.length}`);
      return;
    }
    const [date, from, to, rate, source] = fields;
    const before = problems.length;
    checkDate(date, line, problems);
    checkCurrency(from, line, problems);
    checkCurrency(to, line, problems);
    if (from === to && isCurrencyCode(from)) problems.push(`line ${line}: a rate from ${from} to itself`);
    const checked = checkRate(rate, line, problems);
    if (withSource && !isRateSource(source)) problems.push(`line ${line}: the source ${RATE_SOURCE_RULE}`);
    if (problems.length === before && checked !== undefined) {
      const { text, value } = checked;
      cells.push({ line, value, rate: { date, base: from, quote: to, rate: text, source: withSource ? source : defaultSource! } });
    }
  });
}

function readEcb(header: string[], lines: string[], source: string, cells: Cell[], problems: string[]): void {
  if (!isRateSource(source)) return void problems.push(`the source of its rates ${RATE_SOURCE_RULE}`);
  // The published files end every line with a comma: an empty last column.
  const codes = header.slice(1);
  while (codes.length > 0 && codes[codes.length - 1] === '') codes.pop();
  codes.forEach((code, i) => {
    if (!isCurrencyCode(code)) problems.push(`line 1: column ${i + 2} (${JSON.stringify(code)}) is not an ISO 4217 currency code`);
    else if (code === 'EUR') problems.push('line 1: an ECB file quotes rates against EUR; it has no EUR column');
  });
  if (problems.length > 0) return;
  forEachLine(lines, (fields, line) => {
    while (fields.length > codes.length + 1 && fields[fields.length - 1] === '') fields.pop();
    if (fields.length !== codes.length + 1) {
      problems.push(`line ${line}: expected ${codes.length + 1} fields, found ${fields.length}`);
      return;
    }
    const date = fields[0];
    if (!checkDate(date, line, problems)) return;
    codes.forEach((code, i) => {
      const text = fields[i + 1];
      if (text === '' || text === 'N/A') return; // no rate that day
      const checked = checkRate(text, line, problems, code);
      if (checked !== undefined)
        cells.push({ line, value: checked.value, rate: { date, base: 'EUR', quote: code, rate: checked.text, source } });
    });
  });
}

function forEachLine(lines: string[], read: (fields: string[], line: number) => void): void {
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    read(splitCsvLine(lines[i]), i + 1);
  }
}

/** Rate files have no quoted fields; surrounding spaces are not part of a value. */
function splitCsvLine(line: string): string[] {
  return line.split(',').map((field) => field.trim());
}

function checkDate(date: string, line: number, problems: string[]): boolean {
  if (!isCalendarDate(date)) {
    problems.push(`line ${line}: ${JSON.stringify(date)} is not a date (YYYY-MM-DD)`);
    return false;
  }
  if (date < RATE_DATES.first || date > RATE_DATES.last) {
    problems.push(`line ${line}: ${date} is outside the dates rates may have (${RATE_DATES.first} to ${RATE_DATES.last})`);
    return false;
  }
  return true;
}

function checkCurrency(code: string, line: number, problems: string[]): void {
  if (!isCurrencyCode(code)) problems.push(`line ${line}: ${JSON.stringify(code)} is not an ISO 4217 currency code`);
}

/** The rate and its canonical text, or undefined (and a problem) when it is not a positive decimal within RATE_RANGE that fits. */
function checkRate(text: string, line: number, problems: string[], code?: string): { text: string; value: ExactDecimal } | undefined {
  const what = code ? `the ${code} rate` : 'the rate';
  const value = parseExactDecimal(text);
  if (!value) return void problems.push(`line ${line}: ${what} ${JSON.stringify(text)} is not a decimal number`);
  if (value.units <= 0n) return void problems.push(`line ${line}: ${what} ${text} is not positive`);
  const canonical = formatExactDecimal(value);
  const fraction = canonical.split('.')[1] ?? '';
  if (fraction.length > RATE_SCALE) return void problems.push(`line ${line}: ${what} ${text} has more than ${RATE_SCALE} decimal places`);
  if (!isApplicableRate(value)) return void problems.push(`line ${line}: ${what} ${text} is outside ${RATE_RANGE.text}`);
  return { text: canonical, value };
}

/** One rate per (date, pair): an exact repeat is dropped, a different value for the same one refused naming both lines. */
function withoutDuplicates(cells: Cell[], problems: string[]): Cell[] {
  const seen = new Map<string, Cell>();
  for (const cell of cells) {
    const { date, base, quote, rate } = cell.rate;
    const key = `${date} ${base}/${quote}`;
    const earlier = seen.get(key);
    if (!earlier) seen.set(key, cell);
    else if (compareExact(earlier.value, cell.value) !== 0) {
      problems.push(`lines ${earlier.line} and ${cell.line}: two rates for ${base}/${quote} on ${date} (${earlier.rate.rate} and ${rate})`);
    }
  }
  return [...seen.values()];
}

/**
 * Refuses a file whose own rates imply a cross rate outside RATE_RANGE (two quotes of one base and date, derived as a
 * conversion would): the lowest and the highest rate of each base and date give the extremes, every other cross lies
 * between. A cross with the rates of another file is refused when an answer would apply it.
 */
function checkCrossRates(cells: Cell[], problems: string[]): void {
  const extremes = new Map<string, { low: Cell; high: Cell }>();
  for (const cell of cells) {
    const key = `${cell.rate.date} ${cell.rate.base}`;
    const known = extremes.get(key);
    if (!known) extremes.set(key, { low: cell, high: cell });
    else if (compareExact(cell.value, known.low.value) < 0) known.low = cell;
    else if (compareExact(cell.value, known.high.value) > 0) known.high = cell;
  }
  for (const { low, high } of extremes.values()) {
    if (low === high) continue;
    // Both ways: each is rounded to RATE_SCALE places, so one may fall outside while the other does not.
    const outside = [
      { from: low, to: high },
      { from: high, to: low },
    ]
      .map(({ from, to }) => ({ pair: `${from.rate.quote}/${to.rate.quote}`, rate: derivedRate(to.value, from.value) }))
      .find((cross) => !isApplicableRate(cross.rate));
    if (outside) problems.push(crossRateProblem(low, high, outside.pair, outside.rate));
  }
}

/** `lines 2 and 4: USD/CHF 0.5 and USD/JPY 700000000000 of 2024-11-22 give the cross rate CHF/JPY 1400000000000, …`. */
function crossRateProblem(low: Cell, high: Cell, pair: string, rate: ExactDecimal): string {
  const [a, b] = [low, high].sort((x, y) => x.line - y.line);
  const lines = a.line === b.line ? `line ${a.line}` : `lines ${a.line} and ${b.line}`;
  const loaded = (cell: Cell) => `${cell.rate.base}/${cell.rate.quote} ${cell.rate.rate}`;
  return `${lines}: ${loaded(a)} and ${loaded(b)} of ${a.rate.date} give the cross rate ${pair} ${formatExactDecimal(rate)}, outside ${RATE_RANGE.text}`;
}

function pairSummary(rates: LoadedRate[]): ParsedRatesFile['pairs'] {
  const pairs = new Map<string, { pair: string; rates: number; first: string; last: string }>();
  for (const { base, quote, date } of rates) {
    const pair = `${base}/${quote}`;
    const entry = pairs.get(pair);
    if (!entry) pairs.set(pair, { pair, rates: 1, first: date, last: date });
    else {
      entry.rates += 1;
      if (date < entry.first) entry.first = date;
      if (date > entry.last) entry.last = date;
    }
  }
  return [...pairs.values()].sort((a, b) => (a.pair < b.pair ? -1 : 1));
}

function listed(problems: string[]): string[] {
  if (problems.length <= MAX_PROBLEMS_LISTED) return problems;
  return [...problems.slice(0, MAX_PROBLEMS_LISTED), `and ${problems.length - MAX_PROBLEMS_LISTED} more problems`];
}
