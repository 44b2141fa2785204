import { withProjectionPreference } from './projection-preference';
import { bucketStartSql, DateGrouping } from './date-bucketing';
import { mapColumn } from './activated-maps';
import { COLUMN_DIMENSIONS, DimensionRef, dimensionName, NOT_SET } from './dimension-registry';
import { compileWhere } from './filter-compiler';
import { Filters, OrganizationScope } from './filters.types';
import { metricPartSumsSql, metricSumsOfPartsSql } from './cost-metrics';
import { METRIC_CSV_HEADERS } from './metrics';
import { CompiledSql, SqlParameters } from './sql-parameters';
import { ConvertedSums, CurrencyConversion, MoneySql } from './currency-conversion';
import { csvSafeTextSql } from './csv-safe-text';

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
  const dimensionSelects = query.dimensions.map((ref, i) => `${dimensionValueSql(ref, params, query.scope)} AS ${dimensionColumn(i)}`);
  const whereSql = compileWhere(query.scope, query.filters, params, whereOptions(query));
  const keys = [BUCKET_COLUMN, ...query.dimensions.map((_, i) => dimensionColumn(i))];
  const sums = metricSumsOfPartsSql((metric) => metric, ', ', money);
  const isTotal = `grouping(${BUCKET_COLUMN}) = 1`;
  // The inner groups are the items, unless converting at question time makes them finer (per currency and day or
  // period): then count the items.
  const itemCount = money.conversion && !money.onePartPerGroup() ? `uniqExact(${keys.join(', ')})` : 'count()';
  // A CSV record ends with CRLF: its CR here, the LF as every result line's end. Dimension values are
  // tenants' text: never a spreadsheet formula (the bucket is a Date, the metrics are numbers).
  const csvCells = () => [BUCKET_COLUMN, ...query.dimensions.map((_, i) => csvSafeTextSql(dimensionColumn(i), params)), sums];
  const item =
    itemFormat === 'json'
      ? `concat(',', formatRowNoNewline('JSONEachRow', ${[`${BUCKET_COLUMN} AS usage_date`, ...dimensionFields(query, params), sums].join(', ')}))`
      : `concat(formatRowNoNewline('CSV', ${csvCells().join(', ')}), '\\r')`;
  const sql = [
    'SELECT',
    `  if(${isTotal},`,
    `    formatRowNoNewline('JSONEachRow', ${[`${itemCount} AS ${ITEM_COUNT_FIELD}`, ...(money.conversion ? [`${money.convertedCurrencies('groupBitOr(currency_bit)')} AS ${CONVERTED_FIELD}`] : []), sums].join(', ')}),`,
    `    ${item}) AS line`,
    'FROM (',
    money.select((branch, where) =>
      [
        `  SELECT ${[
          `${bucketStartSql(query.dateGrouping)} AS ${BUCKET_COLUMN}`,
          ...dimensionSelects,
          ...(money.conversion ? [`${branch.currencyBit} AS currency_bit`] : []),
          metricPartSumsSql(branch),
        ].join(', ')}`,
        `  FROM ${branch.from ?? table}`,
        `  WHERE ${where(whereSql).replace(/\n/g, '\n  ')}`,
        `  GROUP BY ${[...keys, ...branch.groupKeys].join(', ')}`,
      ].join('\n'),
    ),
    ')',
    `GROUP BY GROUPING SETS ((${keys.join(', ')}), ())`,
    `ORDER BY ${[`${isTotal} DESC`, ...keys.map((key) => `${key} ASC`)].join(', ')}`,
    `LIMIT ${params.add('UInt64', itemLimit + 1)}`,
  ].join('\n');
  return { sql: withProjectionPreference(sql), params: params.toObject() };
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
export function costDataCsvColumns(query: Pick<CostDataQuery, 'dimensions'>): string[] {
  return ['usage_date', ...query.dimensions.map(dimensionName), ...METRIC_CSV_HEADERS];
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
