import { CurrencyConversion, MoneySql } from './currency-conversion';
import { filtersCondition } from './filter-compiler';
import type { DateRange, Filters, OrganizationScope } from './filters.types';
import { ONE_OFF_CHARGE_CATEGORIES } from './forecast-series.query';
import { withProjectionPreference } from './projection-preference';
import { CompiledSql, SqlParameters } from './sql-parameters';

/** The money columns a budget can follow. */
export type BudgetSumsMetric = 'amortized_cost' | 'billed_cost';

/** One budget of a batch: the rows it reads (its filters inside its own data scope). */
export interface BudgetQuestion {
  /** The organisation with the budget's data scope (and any rule-defined categories computed). */
  scope: OrganizationScope;
  /** Filters without dates. */
  filters: Filters;
}

/**
 * Several budgets of one organisation, metric and currency, read in one pass over the window: each row is counted for
 * every budget whose filters select it (ARRAY JOIN of the budgets' conditions), so N budgets cost one scan, not N.
 */
export interface BudgetSumsQuery {
  organizationId: string;
  budgets: readonly BudgetQuestion[];
  metric: BudgetSumsMetric;
  window: DateRange;
  /** `day`: per usage day, one-off charges apart (a forecast's history); `month`: per usage month (its first day). */
  grain: 'day' | 'month';
  conversion?: CurrencyConversion;
}

/** A row of the answer: the budget's position in the batch (from 1), the day or month's first day, exact decimal text. */
export interface BudgetSumsRow {
  budget: number;
  date: string;
  one_off: number;
  amount: string;
}

export function buildBudgetSumsQuery(table: string, query: BudgetSumsQuery): CompiledSql {
  const params = new SqlParameters();
  const money = new MoneySql(query.conversion, params);
  const organization = params.named('organization_id', 'UUID', query.organizationId);
  const [start, end] = [params.named('window_start', 'Date', query.window.start), params.named('window_end', 'Date', query.window.end)];
  const matches = query.budgets.map((budget, i) => `if(${filtersCondition(budget.scope, budget.filters, params)}, ${i + 1}, 0)`);
  const date = query.grain === 'day' ? 'usage_date' : 'toStartOfMonth(usage_date)';
  const oneOff =
    query.grain === 'day' ? `charge_category IN ${params.named('one_off_categories', 'Array(String)', ONE_OFF_CHARGE_CATEGORIES)}` : '0';
  const grouped = money.select((branch, and) => {
    const [metric] = branch.sums([query.metric]);
    return [
      `  SELECT budget, ${date} AS date, ${oneOff} AS one_off, ${metric} AS part`,
      `  FROM ${table}`,
      `  ARRAY JOIN arrayFilter(position -> position != 0, [${matches.join(', ')}]) AS budget`,
      `  WHERE ${and(`organization_id = ${organization}\n  AND usage_date BETWEEN ${start} AND ${end}`)}`,
      `  GROUP BY ${['budget', 'date', 'one_off', ...branch.groupKeys].join(', ')}`,
    ].join('\n');
  });
  const sql = [
    `SELECT budget, toString(date) AS date, one_off, toString(${money.total('sum(part)')}) AS amount`,
    'FROM (',
    grouped,
    ')',
    'GROUP BY budget, date, one_off',
    'ORDER BY budget, date, one_off',
  ].join('\n');
  return { sql: withProjectionPreference(sql), params: params.toObject() };
}
