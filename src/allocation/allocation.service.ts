import { Inject, Injectable } from '@nestjs/common';
import { formatMonthNumber, monthNumber, todayUtc } from '../common/dates/calendar-date';
import { InvalidRequestException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AllocationRow, buildAllocationQuery } from '../cost-query/allocation.query';
import { decimalText, scaled, shareHalfUp } from '../common/money/scaled-decimal';
import type { DateRange, OrganizationScope } from '../cost-query/filters.types';
import { dateRangeSpanProblem } from '../cost-query/guardrails';
import { RuleCategoriesService } from '../cost-categories/rule-categories.service';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';
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
      const query = { scope: questionScope, category, defaultValues, window, conversion: money.conversion };
      const { sql, params } = buildAllocationQuery(this.clickhouse.table('cost_line_items'), query);
      const rows = await this.clickhouse.query<AllocationRow>(sql, params, scope);
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
        split_flows: [],
      };
    });
  }
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
