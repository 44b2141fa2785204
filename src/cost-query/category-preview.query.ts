import { dimensionValueSql } from './cost-data.query';
import { CurrencyConversion, MoneySql } from './currency-conversion';
import { compileWhere } from './filter-compiler';
import type { DateRange, OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';
import { adjustmentRowsSql, QuestionSplits } from './split-adjustments';

/** What a preview of a category definition reads: each value's cost and rows over a window. */
export interface CategoryPreviewQuery {
  /** The organisation, with the categories computed as the definition would have them (ruleCategories). */
  scope: OrganizationScope;
  key: string;
  window: Required<DateRange>;
  /** The conversion into the answer's currency; absent when every row the answer may meet is in it. */
  conversion?: CurrencyConversion;
  /** What the definition's shared-cost splits move, grouped by the category alone (split-adjustments.ts). */
  splits?: QuestionSplits;
}

export interface CategoryPreviewRow {
  value: string;
  amortized_cost: string;
  rows: string;
}

/** Per value of the category: its amortized cost (exact, in the answer's currency) and its rows, the costliest first. */
export function buildCategoryPreviewQuery(table: string, query: CategoryPreviewQuery): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params);
  const value = dimensionValueSql({ kind: 'costCategory', key: query.key }, params, query.scope);
  const where = compileWhere(query.scope, { inclusions: { dateRange: query.window } }, params, {
    today: query.window.end,
    defaultWindowDays: 1,
  });
  const select = (from: string, rowWhere: string, valueSql: string, rows: string) =>
    money.select((branch, and) =>
      [
        `  SELECT ${valueSql} AS value, ${branch.sums(['amortized_cost'])[0]} AS part_cost, ${rows} AS part_rows`,
        `  FROM ${branch.from ?? from}`,
        `  WHERE ${and(rowWhere)}`,
        `  GROUP BY ${['value', ...branch.groupKeys].join(', ')}`,
      ].join('\n'),
    );
  let parts = select(table, where, value, 'count()');
  // Cost moved by the splits counts in its value's cost, not in its rows.
  if (query.splits && query.splits.adjustments.length > 0)
    parts = `${parts}\nUNION ALL\n${select(adjustmentRowsSql(query.splits, 1, params), '1', 'split_dim_0', 'toUInt64(0)')}`;
  const sql = [
    `SELECT value, toString(${money.total('sum(part_cost)')}) AS amortized_cost, toString(sum(part_rows)) AS rows`,
    `FROM (\n${parts}\n)`,
    'GROUP BY value',
    'ORDER BY sum(part_cost) DESC, value',
  ].join('\n');
  return { sql, params: params.toObject() };
}
