import { withProjectionPreference } from './projection-preference';
import { bucketStartSql, DateGrouping } from './date-bucketing';
import { mapColumn } from './activated-maps';
import { COLUMN_DIMENSIONS, DimensionRef, dimensionName, NOT_SET } from './dimension-registry';
import { compileWhere } from './filter-compiler';
import { DateRange, Filters, OrganizationScope } from './filters.types';
import { metricPartSumsSql, metricSumsOfPartsSql } from './cost-metrics';
import { METRIC_CSV_HEADERS } from './metrics';
import { CompiledSql, SqlParameters } from './sql-parameters';
import { ConvertedSums, CurrencyConversion, MoneyBranch, MoneySql } from './currency-conversion';
import { csvSafeTextSql } from './csv-safe-text';
import { adjustmentRowsSql, adjustmentValueCondition, QuestionSplits } from './split-adjustments';

/** What /data asks of the store, after validation. */
export interface CostDataQuery {
  scope: OrganizationScope;
  filters: Filters;
  dateGrouping: DateGrouping;
  /** Grouping dimensions in request order (0 to 3); their values come back as dim_0, dim_1, ... */
  dimensions: DimensionRef[];
  /** `groupBy.dimensions` was given: items carry `dimension_values`, not `dimension_value`. */
  multiDimension: boolean;
  /** Today (UTC, YYYY-MM-DD) and the default window length, for compileWhere. */
  today: string;
  defaultWindowDays: number;
  /** The conversion into the answer's currency; absent when every row the answer may meet is in it. */
  conversion?: CurrencyConversion;
  /** A complete build of that conversion's sums to read instead (only for questions readsOnlyListColumns allows). */
  convertedSums?: ConvertedSums;
  /** What a rule-defined category's shared-cost splits move (split-adjustments.ts), added to the rows as they are. */
  splits?: QuestionSplits;
}

/**
 * A /data question over exactly `window` (its dateRange set on `filters`: no default window applies), for statements
 * that reason about a window as /data does (the shared-cost splits of the allocation KPI, the preview, /compare).
 */
export function windowQuestion(
  question: Pick<CostDataQuery, 'scope' | 'dimensions' | 'dateGrouping' | 'conversion'> & { filters?: Filters; window: DateRange },
): CostDataQuery {
  const { window, filters = {}, ...rest } = question;
  return {
    ...rest,
    filters: { ...filters, inclusions: { ...filters.inclusions, dateRange: window } },
    multiDimension: question.dimensions.length > 1,
    today: window.end,
    defaultWindowDays: 1,
  };
}

/**
 * How the items are written: `json`, the API's CostDataPoint objects; `csv`, RFC 4180 records of
 * costDataCsvHeader's columns (one per grouping dimension instead of `dimension_value(s)`).
 */
export type CostDataItemFormat = 'json' | 'csv';

/** Columns of the pre-aggregation: `bucket_start`, `dim_<i>` per dimension, and `part_<column>`. */
const BUCKET_COLUMN = 'bucket_start';
const dimensionColumn = (index: number): string => `dim_${index}`;

/**
 * SQL for a dimension's value on a row, with a missing value ('' in a column, an absent or empty
 * Map key) reported as NOT_SET so such rows form their own group instead of disappearing.
 * Tag and category keys are parameters.
 */
export function dimensionValueSql(ref: DimensionRef, params: SqlParameters, scope?: OrganizationScope): string {
  const value =
    ref.kind === 'column' ? COLUMN_DIMENSIONS[ref.name].column : `${mapColumn(ref.kind, scope, params)}[${params.add('String', ref.key)}]`;
  return `if(empty(${value}), ${params.named('not_set', 'String', NOT_SET)}, ${value})`;
}

/**
 * One statement for all of /data, whose result lines (TabSeparatedRaw, one column) are already the
 * bytes of the API's answer:
 *
 *     {"item_count":N,<metric sums>}     the totals over the whole filtered period (always first)
 *     ,{"usage_date":…,<metric sums>}    one item per (bucket start, dimension values), by date then values
 *     ,{…}
 *
 * ClickHouse writes every item as the API's CostDataPoint JSON (formatRowNoNewline: exact Decimal
 * digits, no trailing zeros) with the separating comma in front, so everything after the first line
 * and its comma is the inside of the `items` array (the newlines are JSON whitespace): the API copies
 * those bytes into its answer without decoding, parsing or re-serializing them.
 *
 * The inner query pre-aggregates per (bucket, values), the shape an aggregate projection can answer
 * (migrations 0005/0006, tags and cost categories aside); the outer GROUPING SETS re-adds those exact
 * Decimal partial sums per item and in total, so the totals cost no second scan. `item_count` counts
 * the inner groups, i.e. every item, also those past the LIMIT.
 *
 * `itemLimit` should be one more than the largest acceptable number of items, so a result that is too
 * large is detected rather than silently truncated.
 */
