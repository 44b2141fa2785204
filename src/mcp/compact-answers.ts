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

export function round10(value: number): number {
  return Number(value.toFixed(10));
}

/**
 * A page of /data as the statement returned it (CostsService.getCostDataPage): the paging is in the statement, so
 * `items` is the page already, `itemCount` the whole answer's, and the top values are ranked over the whole window
 * by ClickHouse (exact sums; ties: the value seen first, by date then value).
 */
export interface CostDataPageLike {
  currency: string;
  summary: object;
  items: CostItem[];
  itemCount: number;
  topValues: TopValue[];
  distinctValues: number;
}

export function compactCostData(result: CostDataPageLike, offset: number, limit: number) {
  const elements = result.items.slice(0, limit);
  const page: Page = {
    offset,
    limit,
    returned: elements.length,
    total: result.itemCount,
    remaining: Math.max(0, result.itemCount - offset - elements.length),
  };
  const note = pageNote(
    page,
    'items',
    'narrow the question: a coarser groupBy.dateGrouping (weekly, monthly), fewer groupBy.dimensions, or filters. topValues already ranks the dimension values over the whole window.',
  );
  const top = result.topValues.map((value) => ({
    ...value,
    amortized_cost: round10(value.amortized_cost),
    billed_cost: round10(value.billed_cost),
  }));
  return {
    currency: result.currency,
    summary: result.summary,
    ...(result.distinctValues ? { topValues: top, distinctValues: result.distinctValues } : {}),
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

// ---- find_anomalies -------------------------------------------------------------------------------------

/** Root causes per anomaly in find_anomalies' compact answer (the API answers up to ANOMALY_LIMITS.rootCauses). */
export const COMPACT_ROOT_CAUSES = 3;

interface AnomalyLike {
  rootCauses: unknown[];
}

/**
 * The /anomalies answer with each anomaly's root causes cut to its first COMPACT_ROOT_CAUSES (in the API's order),
 * `more_root_causes` counting the rest; whole with `includeAllRootCauses`.
 */
export function compactAnomalies<A extends AnomalyLike, R extends { anomalies: A[] }>(result: R, includeAllRootCauses: boolean) {
  if (includeAllRootCauses) return result;
  let cut = false;
  const anomalies = result.anomalies.map((anomaly) => {
    const more = anomaly.rootCauses.length - COMPACT_ROOT_CAUSES;
    if (more <= 0) return anomaly;
    cut = true;
    return { ...anomaly, rootCauses: anomaly.rootCauses.slice(0, COMPACT_ROOT_CAUSES), more_root_causes: more };
  });
  return {
    ...result,
    anomalies,
    ...(cut
      ? {
          note: `Each anomaly lists its first ${COMPACT_ROOT_CAUSES} root causes; more_root_causes counts the rest. Set includeAllRootCauses=true to get them.`,
        }
      : {}),
  };
}
