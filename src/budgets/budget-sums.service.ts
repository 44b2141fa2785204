import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { addDays } from '../common/dates/calendar-date';
import { scaled } from '../common/money/scaled-decimal';
import { mapKeysNamed } from '../cost-query/activated-maps';
import { BudgetQuestion, BudgetSumsRow, buildBudgetSumsQuery } from '../cost-query/budget-sums.query';
import { organizationScopeOf } from '../cost-query/data-scope';
import type { DateRange, OrganizationScope } from '../cost-query/filters.types';
import { TRAINING_DAYS } from '../cost-query/forecast-model';
import { RuleCategoriesService } from '../cost-categories/rule-categories.service';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { CostDataVersion } from '../store/data-version/cost-data-version.service';
import { REDIS } from '../infrastructure/redis/redis.module';
import { metrics } from '../observability/prometheus-metrics';
import { BUDGET_LIMITS, periodContaining, shiftPeriod } from './budget-definition';
import type { BudgetSums } from './budget-status';
import type { StoredBudget } from '../store/repositories/budgets.repository';
import { groupedBy } from '../common/collections/grouped-by';

/** Budgets read in one statement: their conditions are evaluated on every group of the window's rows. */
const BUDGETS_PER_STATEMENT = 100;

/**
 * The sums every budget's standing is computed from, per budget: its days since the current period started (and the
 * forecast's training days), and its months over the past periods (whole months: the monthly projection answers).
 * Budgets of one currency and metric are read together, BUDGETS_PER_STATEMENT at a time, two statements each (days,
 * months); what was read is stored for the same data and day.
 */
