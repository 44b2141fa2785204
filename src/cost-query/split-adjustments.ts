import { groupedBy } from '../common/collections/grouped-by';
import { decimalText, scaled } from '../common/money/scaled-decimal';
import { applySplits, Portion, SplitRule } from './cost-splits';
import { MAP_DIMENSIONS, NOT_SET } from './filter-fields';
import { rowCondition } from './filter-compiler';
import type { Filters, FilterFields, SplitSegment } from './filters.types';
import { MEASURE_COLUMNS } from './metrics';
import { SqlParameters } from './sql-parameters';

/**
 * Shared-cost splits in answers (allocation). A question grouped or filtered by a rule-defined category with splits is
 * answered from its rows as they are plus adjustment rows: per day, currency, billing month, value and the answer's
 * other keys, what the splits moved in (+) and out (−). They are computed here, in exact integers, from the source
 * rows' sums (split-portions.query.ts) with cost-splits.ts, and reach the answer's statement as parameters
 * (adjustmentRowsSql), so ClickHouse adds them into the same partial sums, converts them as any row and keeps paging.
 */

/** The most source rows (per day, currency, month, value and the answer's keys) one question may split. */
export const MAX_SPLIT_PORTIONS = 200_000;

/** The category a question applies splits of, and how. */
export interface SplitPlan {
  category: string;
  /** Its index among the grouping dimensions; undefined when the question only filters by it. */
  dimensionIndex?: number;
  segments: readonly SplitSegment[];
  /** Every split source given by filters, over all segments, numbered in order (a portion's flags `f<i>`). */
  filterSources: readonly Filters[];
}

/**
 * The category whose splits a question applies: its first grouping dimension that is a category with splits, else the
 * category its filters name, else the one the key's data scope names, if it has splits (a key scoped to a value sees
 * that value's share of moved cost). One per question: any other is read without its splits.
 */
export function splitPlanOf(
  splits: ReadonlyMap<string, readonly SplitSegment[]> | undefined,
  filters: Filters,
  dimensions: readonly { kind: string; key?: string }[],
  dataScope?: Filters,
): SplitPlan | undefined {
  if (!splits) return undefined;
  const grouped = dimensions.findIndex((ref) => ref.kind === 'costCategory' && ref.key !== undefined && splits.has(ref.key));
  const filtered = [filters.inclusions, filters.exclusions, dataScope?.inclusions, dataScope?.exclusions]
    .map((side) => side?.costCategory)
    .find((key): key is string => typeof key === 'string' && splits.has(key));
  const category = grouped >= 0 ? dimensions[grouped].key! : filtered;
  if (category === undefined) return undefined;
  const segments = splits.get(category)!;
  const filterSources = segments.flatMap((segment) =>
    segment.splits.flatMap((split) => ('filters' in split.source ? [split.source.filters] : [])),
  );
  return { category, dimensionIndex: grouped >= 0 ? grouped : undefined, segments, filterSources };
}

/** `filters` without their condition on the category (moved cost is filtered by its value, after the splits). */
export function withoutCategory(filters: Filters, category: string): Filters {
  const side = (fields?: FilterFields): FilterFields | undefined => {
    if (fields?.costCategory !== category) return fields;
    const { costCategory: _key, costCategoryValues: _values, ...rest } = fields;
    return rest;
  };
  return { inclusions: side(filters.inclusions), exclusions: side(filters.exclusions) };
}

/** Only the condition of `filters` on the category, if any. */
export function onlyCategory(filters: Filters | undefined, category: string): Filters | undefined {
  const side = (fields?: FilterFields): FilterFields | undefined =>
    fields?.costCategory === category ? { costCategory: category, costCategoryValues: fields.costCategoryValues ?? [] } : undefined;
  const [inclusions, exclusions] = [side(filters?.inclusions), side(filters?.exclusions)];
  return inclusions || exclusions ? { inclusions, exclusions } : undefined;
}

/** The source values of every split in the plan (rows of these values are read as portions). */
export function sourceValues(plan: SplitPlan): string[] {
  const values = plan.segments.flatMap((segment) =>
    segment.splits.flatMap((split) => ('value' in split.source ? [split.source.value] : [])),
  );
  return [...new Set(values)];
}

