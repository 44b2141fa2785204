import { Inject, Injectable } from '@nestjs/common';
import { formatMonthNumber, monthNumber, todayUtc } from '../common/dates/calendar-date';
import { InvalidRequestException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AllocationRow, buildAllocationQuery, buildSplitFlowsQuery, SplitFlowTotalRow } from '../cost-query/allocation.query';
import { CostDataQuery, windowQuestion } from '../cost-query/cost-data.query';
import type { DimensionRef } from '../cost-query/dimension-registry';
import type { CurrencyConversion } from '../cost-query/currency-conversion';
import type { SplitFlowRow } from '../cost-query/split-adjustments';
import { SplitsService } from '../cost-categories/splits.service';
import { decimalText, scaled, shareHalfUp } from '../common/money/scaled-decimal';
import type { DateRange, OrganizationScope } from '../cost-query/filters.types';
import { dateRangeSpanProblem } from '../cost-query/guardrails';
import { RuleCategoriesService } from '../cost-categories/rule-categories.service';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { ActivatedKeysService } from '../tag-keys/activated-keys.service';
import { ALLOCATION_LIMITS } from './allocation-limits';
import type { AllocationDto, AllocationRequestDto, AllocationTotalsDto } from './dto/allocation.dto';

/**
 * How much of the organisation's cost has an owner in one cost category (the FinOps allocation KPI): per month, and
 * where the rest is (services, accounts). A rule-defined category's defaults count as no owner, as no value does.
 */
@Injectable()
export class AllocationService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly currencies: AnswerCurrencyService,
    private readonly activatedKeys: ActivatedKeysService,
    private readonly ruleCategories: RuleCategoriesService,
    private readonly splits: SplitsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async measure(scope: OrganizationScope, request: AllocationRequestDto): Promise<AllocationDto> {
    const window = request.dateRange ?? defaultWindow();
    const spanProblem = dateRangeSpanProblem('dateRange', window, this.config.maxDateRangeDays);
    if (spanProblem) throw new InvalidRequestException([spanProblem]);
    const { category } = request;
    const defined = (await this.ruleCategories.categories(scope.organizationId)).find((rules) => rules.key === category);
    const defaultValues = [...new Set(defined?.segments.map((segment) => segment.category.defaultValue) ?? [])];
    const questionScope = await this.activatedKeys.scopeFor(scope, {}, [{ kind: 'costCategory', key: category }]);
    return this.currencies.answer(scope, request.currency, { dateRanges: [window] }, async (money) => {
      const moved = await this.splits.movedCost(splitQuestion(questionScope, category, window, money.conversion));
      const query = { scope: questionScope, category, defaultValues, window, conversion: money.conversion, splits: moved?.splits };
      const { sql, params } = buildAllocationQuery(costRowsTable(this.clickhouse), query);
      const [rows, flows] = await Promise.all([
        this.clickhouse.query<AllocationRow>(sql, params, scope),
        this.flowTotals(scope, moved?.flows ?? [], money.conversion),
      ]);
      const of = (grouping: AllocationRow['grouping']) => rows.filter((row) => row.grouping === grouping);
      const months = of('month');
      const largest = (grouping: AllocationRow['grouping']) =>
        of(grouping)
          .filter((row) => scaled(row.unallocated_cost) > 0n)
          .sort((a, b) => compareDescending(scaled(a.unallocated_cost), scaled(b.unallocated_cost)) || (a.label < b.label ? -1 : 1))
          .slice(0, ALLOCATION_LIMITS.largest);
      return {
        category,
        date_range: window,
        currency: money.currency,
        default_value: defined?.segments.at(-1)?.category.defaultValue ?? null,
        total: totals(months),
        months: months.map((row) => ({ month: row.label, ...totals([row]) })),
        unallocated_services: largest('service').map((row) => ({ service: row.label, unallocated_cost: Number(row.unallocated_cost) })),
        unallocated_accounts: largest('account').map((row) => ({ account_id: row.label, unallocated_cost: Number(row.unallocated_cost) })),
        split_flows: flows.map((flow) => ({ source: flow.source, target: flow.target, amount: Number(flow.amount) })),
      };
    });
  }

  /** What the splits moved between two values over the window (a share kept at its own value is no flow). */
  private async flowTotals(
    scope: OrganizationScope,
    flows: readonly SplitFlowRow[],
    conversion?: CurrencyConversion,
  ): Promise<SplitFlowTotalRow[]> {
    const moves = flows.filter((flow) => flow.from !== flow.to && flow.amount !== 0n);
    if (moves.length === 0) return [];
    const { sql, params } = buildSplitFlowsQuery(moves, conversion);
    return this.clickhouse.query<SplitFlowTotalRow>(sql, params, scope);
  }
}

/** The allocation KPI's window as a /data question grouped by the category, service and account (its splits' groups). */
function splitQuestion(scope: OrganizationScope, category: string, window: DateRange, conversion?: CurrencyConversion): CostDataQuery {
  const dimensions: DimensionRef[] = [
    { kind: 'costCategory', key: category },
    { kind: 'column', name: 'service' },
    { kind: 'column', name: 'account' },
  ];
  return windowQuestion({ scope, window, dimensions, dateGrouping: 'monthly', conversion });
}

/** From the first day of the month ALLOCATION_LIMITS.defaultPastMonths ago to today (UTC). */
function defaultWindow(): DateRange {
  const today = todayUtc();
  return { start: formatMonthNumber(monthNumber(today) - ALLOCATION_LIMITS.defaultPastMonths), end: today };
}

/** The rows' exact sums, and the allocated share rounded half up to 4 decimals. */
function totals(rows: readonly AllocationRow[]): AllocationTotalsDto {
  const amortized = rows.reduce((sum, row) => sum + scaled(row.amortized_cost), 0n);
  const unallocated = rows.reduce((sum, row) => sum + scaled(row.unallocated_cost), 0n);
  const allocated = amortized - unallocated;
  const share = shareHalfUp(allocated, amortized);
  return {
    amortized_cost: Number(decimalText(amortized)),
    allocated_cost: Number(decimalText(allocated)),
    unallocated_cost: Number(decimalText(unallocated)),
    allocated_share: share,
  };
}

function compareDescending(a: bigint, b: bigint): number {
  return a > b ? -1 : a < b ? 1 : 0;
}
