/**
 * What the MCP tools answer: the endpoints' results cut to what a model can read (a page of items, the top
 * values, a summary), always saying how much was left out and how to get the rest. Pure functions.
 */
import type { EnrichedOption, FilterOptions } from '../cost-query/filter-options.query';
import type { OptionsField } from '../cost-query/dimension-registry';

export interface Page {
  /** Index of the first returned element in the whole list. */
  offset: number;
  limit: number;
  returned: number;
  /** Elements in the whole list. */
  total: number;
  /** Elements after the returned ones (ask again with offset = offset + returned). */
  remaining: number;
}

export function pageOf<T>(all: readonly T[], offset: number, limit: number): { elements: T[]; page: Page } {
  const elements = all.slice(offset, offset + limit);
  return {
    elements,
    page: { offset, limit, returned: elements.length, total: all.length, remaining: Math.max(0, all.length - offset - elements.length) },
  };
}

/** "Showing 1–100 of 2,340 …" with how to go on, or undefined when nothing is left after this page. */
export function pageNote(page: Page, what: string, narrowing: string): string | undefined {
  if (page.remaining === 0 && page.returned > 0) return undefined;
  const shown = page.returned ? `${what} ${page.offset + 1}–${page.offset + page.returned}` : `no ${what} (offset is past the end)`;
  const more = page.remaining
    ? ` Call again with offset=${page.offset + page.returned} for the next ${Math.min(page.limit, page.remaining)},`
    : '';
  const then = more ? `${more} or ${narrowing}` : ` ${narrowing.charAt(0).toUpperCase()}${narrowing.slice(1)}`;
  return `Showing ${shown} of ${page.total.toLocaleString('en-US')}.${then}`;
}

// ---- get_cost_data --------------------------------------------------------------------------------------

export type CostItem = Record<string, unknown> & {
  usage_date: string;
  dimension_value?: string;
  dimension_values?: Record<string, string>;
};

export interface TopValue {
  dimension_value?: string;
  dimension_values?: Record<string, string>;
  amortized_cost: number;
  billed_cost: number;
}

export const TOP_VALUES = 10;

/** The dimension value(s) of the items ranked by amortized cost over the whole window (all buckets together). */
export function topValues(items: readonly CostItem[], count = TOP_VALUES): { values: TopValue[]; distinct: number } {
  const totals = new Map<string, TopValue>();
  for (const item of items) {
    if (item.dimension_value === undefined && item.dimension_values === undefined) continue;
    const key = JSON.stringify(item.dimension_value ?? item.dimension_values);
    const entry =
      totals.get(key) ??
      (item.dimension_value !== undefined
        ? { dimension_value: item.dimension_value, amortized_cost: 0, billed_cost: 0 }
        : { dimension_values: item.dimension_values, amortized_cost: 0, billed_cost: 0 });
    entry.amortized_cost += Number(item.amortized_cost ?? 0);
    entry.billed_cost += Number(item.billed_cost ?? 0);
    totals.set(key, entry);
  }
  const ranked = [...totals.values()].sort((a, b) => b.amortized_cost - a.amortized_cost);
  return { values: ranked.slice(0, count).map((value) => ({ ...value, ...rounded(value) })), distinct: ranked.length };
}

/** Sums of many doubles carry float noise in the last digits; 10 decimals is the store's precision. */
function rounded(value: TopValue): Pick<TopValue, 'amortized_cost' | 'billed_cost'> {
  return { amortized_cost: round10(value.amortized_cost), billed_cost: round10(value.billed_cost) };
}

export function round10(value: number): number {
  return Number(value.toFixed(10));
}

export function compactCostData(
  result: { currency: string; items: CostItem[]; summary: Record<string, number> },
  offset: number,
  limit: number,
) {
  const { elements, page } = pageOf(result.items, offset, limit);
  const top = topValues(result.items);
  const note = pageNote(
    page,
    'items',
    'narrow the question: a coarser groupBy.dateGrouping (weekly, monthly), fewer groupBy.dimensions, or filters. topValues already ranks the dimension values over the whole window.',
  );
  return {
    currency: result.currency,
    summary: result.summary,
    ...(top.distinct ? { topValues: top.values, distinctValues: top.distinct } : {}),
    page,
    items: elements,
    ...(note ? { note } : {}),
  };
}