/** The targets weighted by their own cost (their basis is read). */
export function proportionalTargets(plan: SplitPlan): string[] {
  const targets = plan.segments.flatMap((segment) =>
    segment.splits.flatMap((split) => (split.method === 'proportional' ? split.targets : [])),
  );
  return [...new Set(targets)];
}

/** One row of the portions statement: a day's sums of the rows sharing a value, the answer's other keys and flags. */
export interface PortionRow {
  split_day: string;
  split_period: string;
  split_currency: string;
  split_value: string;
  /** The answer's dimension values other than the category's, in order (JSON array text). */
  split_group: string;
  /** Per filter source of the plan, 1 where the rows match it. */
  split_flags: readonly (number | string)[];
  /** Sums of MEASURE_COLUMNS, decimal text. */
  split_sums: readonly string[];
}

/**
 * The portions of two reads (split-portions.query.ts splitPortionReads) as one read of both would give them: the rows
 * the filter sources choose as they are, and each source value's rows less those of them the filters chose (those
 * are among the chosen, with their flags). A rest whose every sum is zero moves nothing and is left out.
 */
export function portionsOfTwoReads(valueRows: readonly PortionRow[], chosenRows: readonly PortionRow[]): PortionRow[] {
  const valueKey = (row: PortionRow) => `${dayKey(row)}|${row.split_value}`;
  const chosenOf = groupedBy(chosenRows, valueKey);
  const rests = valueRows.flatMap((row) => {
    const sums = row.split_sums.map(scaled);
    for (const chosen of chosenOf.get(valueKey(row)) ?? []) chosen.split_sums.forEach((sum, i) => (sums[i] -= scaled(sum)));
    return sums.every((sum) => sum === 0n) ? [] : [{ ...row, split_flags: [], split_sums: sums.map(decimalText) }];
  });
  return [...rests, ...chosenRows];
}

/** A proportional target's own amortized cost in one day, currency and billing month, before splits. */
export interface BasisRow {
  split_day: string;
  split_period: string;
  split_currency: string;
  split_value: string;
  basis: string;
}

/** What the splits change in one (day, currency, month, value, answer keys): amounts of MEASURE_COLUMNS. */
export interface SplitAdjustment {
  usageDate: string;
  billingPeriod: string;
  billingCurrency: string;
  /** The category's value as the row has it ('' for none). */
  value: string;
  /** The answer's dimension values, the category's included at its index. */
  dimensions: string[];
  amounts: bigint[];
  /** Amortized cost moved in and out. */
  splitIn: bigint;
  splitOut: bigint;
}

const AMORTIZED = MEASURE_COLUMNS.indexOf('amortized_cost');

/** Amortized cost one split moved from a value to another in one day, currency and billing month. */
export interface SplitFlowRow {
  usageDate: string;
  billingPeriod: string;
  billingCurrency: string;
  from: string;
  to: string;
  amount: bigint;
}

/**
 * The adjustments the plan's splits make to the portions (basis: the proportional targets' own cost), and what each
 * split moved from a value to another (a day's flows between the same two values added).
 */