export function buildCostDataQuery(
  table: string,
  query: CostDataQuery,
  itemLimit: number,
  itemFormat: CostDataItemFormat = 'json',
): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params, query.convertedSums);
  const partialSums = partialSumsSql(table, query, params, money);
  const keys = [BUCKET_COLUMN, ...query.dimensions.map((_, i) => dimensionColumn(i))];
  const sums = metricSumsOfPartsSql((metric) => metric, ', ', money);
  const isTotal = `grouping(${BUCKET_COLUMN}) = 1`;
  // The inner groups are the items, unless converting at question time or moved cost makes them finer (per currency
  // and day or period, or an adjustment beside the rows): then count the items.
  const finer = (money.conversion && !money.onePartPerGroup()) || query.splits;
  const itemCount = finer ? `uniqExact(${keys.join(', ')})` : 'count()';
  const itemSums = [sums, ...splitFieldsSql(query, money)].join(', ');
  // A CSV record ends with CRLF: its CR here, the LF as every result line's end. Dimension values are
  // tenants' text: never a spreadsheet formula (the bucket is a Date, the metrics are numbers).
  const csvCells = () => [BUCKET_COLUMN, ...query.dimensions.map((_, i) => csvSafeTextSql(dimensionColumn(i), params)), itemSums];
  const item =
    itemFormat === 'json'
      ? `concat(',', formatRowNoNewline('JSONEachRow', ${[`${BUCKET_COLUMN} AS usage_date`, ...dimensionFields(query, params), itemSums].join(', ')}))`
      : `concat(formatRowNoNewline('CSV', ${csvCells().join(', ')}), '\\r')`;
  const sql = [
    'SELECT',
    `  if(${isTotal},`,
    `    formatRowNoNewline('JSONEachRow', ${[`${itemCount} AS ${ITEM_COUNT_FIELD}`, ...(money.conversion ? [`${money.convertedCurrencies('groupBitOr(currency_bit)')} AS ${CONVERTED_FIELD}`] : []), sums].join(', ')}),`,
    `    ${item}) AS line`,
    'FROM (',
    partialSums,
    ')',
    `GROUP BY GROUPING SETS ((${keys.join(', ')}), ())`,
    `ORDER BY ${[`${isTotal} DESC`, ...keys.map((key) => `${key} ASC`)].join(', ')}`,
    `LIMIT ${params.add('UInt64', itemLimit + 1)}`,
  ].join('\n');
  return { sql: withProjectionPreference(sql), params: params.toObject() };
}

/**
 * The pre-aggregation both /data statements share: per bucket and dimension values (and the branches' own keys), each
 * metric's partial sum in the answer's currency (`part_<column>`) and with a conversion the group's currency bit — of
 * the rows the question selects, and with splits of the adjustment rows its category filters keep (with
 * `part_split_in` and `part_split_out` when it groups by the category; the rows themselves moved nothing).
 */
export function partialSumsSql(table: string, query: CostDataQuery, params: SqlParameters, money: MoneySql): string {
  const keys = [BUCKET_COLUMN, ...query.dimensions.map((_, i) => dimensionColumn(i))];
  const grouped = splitFieldNames(query).length > 0;
  // The rows' own part of split_in and split_out is a constant, so their sums stay those an aggregate projection has.
  const splitParts = (branch: MoneyBranch, moved: boolean) =>
    !grouped
      ? [metricPartSumsSql(branch)]
      : moved
        ? [
            metricPartSumsSql(
              branch,
              ', ',
              SPLIT_FIELDS.map((field) => [field, `part_${field}`] as const),
            ),
          ]
        : [metricPartSumsSql(branch), ...SPLIT_FIELDS.map((field) => `toDecimal128(0, 10) AS part_${field}`)];
  const select = (from: string, where: string, dimensions: string[], moved: boolean) =>
    money.select((branch, and) =>
      [
        `  SELECT ${[
          `${bucketStartSql(query.dateGrouping)} AS ${BUCKET_COLUMN}`,
          ...dimensions.map((sql, i) => `${sql} AS ${dimensionColumn(i)}`),
          ...(money.conversion ? [`${branch.currencyBit} AS currency_bit`] : []),
          ...splitParts(branch, moved),
        ].join(', ')}`,
        `  FROM ${branch.from ?? from}`,
        `  WHERE ${and(where).replace(/\n/g, '\n  ')}`,
        `  GROUP BY ${[...keys, ...branch.groupKeys].join(', ')}`,
      ].join('\n'),
    );
  const dimensions = query.dimensions.map((ref) => dimensionValueSql(ref, params, query.scope));
  const rows = select(table, compileWhere(query.scope, query.filters, params, whereOptions(query)), dimensions, false);
  const splits = query.splits;
  if (!splits || splits.adjustments.length === 0) return rows;
  const moved = select(
    adjustmentRowsSql(splits, query.dimensions.length, params),
    adjustmentValueCondition(splits, params),
    query.dimensions.map((_, i) => `split_dim_${i}`),
    true,
  );
  return `${rows}\nUNION ALL\n${moved}`;
}

