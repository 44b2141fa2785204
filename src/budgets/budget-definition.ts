/**
 * What a budget means, apart from any store or HTTP (its saved shape, BudgetDefinition, is the store's): its periods,
 * the amount planned for each, its thresholds and what each needs to hold. Pure (the admin API validates with it, the
 * status and the evaluator compute with it).
 */
import { addDays, formatMonthNumber, monthNumber } from '../common/dates/calendar-date';
import { decimalText, scaled } from '../common/money/scaled-decimal';
import type { BudgetPeriodKind, BudgetThreshold } from '../store/repositories/budgets.repository';

export const BUDGET_LIMITS = {
  /** Budgets an organisation keeps at once (403 past it). */
  maxPerOrganization: 1_000,
  maxThresholds: 10,
  maxDestinations: 5,
  minPercent: 1,
  maxPercent: 1_000,
  maxNameLength: 200,
  /** Planned amounts one budget names (ten years of months). */
  maxPlannedPeriods: 120,
  /** Past periods the status reports beside the current one. */
  historyPeriods: 12,
  /** Days an alert is kept and listed: 13 months (budget_alerts' TTL, migration 0032). */
  alertDays: 396,
} as const;

/** The key of `amounts` that applies to every period without a planned amount of its own. */
export const DEFAULT_AMOUNT_KEY = 'default';

/** One period of a budget: `label` names it in `amounts` (2026-12, 2026-Q4, 2026); both ends included. */
export interface BudgetPeriod {
  label: string;
  start: string;
  end: string;
}

const MONTHS_PER_PERIOD: Record<BudgetPeriodKind, number> = { monthly: 1, quarterly: 3, yearly: 12 };

/** The period of `kind` holding `date` (yyyy-MM-dd). */
export function periodContaining(kind: BudgetPeriodKind, date: string): BudgetPeriod {
  const month = monthNumber(date);
  const length = MONTHS_PER_PERIOD[kind];
  return periodStartingAt(kind, month - (((month % length) + length) % length));
}

/** The period `offset` periods after `period` (negative: before). */
export function shiftPeriod(kind: BudgetPeriodKind, period: BudgetPeriod, offset: number): BudgetPeriod {
  return periodStartingAt(kind, monthNumber(period.start) + offset * MONTHS_PER_PERIOD[kind]);
}

function periodStartingAt(kind: BudgetPeriodKind, firstMonth: number): BudgetPeriod {
  const start = formatMonthNumber(firstMonth);
  const end = addDays(formatMonthNumber(firstMonth + MONTHS_PER_PERIOD[kind]), -1);
  const year = start.slice(0, 4);
  const label = kind === 'monthly' ? start.slice(0, 7) : kind === 'quarterly' ? `${year}-Q${(Number(start.slice(5, 7)) + 2) / 3}` : year;
  return { label, start, end };
}

const LABEL_PATTERNS: Record<BudgetPeriodKind, RegExp> = {
  monthly: /^(20\d\d)-(0[1-9]|1[0-2])$/,
  quarterly: /^(20\d\d)-Q([1-4])$/,
  yearly: /^(20\d\d)$/,
};
const LABEL_EXAMPLES: Record<BudgetPeriodKind, string> = { monthly: '2026-12', quarterly: '2026-Q4', yearly: '2026' };

/** The period a label names, or undefined when it names none of `kind`. */
export function periodOfLabel(kind: BudgetPeriodKind, label: string): BudgetPeriod | undefined {
  const match = LABEL_PATTERNS[kind].exec(label);
  if (!match) return undefined;
  const month = kind === 'monthly' ? Number(match[2]) : kind === 'quarterly' ? Number(match[2]) * 3 - 2 : 1;
  return periodContaining(kind, `${match[1]}-${String(month).padStart(2, '0')}-01`);
}

/** The amount planned for `period`: its own, else the default; undefined when the budget plans none for it. */
export function amountFor(amounts: Readonly<Record<string, string>>, period: BudgetPeriod): string | undefined {
  return amounts[period.label] ?? amounts[DEFAULT_AMOUNT_KEY];
}