export function splitAdjustments(
  plan: SplitPlan,
  portions: readonly PortionRow[],
  basis: readonly BasisRow[],
): { adjustments: SplitAdjustment[]; flows: SplitFlowRow[] } {
  const basisOf = new Map(basis.map((row) => [`${dayKey(row)}|${row.split_value}`, scaled(row.basis)]));
  const byDay = groupedBy(portions, dayKey);
  const adjustments: SplitAdjustment[] = [];
  const flowRows = new Map<string, SplitFlowRow>();
  for (const [day, rows] of byDay) {
    const rules = rulesFor(plan, rows[0].split_period);
    if (rules.length === 0) continue;
    const { flows } = applySplits(rows.map(toPortion), rules, (value) => basisOf.get(`${day}|${value}`) ?? 0n);
    const changes = new Map<string, { value: string; group: string; amounts: bigint[]; splitIn: bigint; splitOut: bigint }>();
    const change = (value: string, group: string) => {
      const key = JSON.stringify([value, group]);
      if (!changes.has(key)) changes.set(key, { value, group, amounts: MEASURE_COLUMNS.map(() => 0n), splitIn: 0n, splitOut: 0n });
      return changes.get(key)!;
    };
    const { split_day: usageDate, split_period: billingPeriod, split_currency: billingCurrency } = rows[0];
    // The flows are the change: a split's parts add up to the portion it splits, so each flow's amounts leave its
    // source and reach its target, and nothing else moves.
    for (const flow of flows) {
      const [out, into] = [change(flow.from, flow.group), change(flow.to, flow.group)];
      flow.amounts.forEach((amount, i) => {
        out.amounts[i] -= amount;
        into.amounts[i] += amount;
      });
      out.splitOut += flow.amounts[AMORTIZED];
      into.splitIn += flow.amounts[AMORTIZED];
      const key = JSON.stringify([day, flow.from, flow.to]);
      const row = flowRows.get(key) ?? { usageDate, billingPeriod, billingCurrency, from: flow.from, to: flow.to, amount: 0n };
      row.amount += flow.amounts[AMORTIZED];
      flowRows.set(key, row);
    }
    for (const { value, group, amounts, splitIn, splitOut } of changes.values()) {
      if (amounts.every((amount) => amount === 0n) && splitIn === 0n && splitOut === 0n) continue;
      const dimensions = JSON.parse(group) as string[];
      if (plan.dimensionIndex !== undefined) dimensions.splice(plan.dimensionIndex, 0, value === '' ? NOT_SET : value);
      adjustments.push({
        usageDate,
        billingPeriod,
        billingCurrency,
        value,
        dimensions,
        amounts,
        splitIn,
        splitOut,
      });
    }
  }
  return { adjustments, flows: [...flowRows.values()] };
}

const dayKey = (row: { split_day: string; split_period: string; split_currency: string }) =>
  `${row.split_day}|${row.split_currency}|${row.split_period}`;

function toPortion(row: PortionRow): Portion {
  return {
    value: row.split_value,
    group: row.split_group,
    selectedBy: row.split_flags.flatMap((flag, index) => (Number(flag) === 1 ? [index] : [])),
    amounts: row.split_sums.map(scaled),
  };
}

/** The split rules of the version in effect for a billing month, their filter sources numbered as the plan's. */
function rulesFor(plan: SplitPlan, billingPeriod: string): SplitRule[] {
  let filterIndex = 0;
  let rules: SplitRule[] = [];
  for (const segment of plan.segments) {
    const inEffect = segment.from <= billingPeriod;
    const segmentRules = segment.splits.map((split) => ({
      source: 'value' in split.source ? { value: split.source.value } : { filter: filterIndex++ },
      targets: split.targets,
      method: split.method,
      ...(split.percentages ? { percentages: split.percentages } : {}),
    }));
    if (inEffect) rules = segmentRules; // segments are in month order: the last one begun is in effect
  }
  return rules;
}

/**
 * Adjustments merged where the answer cannot tell them apart: into their bucket's first day, and without their
 * billing month, except in a currency converted by the day's or the month's rate (`keepsDay`, `keepsMonth`).
 */
export function mergeAdjustments(
  adjustments: readonly SplitAdjustment[],
  bucketOf: (date: string) => string,
  keepsDay: (currency: string) => boolean,
  keepsMonth: (currency: string) => boolean,
): SplitAdjustment[] {
  const merged = new Map<string, SplitAdjustment>();
  for (const adjustment of adjustments) {
    const usageDate = keepsDay(adjustment.billingCurrency) ? adjustment.usageDate : bucketOf(adjustment.usageDate);
    const billingPeriod = keepsMonth(adjustment.billingCurrency) ? adjustment.billingPeriod : '';
    const key = JSON.stringify([usageDate, billingPeriod, adjustment.billingCurrency, adjustment.value, adjustment.dimensions]);
    const into = merged.get(key);
    if (!into) {
      merged.set(key, { ...adjustment, usageDate, billingPeriod, amounts: [...adjustment.amounts] });
      continue;
    }
    adjustment.amounts.forEach((amount, i) => (into.amounts[i] += amount));
    into.splitIn += adjustment.splitIn;
    into.splitOut += adjustment.splitOut;
  }
  return [...merged.values()];
}

/** The adjustments of a question: its plan, its value filters (the request's and the data scope's on the category). */
export interface QuestionSplits {
  plan: SplitPlan;
  valueFilters: readonly Filters[];
  adjustments: readonly SplitAdjustment[];
}

