import { isWholeMonths } from '../common/dates/calendar-date';
import { CurrencyConversion, MoneySql } from './currency-conversion';
import { filtersCondition } from './filter-compiler';
import { columnsRead, MAP_COLUMNS } from './columns-read';
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
  /**
   * `day`: per usage day, one-off charges apart (a forecast's history); `month`: per usage month (its first day), the
   * window whole months (the monthly aggregate projection answers it).
   */
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
  if (query.grain === 'month' && !isWholeMonths(query.window.start, query.window.end))
    throw new Error(`budget sums by month need whole months, received ${query.window.start} to ${query.window.end}`);
  // A range of whole months written on the month: the condition the monthly projection can evaluate.
  const days = query.grain === 'day' ? `usage_date BETWEEN ${start} AND ${end}` : `toStartOfMonth(usage_date) BETWEEN ${start} AND ${end}`;
  const matches = query.budgets.map((budget, i) => `if(${filtersCondition(budget.scope, budget.filters, params)}, ${i + 1}, 0)`);
  const conditions = matches.join('\n');
  const read = columnsRead(conditions);
  const selected = new Map(read.map((column) => [column, keptOf(column, conditions, params)]));
  const bucket = query.grain === 'day' ? 'usage_date' : 'toStartOfMonth(usage_date)';
  const oneOff =
    query.grain === 'day' ? `charge_category IN ${params.named('one_off_categories', 'Array(String)', ONE_OFF_CHARGE_CATEGORIES)}` : '0';
  // The rows first summed by what the budgets' conditions read (an aggregate projection answers that), then each
  // group counted for every budget whose conditions select it: the conditions run on groups, not on line items.
  const grouped = money.select((branch, and) => {
    const [part] = branch.sums(['line_sum']);
    const keys = [...new Set([...branch.groupKeys, ...read])];
    return [
      `  SELECT budget, bucket AS date, one_off, ${part} AS part`,
      '  FROM (',
      `    SELECT ${[`${bucket} AS bucket`, `${oneOff} AS one_off`, ...keys.map((key) => selected.get(key) ?? key), `sum(${query.metric}) AS line_sum`].join(', ')}`,
      `    FROM ${table}`,
      `    WHERE ${and(`organization_id = ${organization}\n  AND ${days}`)}`,
      `    GROUP BY ${['bucket', 'one_off', ...keys].join(', ')}`,
      '  )',
      `  ARRAY JOIN arrayFilter(position -> position != 0, [${matches.join(', ')}]) AS budget`,
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

/**
 * What the rows are grouped by for a column the conditions read (selected under its own name): a map read only by keys (`resource_tags[{p3:String}]`)
 * restricted to those keys. Grouped whole, a tag map holds each resource's own tags (its id among them), so the groups
 * are as many as the resources' days: past the memory budget at 100M line items.
 */
function keptOf(column: string, conditions: string, params: SqlParameters): string {
  if (!MAP_COLUMNS.includes(column)) return column;
  const uses = conditions.match(new RegExp(`\\b${column}\\b`, 'g'))?.length ?? 0;
  const byKey = [...conditions.matchAll(new RegExp(`\\b${column}\\[\\{(\\w+):String\\}\\]`, 'g'))].map(([, name]) => name);
  if (byKey.length !== uses) return column;
  const values = params.toObject();
  const keys = [...new Set(byKey.map((name) => String(values[name])))];
  return `mapFilter((key, value) -> has(${params.add('Array(String)', keys)}, key), ${column}) AS ${column}`;
}
