import { dimensionValueSql } from './cost-data.query';
import { CurrencyConversion, MoneySql } from './currency-conversion';
import { compileWhere } from './filter-compiler';
import type { DateRange, OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';

/** What a preview of a category definition reads: each value's cost and rows over a window. */
export interface CategoryPreviewQuery {
  /** The organisation, with the categories computed as the definition would have them (ruleCategories). */
  scope: OrganizationScope;
  key: string;
  window: Required<DateRange>;
  /** The conversion into the answer's currency; absent when every row the answer may meet is in it. */
  conversion?: CurrencyConversion;
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
  const parts = money.select((branch, and) =>
    [
      `  SELECT ${value} AS value, ${branch.sums(['amortized_cost'])[0]} AS part_cost, count() AS part_rows`,
      `  FROM ${branch.from ?? table}`,
      `  WHERE ${and(where)}`,
      `  GROUP BY ${['value', ...branch.groupKeys].join(', ')}`,
    ].join('\n'),
  );
  const sql = [
    `SELECT value, toString(${money.total('sum(part_cost)')}) AS amortized_cost, toString(sum(part_rows)) AS rows`,
    `FROM (\n${parts}\n)`,
    'GROUP BY value',
    'ORDER BY sum(part_cost) DESC, value',
  ].join('\n');
  return { sql, params: params.toObject() };
}
