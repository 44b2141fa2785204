import { Injectable } from '@nestjs/common';
import { addDays } from '../common/dates/calendar-date';
import { scaled } from '../common/money/scaled-decimal';
import { mapKeysNamed } from '../cost-query/activated-maps';
import { BudgetQuestion, BudgetSumsRow, buildBudgetSumsQuery } from '../cost-query/budget-sums.query';
import { organizationScopeOf } from '../cost-query/data-scope';
import type { DateRange, OrganizationScope } from '../cost-query/filters.types';
import { TRAINING_DAYS } from '../cost-query/forecast-model';
import { RuleCategoriesService } from '../cost-categories/rule-categories.service';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';
import { periodContaining, shiftPeriod } from './budget-definition';
import type { BudgetSums } from './budget-status';
import type { StoredBudget } from './budgets.repository';

/** Budgets read in one statement: their conditions are evaluated on every row of the window. */
const BUDGETS_PER_STATEMENT = 100;

/**
 * The sums every budget's standing is computed from, per budget: its days since the current period started (and the
 * forecast's training days), and its months over the past periods (whole months: the monthly projection answers). Budgets of one currency and metric are read
 * together, BUDGETS_PER_STATEMENT at a time, two statements each (days, months).
 */
@Injectable()
export class BudgetSumsService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly currencies: AnswerCurrencyService,
    private readonly ruleCategories: RuleCategoriesService,
  ) {}

  async read(
    organizationId: string,
    budgets: readonly StoredBudget[],
    today: string,
    historyPeriods: number,
  ): Promise<Map<string, BudgetSums>> {
    const base = await this.baseScope(organizationId, budgets);
    const sums = new Map(budgets.map((budget) => [budget.budgetId, { days: new Map(), months: new Map() } as BudgetSums]));
    for (const batch of batches(budgets)) {
      const { currency, metric } = batch[0].definition;
      const windows = { days: daysWindow(batch, today), months: monthsWindow(batch, today, historyPeriods) };
      const questions: BudgetQuestion[] = batch.map((budget) => ({
        scope: { ...base, dataScope: organizationScopeOf({ organizationId, dataScope: budget.dataScope || undefined }).dataScope },
        filters: budget.definition.filters,
      }));
      const span = { start: [windows.days.start, windows.months.start].sort()[0], end: today };
      await this.currencies.answer(base, currency, { dateRanges: [span] }, async (money) => {
        const read = (grain: 'day' | 'month', window: DateRange) => {
          const { sql, params } = buildBudgetSumsQuery(this.clickhouse.table('cost_line_items'), {
            organizationId,
            budgets: questions,
            metric,
            window,
            grain,
            conversion: money.conversion,
          });
          return this.clickhouse.query<BudgetSumsRow>(sql, params, base);
        };
        const [days, months] = await Promise.all([
          read('day', windows.days),
          windows.months.start <= windows.months.end ? read('month', windows.months) : [],
        ]);
        for (const row of days) addDay(sums.get(batch[row.budget - 1].budgetId)!, row);
        for (const row of months) sums.get(batch[row.budget - 1].budgetId)!.months.set(row.date, scaled(row.amount));
      });
    }
    return sums;
  }

  /** The organisation, with its rule-defined categories computed when a budget (or the scope it was made in) names a category. */
  private async baseScope(organizationId: string, budgets: readonly StoredBudget[]): Promise<OrganizationScope> {
    const scope: OrganizationScope = { organizationId };
    const namesCategory = budgets.some((budget) =>
      mapKeysNamed(organizationScopeOf({ organizationId, dataScope: budget.dataScope || undefined }), budget.definition.filters, []).some(
        (ref) => ref.kind === 'costCategory',
      ),
    );
    return namesCategory ? this.ruleCategories.scopeWithAll(scope) : scope;
  }
}

function addDay(sums: BudgetSums, row: BudgetSumsRow): void {
  const day = sums.days.get(row.date) ?? { all: 0n, modelled: 0n };
  const amount = scaled(row.amount);
  sums.days.set(row.date, { all: day.all + amount, modelled: day.modelled + (Number(row.one_off) === 1 ? 0n : amount) });
}

/** Budgets of one currency and metric, at most BUDGETS_PER_STATEMENT together. */
function batches(budgets: readonly StoredBudget[]): StoredBudget[][] {
  const groups = new Map<string, StoredBudget[]>();
  for (const budget of budgets) {
    const key = `${budget.definition.currency}/${budget.definition.metric}`;
    groups.set(key, [...(groups.get(key) ?? []), budget]);
  }
  return [...groups.values()].flatMap((group) =>
    Array.from({ length: Math.ceil(group.length / BUDGETS_PER_STATEMENT) }, (_, i) =>
      group.slice(i * BUDGETS_PER_STATEMENT, (i + 1) * BUDGETS_PER_STATEMENT),
    ),
  );
}

/** The current periods' days and the forecast's training days before today. */
function daysWindow(budgets: readonly StoredBudget[], today: string): DateRange {
  const training = addDays(today, -TRAINING_DAYS);
  const starts = budgets.map((budget) => periodContaining(budget.definition.period, today).start);
  return { start: [training, ...starts].sort()[0], end: today };
}

/**
 * The whole months of the past periods shown, up to the month before today's: a past period ends before the current
 * one starts, and the current period is read by day.
 */
function monthsWindow(budgets: readonly StoredBudget[], today: string, historyPeriods: number): DateRange {
  const starts = budgets.map(
    (budget) => shiftPeriod(budget.definition.period, periodContaining(budget.definition.period, today), -historyPeriods).start,
  );
  return { start: starts.sort()[0], end: addDays(`${today.slice(0, 7)}-01`, -1) };
}