/** An item's amortized cost moved in and out by splits, beside its metrics (items grouped by a category with splits). */
const SPLIT_FIELDS = ['split_in', 'split_out'] as const;

/** The split fields of the question's items: split_in and split_out when it groups by a category with splits. */
export function splitFieldNames(query: Pick<CostDataQuery, 'splits'>): readonly string[] {
  return query.splits?.plan.dimensionIndex === undefined ? [] : SPLIT_FIELDS;
}

/** The items' split fields re-added from their partial sums (in the answer's numbers, as the metrics). */
export function splitFieldsSql(query: CostDataQuery, money: MoneySql): string[] {
  return splitFieldNames(query).map((field) => `${money.total(`sum(part_${field})`)} AS ${field}`);
}

/** The totals line's count of every item of the answer (the other fields are metric sums). */
const ITEM_COUNT_FIELD = 'item_count';
/** The totals line's codes of the currencies converted (with a conversion). */
const CONVERTED_FIELD = 'converted_currencies';

/** buildCostDataQuery's result, taken apart without decoding (or joining) the items. */
export interface CostDataResultBytes {
  /** The metric sums over the whole filtered period, under their item field names. */
  totals: Record<string, unknown>;
  /** How many items the answer has in all (the LIMIT may have cut `items` short of it). */
  itemCount: number;
  /** With a conversion: the codes of the currencies converted (none without one). */
  convertedCurrencies: string[];
  /** The inside of the JSON `items` array, `{…}\n,{…}\n`, as chunks of the result (none without items). */
  items: Buffer[];
}

const NEWLINE = 0x0a;

/** The CSV header record of buildCostDataQuery's `csv` items: the bucket, each grouping dimension by name, the metrics. */
export function costDataCsvColumns(query: Pick<CostDataQuery, 'dimensions' | 'splits'>): string[] {
  return ['usage_date', ...query.dimensions.map(dimensionName), ...METRIC_CSV_HEADERS, ...splitFieldNames(query)];
}

/**
 * Reads the totals line; the items stay the result's own chunks, sliced past that line (and, for JSON
 * items, the first item's comma).
 */
export function readCostDataResult(chunks: Buffer[], itemFormat: CostDataItemFormat = 'json'): CostDataResultBytes {
  const head: Buffer[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const end = chunks[i].indexOf(NEWLINE);
    if (end < 0) {
      head.push(chunks[i]);
      continue;
    }
    head.push(chunks[i].subarray(0, end));
    const {
      [ITEM_COUNT_FIELD]: itemCount,
      [CONVERTED_FIELD]: convertedCurrencies,
      ...totals
    } = JSON.parse(Buffer.concat(head).toString('utf8')) as Record<string, unknown>;
    // The items start past the newline and the first JSON item's leading comma, which may lie in a later chunk.
    let [index, offset] = [i, end + (itemFormat === 'json' ? 2 : 1)];
    while (index < chunks.length && offset >= chunks[index].length) offset -= chunks[index++].length;
    const items = index < chunks.length ? [chunks[index].subarray(offset), ...chunks.slice(index + 1)] : [];
    return { totals, itemCount: Number(itemCount), convertedCurrencies: (convertedCurrencies as string[] | undefined) ?? [], items };
  }
  return { totals: {}, itemCount: 0, convertedCurrencies: [], items: [] }; // no totals line: nothing matched
}

/** `dimension_values` (a map keyed by dimension name) for `groupBy.dimensions`, else `dimension_value` for one. */
export function dimensionFields(query: CostDataQuery, params: SqlParameters): string[] {
  if (query.multiDimension) {
    const pairs = query.dimensions.map((ref, i) => `${params.add('String', dimensionName(ref))}, ${dimensionColumn(i)}`);
    return [`map(${pairs.join(', ')}) AS dimension_values`];
  }
  return query.dimensions.length === 1 ? [`${dimensionColumn(0)} AS dimension_value`] : [];
}

export function whereOptions(query: CostDataQuery) {
  return { today: query.today, defaultWindowDays: query.defaultWindowDays };
}
