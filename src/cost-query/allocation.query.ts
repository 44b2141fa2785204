import { COLUMN_DIMENSIONS } from './dimension-registry';
import { mapColumn } from './activated-maps';
import { CurrencyConversion, MoneySql } from './currency-conversion';
import { compileWhere } from './filter-compiler';
import type { DateRange, OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';
import { NOT_SET } from './filter-fields';
import { adjustmentRowsSql, flowRowsSql, QuestionSplits, SplitFlowRow } from './split-adjustments';

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
  /**
   * What the category's shared-cost splits move, as adjustment rows grouped by [category, service, account]
   * (split-adjustments.ts): allocated and unallocated cost are measured after the splits.
   */
  splits?: QuestionSplits;
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
  const defaults = query.defaultValues.length > 0 ? params.add('Array(String)', [...query.defaultValues]) : undefined;
  const unallocated = (valueSql: string) => `(${valueSql} = ''${defaults ? ` OR has(${defaults}, ${valueSql})` : ''})`;
  const where = compileWhere(query.scope, { inclusions: { dateRange: query.window } }, params, {
    today: query.window.end,
    defaultWindowDays: 1,
  });
  const select = (from: string, rowWhere: string, columns: { service: string; account: string; value: string }) =>
    money.select((branch, and) =>
      [
        `  SELECT formatDateTime(usage_date, '%Y-%m') AS month, ${columns.service} AS service, ${columns.account} AS account,`,
        `         ${unallocated(columns.value)} AS unallocated, ${branch.sums(['amortized_cost'])[0]} AS part_cost`,
        `  FROM ${branch.from ?? from}`,
        `  WHERE ${and(rowWhere)}`,
        `  GROUP BY ${['month', 'service', 'account', 'unallocated', ...branch.groupKeys].join(', ')}`,
      ].join('\n'),
    );
  let parts = select(table, where, { service: COLUMN_DIMENSIONS.service.column, account: COLUMN_DIMENSIONS.account.column, value });
  if (query.splits && query.splits.adjustments.length > 0) {
    // Moved rows carry their service and account as grouped answers show them: "(not set)" is the column's ''.
    const notSet = params.add('String', NOT_SET);
    const column = (index: number) => `if(split_dim_${index} = ${notSet}, '', split_dim_${index})`;
    const moved = select(adjustmentRowsSql(query.splits, 3, params), '1', { service: column(1), account: column(2), value: 'split_value' });
    parts = `${parts}\nUNION ALL\n${moved}`;
  }
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

/** One flow of the answer: amortized cost moved from a value to another over the window, in the answer's currency. */
export interface SplitFlowTotalRow {
  source: string;
  target: string;
  amount: string;
}

/** The flows' totals per (source, target) in the answer's currency, the largest first (then by source and target). */
export function buildSplitFlowsQuery(flows: readonly SplitFlowRow[], conversion: CurrencyConversion | undefined): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(conversion, params);
  const rows = flowRowsSql(flows, params);
  const parts = money.select((branch, and) =>
    [
      `  SELECT split_from AS source, split_to AS target, ${branch.sums(['amortized_cost'])[0]} AS part_cost`,
      `  FROM ${rows}`,
      `  WHERE ${and('1')}`,
      `  GROUP BY ${['source', 'target', ...branch.groupKeys].join(', ')}`,
    ].join('\n'),
  );
  const sql = [
    `SELECT source, target, toString(${money.total('sum(part_cost)')}) AS amount`,
    `FROM (\n${parts}\n)`,
    'GROUP BY source, target',
    'ORDER BY sum(part_cost) DESC, source, target',
  ].join('\n');
  return { sql, params: params.toObject() };
}
