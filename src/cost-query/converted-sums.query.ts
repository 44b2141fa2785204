import { formatMonthNumber, monthNumber } from '../common/dates/calendar-date';
import type { CostDataQuery } from './cost-data.query';
import { MEASURE_COLUMNS } from './metrics';
import { CurrencyConversion, CurrencyPresence, currencyBitSql, MoneySql } from './currency-conversion';
import { FilterFields } from './filters.types';
import { LIST_FIELDS, MAP_DIMENSIONS } from './filter-fields';
import { CompiledSql, SqlParameters } from './sql-parameters';

/**
 * Converted sums (migration 0021): an organisation's costs converted into one answer currency once, per state of its
 * inputs, so a converted /data question reads them as an unconverted one reads the aggregate projections.
 */

/** What a build groups by: the usage day and every list field's column (billing period and currency among them). */
export const CONVERTED_SUM_KEYS: readonly string[] = ['usage_date', ...LIST_FIELDS.map((field) => field.column)];

/** The columns of a build's row, in the order buildConvertedSumsSelect answers them. */
export const CONVERTED_SUM_COLUMNS: readonly string[] = [
  'organization_id',
  'build_id',
  ...CONVERTED_SUM_KEYS,
  'converted_bit',
  ...MEASURE_COLUMNS,
];

/**
 * Whether converted sums can answer a /data question: it groups and filters on list columns and dates only (its data
 * scope included), not on a tag or a cost category, which a build does not keep.
 */
export function readsOnlyListColumns(query: Pick<CostDataQuery, 'scope' | 'filters' | 'dimensions'>): boolean {
  const { filters, scope } = query;
  const fieldSets: Array<FilterFields | undefined> = [
    filters.inclusions,
    filters.exclusions,
    scope.dataScope?.inclusions,
    scope.dataScope?.exclusions,
  ];
  const keyFields = Object.values(MAP_DIMENSIONS).map((map) => map.keyField);
  return (
    query.dimensions.every((ref) => ref.kind === 'column') &&
    fieldSets.every((fields) => !fields || keyFields.every((key) => fields[key] === undefined || fields[key] === null))
  );
}

/** Places of a build's amounts (migration 0021): those of a scale-10 sum times a rate of at most 8 places. */
const STORED_SCALE = 18;

/**
 * The rows of one month of a build (`month`: its first day), in CONVERTED_SUM_COLUMNS' order, which the store writes
 * into the build's table (converted-sums.repository.ts): the organisation's cost rows of that month
 * summed per (day, list columns), the groups in other currencies multiplied by their (currency, day or period) rate
 * exactly as a converting question does (MoneySql), each product kept to 18 places (rounded half away from zero:
 * only a derived cross rate's products have more) with its currency's bit among the build's converted currencies
 * (`conversion.rates`' order). A month at a time keeps a large estate's aggregation small. `conversion` must cover
 * every day of the organisation's costs: a group without a rate stops the statement (MISSING_RATE_SIGNAL).
 */
export function buildConvertedSumsSelect(
  costTable: string,
  organizationId: string,
  buildId: string,
  conversion: CurrencyConversion,
  month: string,
): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(conversion, params);
  const organization = params.named('organization_id', 'UUID', organizationId);
  const build = params.named('build_id', 'UUID', buildId);
  const bit = currencyBitSql([...conversion.rates.keys()], params);
  const inMonth = `organization_id = ${organization} AND toStartOfMonth(usage_date) = ${params.named('month', 'Date', month)}`;
  const stored = (sum: string) => `toDecimal128(round(${sum}, ${STORED_SCALE}), ${STORED_SCALE})`;
  const sql = money.select((branch, where) =>
    [
      `SELECT ${[organization, build, ...CONVERTED_SUM_KEYS, bit, ...branch.sums(MEASURE_COLUMNS).map(stored)].join(', ')}`,
      `FROM ${costTable}`,
      `WHERE ${where(inMonth)}`,
      `GROUP BY ${[...new Set([...CONVERTED_SUM_KEYS, ...branch.groupKeys])].join(', ')}`,
    ].join('\n'),
  );
  return { sql, params: params.toObject() };
}

/** The first day of every month with costs, in order: the months a build writes. */
export function monthsOf(presence: readonly CurrencyPresence[]): string[] {
  const months = new Set<number>();
  for (const { firstDay, lastDay } of presence) {
    for (let month = monthNumber(firstDay); month <= monthNumber(lastDay); month++) months.add(month);
  }
  return [...months].sort((a, b) => a - b).map(formatMonthNumber);
}