// ---- compare_costs --------------------------------------------------------------------------------------

interface ComparisonRowLike {
  dimension_value: string;
  baseline: { total: number; by_date: unknown[] };
  comparison: { total: number; by_date: unknown[] };
  delta: unknown;
}

export function compactComparison<R extends ComparisonRowLike>(
  result: { currency: string; comparisons: R[]; totals: unknown; metric_totals: unknown; metadata: unknown },
  offset: number,
  limit: number,
  includeByDate: boolean,
) {
  const { elements, page } = pageOf(result.comparisons, offset, limit);
  const rows = elements.map((row) =>
    includeByDate
      ? row
      : { dimension_value: row.dimension_value, baseline: row.baseline.total, comparison: row.comparison.total, delta: row.delta },
  );
  const note = [
    pageNote(page, 'rows (largest |delta.absolute| first)', 'narrow with filters or a dimension with fewer values.'),
    includeByDate ? undefined : 'Per-bucket series (by_date) are left out; set includeByDate=true to get them.',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    currency: result.currency,
    metadata: result.metadata,
    totals: result.totals,
    metric_totals: result.metric_totals,
    page,
    rows,
    note,
  };
}

// ---- get_filter_values ----------------------------------------------------------------------------------

/** Case-insensitive substring match (Unicode-aware lower case); an empty search matches everything. */
export function matches(value: string, search: string | undefined): boolean {
  return !search || value.toLocaleLowerCase('en-US').includes(search.toLocaleLowerCase('en-US'));
}

export interface FieldValues {
  /** Values matching the search in the window (all of them, not only the returned ones). */
  count: number;
  /** Highest amortized cost first. */
  values: EnrichedOption[];
  remaining: number;
}

export const TAG_VALUES_PER_KEY = 20;

export function compactFilterOptions(
  options: FilterOptions & { currency: string },
  fields: OptionsField[],
  search: string | undefined,
  limitPerField: number,
) {
  const result: Partial<Record<OptionsField, FieldValues>> = {};
  for (const field of fields) {
    // enriched lists every option of a requested field, ranked by cost (the plain list is the same set, sorted by name).
    const all = (options.enriched[field] ?? []).filter((option) => matches(option.value, search) || matches(option.name ?? '', search));
    const values = all.slice(0, limitPerField).map((option) => ({ ...option, amortized_cost: round10(option.amortized_cost) }));
    result[field] = { count: all.length, values, remaining: all.length - values.length };
  }
  const shownTagKeys = new Set((result.resourceTags?.values ?? []).map((option) => option.value));
  const tagValues = Object.fromEntries(
    Object.entries(options.tagValues)
      .filter(([key]) => shownTagKeys.has(key))
      .map(([key, values]) => [key, { count: values.length, values: values.slice(0, TAG_VALUES_PER_KEY) }]),
  );
  const cut = Object.values(result).some((values) => values.remaining > 0);
  return {
    currency: options.currency,
    fields: result,
    ...(Object.keys(tagValues).length ? { tagValues } : {}),
    ...(cut
      ? {
          note:
            `Each field lists at most ${limitPerField} values (limitPerField), highest amortized cost first; 'remaining' counts the rest. ` +
            'Use search to find a value by part of its name, or get_tag_values / get_cost_category_values for every value of one key.',
        }
      : {}),
  };
}

// ---- get_tag_values / get_cost_category_values ---------------------------------------------------------

export function compactKeyValues(key: string, values: string[], search: string | undefined, offset: number, limit: number) {
  const matching = values.filter((value) => matches(value, search));
  const { elements, page } = pageOf(matching, offset, limit);
  const note = pageNote(page, 'values', 'pass search to find values by part of their text.');
  return { key, ...(search ? { search } : {}), page, values: elements, ...(note ? { note } : {}) };
}
