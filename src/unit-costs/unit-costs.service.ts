import { Inject, Injectable } from '@nestjs/common';
import { todayUtc } from '../common/dates/calendar-date';
import { InvalidRequestException } from '../common/errors/api-errors';
import { decimalText, fractionHalfUp, scaled } from '../common/money/scaled-decimal';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { DimensionRef, parseDimension } from '../cost-query/dimension-registry';
import { resolveDateRange } from '../cost-query/filter-compiler';
import type { DateRange, Filters, OrganizationScope } from '../cost-query/filters.types';
import { dateRangeSpanProblem } from '../cost-query/guardrails';
import { buildUnitCostSumsQuery, UnitCostSumsRow } from '../cost-query/unit-cost-sums.query';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { ActivatedKeysService } from '../tag-keys/activated-keys.service';
import { unitSelection } from './business-metric';
import { UnitSelection, BusinessMetricsRepository, StoredMetric, UnitsRow } from '../store/repositories/business-metrics.repository';
import { BusinessMetricsService } from './business-metrics.service';
import type { UnitCostItemDto, UnitCostsDto, UnitCostsRequestDto } from './dto/unit-costs.dto';

/** Places of unit_cost_change. */
const CHANGE_PLACES = 6;

/**
 * Unit costs: a cost metric of the rows the question selects, per bucket (and per value of the metric's dimension),
 * over the units of a business metric for the same buckets — exact, and null where there are no units.
 */
@Injectable()
export class UnitCostsService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly currencies: AnswerCurrencyService,
    private readonly activatedKeys: ActivatedKeysService,
    private readonly metrics: BusinessMetricsService,
    private readonly repository: BusinessMetricsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async unitCosts(scope: OrganizationScope, request: UnitCostsRequestDto): Promise<UnitCostsDto> {
    const metric = await this.metrics.metric(scope.organizationId, request.metric);
    const grouping = request.groupBy?.dateGrouping ?? 'daily';
    const dimension = groupingDimension(metric, request.groupBy?.dimension);
    const filters: Filters = request.filters ?? {};
    const window = this.window(filters);
    const costMetric = request.costMetric ?? 'amortized_cost';
    const questionScope = await this.activatedKeys.scopeFor(scope, filters, dimension ? [dimension] : []);
    const selection = unitSelection(parseDimension(metric.dimension), [scope.dataScope ?? {}, filters]);
    return this.currencies.answer(scope, request.currency, { dateRanges: [window] }, async (money) => {
      const { sql, params } = buildUnitCostSumsQuery(costRowsTable(this.clickhouse), {
        scope: questionScope,
        filters: { ...filters, inclusions: { ...filters.inclusions, dateRange: window } },
        today: window.end,
        defaultWindowDays: 1,
        dateGrouping: grouping,
        dimension,
        costMetric,
        conversion: money.conversion,
      });
      const [costs, units] = await Promise.all([
        this.clickhouse.query<UnitCostSumsRow>(sql, params, scope),
        this.repository.units(scope.organizationId, metric.name, window, grouping, selection, dimension !== undefined),
      ]);
      const items = unitCostItems(costs, units, metric.unitScale, dimension !== undefined);
      return {
        metric: metric.name,
        unit: metric.unit,
        unit_scale: metric.unitScale,
        cost_metric: costMetric,
        currency: money.currency,
        date_range: window,
        units_basis: unitsBasis(metric, selection),
        summary: summaryOf(items, metric.unitScale),
        items,
      };
    });
  }

  private window(filters: Filters): DateRange {
    if (filters.inclusions?.billingPeriods?.length)
      throw new InvalidRequestException([
        'filters.inclusions.billingPeriods: unit costs are per usage day; give filters.inclusions.dateRange',
      ]);
    const window = resolveDateRange(filters.inclusions ?? {}, { today: todayUtc(), defaultWindowDays: this.config.defaultWindowDays })!;
    const problem = dateRangeSpanProblem('filters.inclusions.dateRange', window, this.config.maxDateRangeDays);
    if (problem) throw new InvalidRequestException([problem]);
    return window;
  }
}

/** The request's grouping dimension: none, or the metric's own (units exist per its values only). */
function groupingDimension(metric: StoredMetric, requested: string | undefined): DimensionRef | undefined {
  if (requested === undefined) return undefined;
  if (requested !== metric.dimension)
    throw new InvalidRequestException([
      metric.dimension
        ? `groupBy.dimension: the metric ${metric.name} has its units per ${metric.dimension}; group by ${metric.dimension} or by date only`
        : `groupBy.dimension: the metric ${metric.name} has no dimension; group by date only`,
    ]);
  return parseDimension(requested);
}

/** Every bucket (and value) with cost or units: cost ÷ units × scale, and its change against the value's bucket before. */
export function unitCostItems(
  costs: readonly UnitCostSumsRow[],
  units: readonly UnitsRow[],
  unitScale: number,
  perValue: boolean,
): UnitCostItemDto[] {
  const byKey = new Map<string, { date: string; value: string; cost: bigint; units: bigint }>();
  const entry = (date: string, value: string) => {
    const key = `${date}|${value}`;
    if (!byKey.has(key)) byKey.set(key, { date, value, cost: 0n, units: 0n });
    return byKey.get(key)!;
  };
  for (const row of costs) entry(row.date, row.dimension_value).cost += scaled(row.cost);
  for (const row of units) entry(row.bucket, row.value_key).units += scaled(row.units);
  const previous = new Map<string, bigint | null>();
  return [...byKey.values()]
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .map((item) => {
      const unitCost = perUnit(item.cost, item.units, unitScale);
      const before = previous.get(item.value);
      previous.set(item.value, unitCost);
      return {
        usage_date: item.date,
        ...(perValue ? { dimension_value: item.value } : {}),
        cost: decimalText(item.cost),
        units: decimalText(item.units),
        unit_cost: unitCost === null ? null : decimalText(unitCost),
        unit_cost_change:
          unitCost === null || before === undefined || before === null || before === 0n
            ? null
            : fractionHalfUp(unitCost - before, before, CHANGE_PLACES),
      };
    });
}

/** cost × scale ÷ units in units of 1e-10, rounded half away from zero; null without units. */
function perUnit(cost: bigint, units: bigint, unitScale: number): bigint | null {
  if (units === 0n) return null;
  const numerator = cost * BigInt(unitScale) * 10_000_000_000n;
  const magnitude = ((numerator < 0n ? -numerator : numerator) * 2n + units) / (2n * units);
  return numerator < 0n ? -magnitude : magnitude;
}

function summaryOf(items: readonly UnitCostItemDto[], unitScale: number): UnitCostsDto['summary'] {
  const cost = items.reduce((total, item) => total + scaled(item.cost), 0n);
  const units = items.reduce((total, item) => total + scaled(item.units), 0n);
  const unitCost = perUnit(cost, units, unitScale);
  return { cost: decimalText(cost), units: decimalText(units), unit_cost: unitCost === null ? null : decimalText(unitCost) };
}

/** Which of the metric's values the units are, in words. */
function unitsBasis(metric: StoredMetric, selection: UnitSelection): string {
  if (!metric.dimension) return 'the metric (it has no dimension): the organisation’s units';
  const parts = [
    ...(selection.include ? [`in (${selection.include.join(', ')})`] : []),
    ...(selection.exclude.length > 0 ? [`not in (${selection.exclude.join(', ')})`] : []),
  ];
  return parts.length > 0 ? `${metric.dimension} ${parts.join(' and ')}` : `every value of ${metric.dimension}: the organisation’s units`;
}