/** An amount as given (decimal text or a JSON number): its decimal text, or undefined when it is not a positive decimal. */
export function amountText(value: unknown): string | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? numberText(value) : value;
  if (typeof text !== 'string' || !/^\d{1,15}(\.\d{1,10})?$/.test(text)) return undefined;
  return scaled(text) > 0n ? text.replace(/^0+(?=\d)/, '') : undefined;
}

/** A JSON number's shortest exact text (no exponent for the magnitudes amounts have). */
function numberText(value: number): string {
  return Math.abs(value) < 1e15 ? value.toFixed(10).replace(/\.?0+$/, '') : String(value);
}

/**
 * The problems of `amounts` for a budget of `kind`, by field: each amount a positive decimal; each key `default` or a
 * period label; without a default, the planned periods consecutive (no gap) and covering `today`'s period.
 */
export function amountsProblems(kind: BudgetPeriodKind, amounts: Readonly<Record<string, unknown>>, today: string): string[] {
  const keys = Object.keys(amounts);
  if (keys.length === 0) return [`amounts: expected {"${DEFAULT_AMOUNT_KEY}": "<amount>"} and/or planned amounts by period`];
  if (keys.length > BUDGET_LIMITS.maxPlannedPeriods + 1)
    return [`amounts: at most ${BUDGET_LIMITS.maxPlannedPeriods} planned periods and a default, received ${keys.length} keys`];
  const problems: string[] = [];
  for (const key of keys) {
    if (key !== DEFAULT_AMOUNT_KEY && !periodOfLabel(kind, key))
      problems.push(`amounts.${key}: expected "${DEFAULT_AMOUNT_KEY}" or a ${kind} period such as ${LABEL_EXAMPLES[kind]}`);
    else if (amountText(amounts[key]) === undefined)
      problems.push(`amounts.${key}: expected a positive decimal (text or number, at most 10 decimal places)`);
  }
  if (problems.length > 0 || DEFAULT_AMOUNT_KEY in amounts) return problems;
  return coverageProblems(kind, keys, today);
}

/** Planned amounts alone must leave no period between them unplanned, and plan the current one. */
function coverageProblems(kind: BudgetPeriodKind, labels: string[], today: string): string[] {
  const periods = labels.map((label) => periodOfLabel(kind, label)!).sort((a, b) => (a.start < b.start ? -1 : 1));
  const gaps: string[] = [];
  for (let i = 1; i < periods.length; i++) {
    for (let missing = shiftPeriod(kind, periods[i - 1], 1); missing.start < periods[i].start; missing = shiftPeriod(kind, missing, 1))
      gaps.push(missing.label);
  }
  const problems =
    gaps.length > 0
      ? [`amounts: without a default, every period from the first planned to the last needs an amount; missing ${gaps.join(', ')}`]
      : [];
  const current = periodContaining(kind, today);
  if (current.start < periods[0].start || current.start > periods.at(-1)!.start)
    problems.push(`amounts: without a default, the planned periods must include the current one (${current.label})`);
  return problems;
}

/** The problems of `thresholds`: each percent a whole number from 1 to 1000, no (kind, percent) twice. */
export function thresholdsProblems(thresholds: readonly BudgetThreshold[]): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  thresholds.forEach((threshold, i) => {
    const key = `${threshold.kind}:${threshold.percent}`;
    if (seen.has(key)) problems.push(`thresholds[${i}]: ${threshold.kind} ${threshold.percent} % is given twice`);
    seen.add(key);
  });
  return problems;
}

/** Whether `units` (1e-10) reach `percent` % of `amount`: compared exactly, as units × 100 ≥ amount × percent. */
export function reaches(units: bigint, amount: string, percent: number): boolean {
  return units * 100n >= scaled(amount) * BigInt(percent);
}

/** `percent` % of `amount` as decimal text, rounded half up to 10 places (what a threshold is shown as). */
export function thresholdAmount(amount: string, percent: number): string {
  return decimalText((scaled(amount) * BigInt(percent) + 50n) / 100n);
}
