import { COLUMN_DIMENSIONS } from './dimension-registry';
import { mapColumn } from './activated-maps';
import { CurrencyConversion, MoneySql } from './currency-conversion';
import { compileWhere } from './filter-compiler';
import type { DateRange, OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';

/** What /allocation reads: one category's allocated and unallocated cost over a window. */
export interface AllocationQuery {
  /** The organisation (and the key's data scope), the category computed when it is defined by rules (ruleCategories). */
  scope: OrganizationScope;
  category: string;
  /** The values that mean "no owner" beside no value at all (a rule-defined category's defaults); none for an imported one. */
  defaultValues: readonly string[];
  window: DateRange;
  /** The conversion into the answer's currency; absent when every row the answer may meet is in it. */
  conversion?: CurrencyConversion;
}

/** The groups of the answer, in `grouping`: per usage month, per service, per account. */
export const ALLOCATION_GROUPS = { month: 'month', service: 'service', account: 'account' } as const;
export type AllocationGroup = keyof typeof ALLOCATION_GROUPS;

export interface AllocationRow {
  grouping: AllocationGroup;
  label: string;
  amortized_cost: string;
  unallocated_cost: string;
}

/**
 * The amortized cost and its unallocated part (no value for the category, or its default) per usage month, per
 * service and per account, in one scan: the rows pre-aggregated per (month, service, account, allocated or not) in the
 * answer's currency, then re-added exactly per grouping set.
 */
export function buildAllocationQuery(table: string, query: AllocationQuery): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params);
  const value = `${mapColumn('costCategory', query.scope, params)}[${params.add('String', query.category)}]`;
  const defaults = query.defaultValues.length > 0 ? ` OR has(${params.add('Array(String)', [...query.defaultValues])}, ${value})` : '';
  const unallocated = `(${value} = ''${defaults})`;
  const where = compileWhere(query.scope, { inclusions: { dateRange: query.window } }, params, {
    today: query.window.end,
    defaultWindowDays: 1,
  });
  const service = COLUMN_DIMENSIONS.service.column;
  const account = COLUMN_DIMENSIONS.account.column;
  const parts = money.select((branch, and) =>
    [
      `  SELECT formatDateTime(usage_date, '%Y-%m') AS month, ${service} AS service, ${account} AS account,`,
      `         ${unallocated} AS unallocated, ${branch.sums(['amortized_cost'])[0]} AS part_cost`,
      `  FROM ${branch.from ?? table}`,
      `  WHERE ${and(where)}`,
      `  GROUP BY ${['month', 'service', 'account', 'unallocated', ...branch.groupKeys].join(', ')}`,
    ].join('\n'),
  );
  const label = `multiIf(grouping(month) = 0, month, grouping(service) = 0, service, account)`;
  const grouping = `multiIf(grouping(month) = 0, '${ALLOCATION_GROUPS.month}', grouping(service) = 0, '${ALLOCATION_GROUPS.service}', '${ALLOCATION_GROUPS.account}')`;
  const sql = [
    `SELECT ${grouping} AS grouping, ${label} AS label,`,
    `  toString(${money.total('sum(part_cost)')}) AS amortized_cost,`,
    `  toString(${money.total('sumIf(part_cost, unallocated)')}) AS unallocated_cost`,
    `FROM (\n${parts}\n)`,
    'GROUP BY GROUPING SETS ((month), (service), (account))',
    'ORDER BY grouping, label',
  ].join('\n');
  return { sql, params: params.toObject() };
}