@Injectable()
export class BudgetSumsService {
  private readonly logger = new Logger('Budgets');
  /** Sums this instance read or fetched lately, by their key (RAM: HELD_SUMS at most). */
  private readonly held = new Map<string, BudgetSums>();

  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly currencies: AnswerCurrencyService,
    private readonly ruleCategories: RuleCategoriesService,
    private readonly versions: CostDataVersion,
    @Inject(REDIS) private readonly redis: Redis | null,
  ) {}

  /**
   * Each budget's sums over its current period (by day) and the BUDGET_LIMITS.historyPeriods before it (by month): those
   * stored for the same data and day (by the evaluator after each import, or by an earlier request; Redis, shared by
   * every instance), the others read now and stored. `asOf`: the data as it is `now` (the evaluator, whose alerts judge
   * it), or as recently as cached answers are (`recent`: RESULT_CACHE_VERSION_CHECK_MS, a status).
   */
  async read(
    organizationId: string,
    budgets: readonly StoredBudget[],
    today: string,
    asOf: 'now' | 'recent',
  ): Promise<Map<string, BudgetSums>> {
    // Read before the sums: data written meanwhile is newer than the key says, never older.
    const inputs = await (
      asOf === 'now'
        ? this.versions.readCategorisedAnswerInputsNow(organizationId)
        : this.versions.recentCategorisedAnswerInputs(organizationId)
    ).catch(() => undefined);
    const keys = inputs === undefined ? [] : budgets.map((budget) => storedSumsKey(organizationId, budget, today, inputs));
    const stored = await this.storedSums(keys);
    const missing = budgets.filter((_, i) => stored[i] === undefined);
    metrics.budgetSums.inc({ source: 'stored' }, budgets.length - missing.length);
    metrics.budgetSums.inc({ source: 'read' }, missing.length);
    const computed = missing.length > 0 ? await this.compute(organizationId, missing, today) : new Map<string, BudgetSums>();
    if (keys.length > 0)
      await this.store(budgets.flatMap((budget, i) => (stored[i] ? [] : [[keys[i], computed.get(budget.budgetId)!] as const])));
    return new Map(budgets.map((budget, i) => [budget.budgetId, stored[i] ?? computed.get(budget.budgetId)!]));
  }

  /** The sums stored under `keys`: those this instance holds, then Redis's. */
  private async storedSums(keys: readonly string[]): Promise<Array<BudgetSums | undefined>> {
    const sums = keys.map((key) => this.held.get(key));
    const absent = keys.filter((_, i) => sums[i] === undefined);
    if (!this.redis || absent.length === 0) return sums;
    try {
      const texts = await this.redis.mget(...absent);
      const fetched = new Map(absent.map((key, i) => [key, texts[i] === null ? undefined : decodeSums(texts[i])]));
      return keys.map((key, i) => sums[i] ?? this.hold(key, fetched.get(key)));
    } catch (error) {
      this.logger.warn(`stored budget sums unreadable, reading them from the store: ${(error as Error).message}`);
      return sums;
    }
  }

  /** Keeps sums at hand (the same object each time: a status asked again reads and fits nothing), the oldest dropped. */
  private hold(key: string, sums: BudgetSums | undefined): BudgetSums | undefined {
    if (sums === undefined) return undefined;
    this.held.set(key, sums);
    if (this.held.size > HELD_SUMS) this.held.delete(this.held.keys().next().value as string);
    return sums;
  }

  private async store(entries: ReadonlyArray<readonly [string, BudgetSums]>): Promise<void> {
    for (const [key, sums] of entries) this.hold(key, sums);
    if (!this.redis || entries.length === 0) return;
    const batch = this.redis.multi();
    for (const [key, sums] of entries) batch.set(key, encodeSums(sums), 'EX', STORED_SUMS_SECONDS);
    await batch.exec().catch((error: Error) => this.logger.warn(`budget sums not stored: ${error.message}`));
  }

  private async compute(organizationId: string, budgets: readonly StoredBudget[], today: string): Promise<Map<string, BudgetSums>> {
    const historyPeriods = BUDGET_LIMITS.historyPeriods;
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
          const { sql, params } = buildBudgetSumsQuery(costRowsTable(this.clickhouse), {
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

/** Sums an instance holds in memory: 2,000 budgets' (a few KB each). */
const HELD_SUMS = 2_000;

/**
 * How long stored sums are kept. Sums of older data are never read again (the key names the data), so an hour bounds
 * what they hold in Redis; the evaluator stores them anew at its next round, a request at its next miss.
 */
const STORED_SUMS_SECONDS = 3_600;

/** A budget's stored sums: by what they depend on (not its id or amounts: budgets alike share them). */
function storedSumsKey(organizationId: string, budget: StoredBudget, today: string, inputs: string): string {
  const { filters, metric, currency, period } = budget.definition;
  const reads = JSON.stringify({
    filters,
    metric,
    currency,
    period,
    dataScope: budget.dataScope,
    today,
    inputs,
    history: BUDGET_LIMITS.historyPeriods,
  });
  return `cost-insights:budget-sums:${organizationId}:${createHash('sha256').update(reads).digest('base64url')}`;
}

function encodeSums(sums: BudgetSums): string {
  return JSON.stringify({
    days: [...sums.days].map(([date, day]) => [date, String(day.all), String(day.modelled)]),
    months: [...sums.months].map(([month, amount]) => [month, String(amount)]),
  });
}

function decodeSums(text: string): BudgetSums {
  const stored = JSON.parse(text) as { days: Array<[string, string, string]>; months: Array<[string, string]> };
  return {
    days: new Map(stored.days.map(([date, all, modelled]) => [date, { all: BigInt(all), modelled: BigInt(modelled) }])),
    months: new Map(stored.months.map(([month, amount]) => [month, BigInt(amount)])),
  };
}

function addDay(sums: BudgetSums, row: BudgetSumsRow): void {
  const day = sums.days.get(row.date) ?? { all: 0n, modelled: 0n };
  const amount = scaled(row.amount);
  sums.days.set(row.date, { all: day.all + amount, modelled: day.modelled + (Number(row.one_off) === 1 ? 0n : amount) });
}

/** Budgets of one currency and metric, at most BUDGETS_PER_STATEMENT together. */
function batches(budgets: readonly StoredBudget[]): StoredBudget[][] {
  const groups = groupedBy(budgets, (budget) => `${budget.definition.currency}/${budget.definition.metric}`);
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