/** Values per parameter: a ClickHouse server takes at most 128 KiB per value (http_max_field_value_size). */
const VALUES_PER_PARAMETER = 2_000;

/** A long list as several parameters joined back (arrayConcat), each within a server's size for one value. */
function listSql(params: SqlParameters, type: string, values: readonly string[]): string {
  const parts: string[] = [];
  for (let start = 0; start < values.length || parts.length === 0; start += VALUES_PER_PARAMETER)
    parts.push(params.add(`Array(${type})`, values.slice(start, start + VALUES_PER_PARAMETER)));
  return parts.length === 1 ? parts[0] : `arrayConcat(${parts.join(', ')})`;
}

/** One column of rows passed as parameters: its name, and per row its text (a Date's, a String's, or money's). */
type ParameterColumn = [name: string, type: 'Date' | 'String' | 'Money', values: string[]];

/** Rows passed as parameters, as a table (one list per column, read at each row's index). */
function parameterRowsSql(params: SqlParameters, rowCount: number, columns: readonly ParameterColumn[]): string {
  const select = columns.map(([name, type, values]) => {
    const value = `${listSql(params, type === 'Date' ? 'Date' : 'String', values)}[split_row]`;
    return `${type === 'Money' ? `toDecimal128(${value}, 10)` : value} AS ${name}`;
  });
  return `(SELECT ${select.join(', ')} FROM (SELECT arrayJoin(range(1, ${params.add('UInt64', rowCount)} + 1)) AS split_row))`;
}

/** The day, month and currency columns of moved rows, as the answers' partial sums read them. */
function whenColumns(rows: readonly { usageDate: string; billingPeriod: string; billingCurrency: string }[]): ParameterColumn[] {
  return [
    ['usage_date', 'Date', rows.map((row) => row.usageDate)],
    ['billing_period', 'String', rows.map((row) => row.billingPeriod)],
    ['billing_currency', 'String', rows.map((row) => row.billingCurrency)],
  ];
}

/**
 * The adjustment rows as a table: the columns an answer's partial sums read (usage_date, billing_period,
 * billing_currency, the measures) plus `split_value`, `split_dim_<i>`, `split_in` and `split_out`.
 */
export function adjustmentRowsSql(splits: QuestionSplits, dimensionCount: number, params: SqlParameters): string {
  const rows = splits.adjustments;
  const money = (values: bigint[]) => values.map(decimalText);
  const dimensions = Array.from({ length: dimensionCount }, (_, d): ParameterColumn => [
    `split_dim_${d}`,
    'String',
    rows.map((row) => row.dimensions[d]),
  ]);
  return parameterRowsSql(params, rows.length, [
    ...whenColumns(rows),
    ['split_value', 'String', rows.map((row) => row.value)],
    ...dimensions,
    ...MEASURE_COLUMNS.map((column, m): ParameterColumn => [column, 'Money', money(rows.map((row) => row.amounts[m]))]),
    ['split_in', 'Money', money(rows.map((row) => row.splitIn))],
    ['split_out', 'Money', money(rows.map((row) => row.splitOut))],
  ]);
}

/** The flows as a table: usage_date, billing_period, billing_currency, `split_from`, `split_to` and amortized_cost. */
export function flowRowsSql(flows: readonly SplitFlowRow[], params: SqlParameters): string {
  return parameterRowsSql(params, flows.length, [
    ...whenColumns(flows),
    ['split_from', 'String', flows.map((flow) => flow.from)],
    ['split_to', 'String', flows.map((flow) => flow.to)],
    ['amortized_cost', 'Money', flows.map((flow) => decimalText(flow.amount))],
  ]);
}

/** The adjustment rows an answer keeps: those whose value its filters and the key's data scope keep. */
export function adjustmentValueCondition(splits: QuestionSplits, params: SqlParameters): string {
  const maps = {
    tag: `CAST(map(), 'Map(String, String)')`,
    costCategory: `map(${params.add('String', splits.plan.category)}, split_value)`,
  } satisfies Record<keyof typeof MAP_DIMENSIONS, string>;
  const conditions = splits.valueFilters.flatMap((filters) => rowCondition(filters, params, { columns: maps }) ?? []);
  return conditions.length > 0 ? conditions.join(' AND ') : '1';
}
