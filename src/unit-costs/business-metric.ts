/**
 * Business metrics (orders, active customers, GB served) and their daily values, apart from any store or HTTP: names,
 * limits, the values file (CSV `date,value[,dimension value]` or JSON) checked whole, and which of a metric's values a
 * question's filters and data scope select. Pure.
 */
import { MetricValue, UnitSelection } from '../store/repositories/business-metrics.repository';
import { isCalendarDate, isSupportedDate } from '../common/dates/calendar-date';
import { COLUMN_DIMENSIONS, DimensionRef, MAP_DIMENSIONS, parseDimension } from '../cost-query/dimension-registry';
import type { FilterFields, Filters } from '../cost-query/filters.types';

export const METRIC_LIMITS = {
  maxMetricsPerOrganization: 100,
  maxDimensionValuesPerMetric: 10_000,
  maxValuesPerLoad: 1_000_000,
  unitScales: [1, 1_000, 1_000_000] as const,
  maxUnitLength: 64,
  maxDimensionValueLength: 512,
  /** Problems listed in one refusal; the count of the rest follows. */
  maxProblemsListed: 20,
} as const;

/** A metric's name: lower-case words joined by `_` (it is a path segment and a CSV column). */
export const METRIC_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** A value: a finite, non-negative decimal of at most 10 places (what Decimal(38, 10) holds). */
const VALUE = /^\d{1,27}(\.\d{1,10})?$/;

export function metricNameProblem(name: string): string | undefined {
  return METRIC_NAME.test(name)
    ? undefined
    : `name: expected lower-case letters, digits and _ (starting with a letter, at most 64), received ${JSON.stringify(name)}`;
}

/** The problem of a metric's dimension ('' is none): a grouping dimension as /data takes it. */
export function metricDimensionProblem(dimension: string): string | undefined {
  if (dimension === '' || parseDimension(dimension)) return undefined;
  return `dimension: expected a grouping dimension (e.g. tag:team, costCategory:BusinessUnit, service), received ${JSON.stringify(dimension)}`;
}

/** One value as given (text or JSON number), checked: its decimal text, or the problem. */
export function checkedValue(value: unknown): { text?: string; problem?: string } {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !VALUE.test(text.trim())) {
    const negative = typeof text === 'string' && text.trim().startsWith('-');
    return { problem: negative ? 'units are never negative' : 'expected a finite decimal of at most 10 places' };
  }
  return { text: text.trim() };
}

/** Values of a CSV file `date,value[,dimension value]` (a header line optional), or every problem by line and column. */
export function parseValuesCsv(text: string, dimensioned: boolean): { values: MetricValue[]; problems: string[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const values: MetricValue[] = [];
  const problems: string[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '' || (i === 0 && /^\s*date\s*,/i.test(line))) return;
    const cells = line.split(',');
    const [date, value, dimensionValue = ''] = cells.map((cell) => cell.trim());
    const problem = valueProblem({ date, value, dimensionValue }, dimensioned, cells.length);
    if (problem) problems.push(`line ${i + 1}, ${problem}`);
    else values.push({ date, value: checkedValue(value).text!, dimensionValue });
  });
  return { values, problems };
}

/** Values of a JSON body `{values: [{date, value, dimensionValue?}]}`, or every problem by index and field. */
export function checkedJsonValues(
  values: ReadonlyArray<Record<string, unknown>>,
  dimensioned: boolean,
): { values: MetricValue[]; problems: string[] } {
  const checked: MetricValue[] = [];
  const problems: string[] = [];
  values.forEach((entry, i) => {
    const given = { date: entry.date, value: entry.value, dimensionValue: entry.dimensionValue ?? '' };
    const problem = valueProblem(given, dimensioned, dimensioned ? 3 : given.dimensionValue === '' ? 2 : 3);
    if (problem) problems.push(`values[${i}].${problem}`);
    else
      checked.push({ date: given.date as string, value: checkedValue(given.value).text!, dimensionValue: given.dimensionValue as string });
  });
  return { values: checked, problems };
}

function valueProblem(
  entry: { date: unknown; value: unknown; dimensionValue: unknown },
  dimensioned: boolean,
  cells: number,
): string | undefined {
  if (!isCalendarDate(entry.date) || !isSupportedDate(entry.date))
    return `date: expected a date from 2000-01-01 to 2099-12-31 (YYYY-MM-DD), received ${JSON.stringify(entry.date)}`;
  const value = checkedValue(entry.value);
  if (value.problem) return `value: ${value.problem}, received ${JSON.stringify(entry.value)}`;
  if (dimensioned && cells < 3) return 'dimension value: the metric is per dimension value; give one on every line';
  if (!dimensioned && cells > 2) return 'dimension value: the metric has no dimension; give date and value only';
  if (typeof entry.dimensionValue !== 'string' || entry.dimensionValue.length > METRIC_LIMITS.maxDimensionValueLength)
    return `dimension value: expected text of at most ${METRIC_LIMITS.maxDimensionValueLength} characters`;
  return undefined;
}

/** At most `maxProblemsListed` problems, then how many more. */
export function listedProblems(problems: readonly string[]): string[] {
  const max = METRIC_LIMITS.maxProblemsListed;
  return problems.length <= max ? [...problems] : [...problems.slice(0, max), `… and ${problems.length - max} more`];
}

/**
 * The metric's values a question counts: a dimension the filters (and the key's data scope) narrow counts the values
 * they name; any other filter leaves the metric whole (its units are the organisation's, and the answer says so).
 */
export function unitSelection(dimension: DimensionRef | undefined, filters: readonly Filters[]): UnitSelection {
  if (!dimension) return { exclude: [] };
  let include: string[] | undefined;
  const exclude: string[] = [];
  for (const side of filters) {
    const named = namedValues(dimension, side.inclusions);
    if (named) include = include ? include.filter((value) => named.includes(value)) : named;
    exclude.push(...(namedValues(dimension, side.exclusions) ?? []));
  }
  return { ...(include ? { include } : {}), exclude };
}

/** The values `fields` name of `dimension`, or undefined when they do not narrow it. */
function namedValues(dimension: DimensionRef, fields: FilterFields | undefined): string[] | undefined {
  if (!fields) return undefined;
  if (dimension.kind === 'column') {
    const values = fields[COLUMN_DIMENSIONS[dimension.name].filterField] as string[] | undefined;
    return values?.length ? values : undefined;
  }
  const { keyField, valuesField } = MAP_DIMENSIONS[dimension.kind] as { keyField: keyof FilterFields; valuesField: keyof FilterFields };
  const values = fields[valuesField] as string[] | undefined;
  return fields[keyField] === dimension.key && values?.length ? values : undefined;
}
