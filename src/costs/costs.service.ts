import { ActivatedKeysService } from '../tag-keys/activated-keys.service';
import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AnswerFormat } from '../answers/answer-format';
import { CsvText, csvRecord } from '../answers/csv-text';
import { JsonText } from '../answers/json-text';
import { buildCostDataQuery, costDataCsvColumns, CostDataQuery, readCostDataResult } from '../cost-query/cost-data.query';
import { buildCostDataPageQuery, CostDataPage, CostDataPageRow, PAGE_LINE } from '../cost-query/cost-data-page.query';
import { todayUtc } from '../common/dates/calendar-date';
import { DimensionRef, parseDimension } from '../cost-query/dimension-registry';
import { OrganizationScope } from '../cost-query/filters.types';
import { dateRangeSpanProblem } from '../cost-query/guardrails';
import { effectiveSavingsRate, finiteNumber, MetricSums } from '../cost-query/cost-metrics';
import { METRICS } from '../cost-query/metrics';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { windowOf } from '../cost-query/currency-conversion';
import { AnswerCurrencyService, AnswerMoney, AppliedRates } from '../currency/answer-currency.service';
import { ConvertedSumsService } from '../currency/converted-sums.service';
import { readsOnlyListColumns } from '../cost-query/converted-sums.query';
import { CostDataRequestDto } from './dto/cost-data-request.dto';
import { CostDataDto, CostDataSummaryDto } from './dto/cost-data-response.dto';
import { AppliedRatesDto } from '../dto/currency.dto';
import { SplitsService } from '../cost-categories/splits.service';
import { CategorySumsService } from '../cost-categories/category-sums.service';
import { tableOf } from '../cost-query/category-sums.query';

/** CostDataDto with its items as the JSON ClickHouse wrote (spliced into the answer by serializeJson). */
export type CostDataResult = Omit<CostDataDto, 'items'> & { items: JsonText };

/** A page of /data (getCostDataPage): the whole answer's currency and summary, a page of its items, its top values. */
export interface CostDataPageResult extends Omit<CostDataDto, 'items'> {
  items: Array<Record<string, unknown>>;
  /** Items of the whole answer. */
  itemCount: number;
  /** Dimension values ranked by amortized cost over the whole window (`{dimension_value(s), amortized_cost, billed_cost}`). */
  topValues: Array<Record<string, unknown>>;
  /** Distinct dimension values of the whole answer (0 without a dimension). */
  distinctValues: number;
}

@Injectable()
export class CostsService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly currencies: AnswerCurrencyService,
    private readonly convertedSums: ConvertedSumsService,
    private readonly activatedKeys: ActivatedKeysService,
    private readonly splits: SplitsService,
    private readonly categorySums: CategorySumsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async getCostData(scope: OrganizationScope, request: CostDataRequestDto): Promise<CostDataResult>;
  async getCostData(scope: OrganizationScope, request: CostDataRequestDto, format: 'csv'): Promise<CsvText>;
  async getCostData(
    scope: OrganizationScope,
    request: CostDataRequestDto,
    format: AnswerFormat = 'json',
  ): Promise<CostDataResult | CsvText> {
    return this.answer(scope, request, async (query, money) => {
      const { sql, params } = buildCostDataQuery(
        tableOf(query.scope, costRowsTable(this.clickhouse)),
        query,
        this.config.maxResultRows + 1,
        format,
      );
      const result = readCostDataResult(await this.clickhouse.queryRaw(sql, params, scope), format);
      this.refuseTooManyItems(result.itemCount);
      // CSV: the items' rows under a header (the summary is the sum of the rows, so a spreadsheet has it already).
      if (format === 'csv') return new CsvText(csvRecord(costDataCsvColumns(query)), ...result.items);
      return {
        currency: money.currency,
        items: JsonText.arrayOf(result.items),
        summary: this.summary(money, result.totals, result.convertedCurrencies),
      };
    });
  }

  /**
   * /data as one page (the MCP tool get_cost_data): the same validation, currency and summary as getCostData, but the
   * statement returns only the page's items and the top values (buildCostDataPageQuery), so a page of 1 reads back a
   * few rows, not every item of the window. A whole answer over MAX_RESULT_ROWS items is refused as /data refuses it.
   */
  async getCostDataPage(scope: OrganizationScope, request: CostDataRequestDto, page: CostDataPage): Promise<CostDataPageResult> {
    return this.answer(scope, request, async (query, money) => {
      const { sql, params } = buildCostDataPageQuery(tableOf(query.scope, costRowsTable(this.clickhouse)), query, page);
      const rows = await this.clickhouse.query<CostDataPageRow>(sql, params, scope);
      const itemCount = Number(rows[0]?.item_count ?? 0);
      this.refuseTooManyItems(itemCount);
      const lines = (kind: number) =>
        rows.filter((row) => Number(row.kind) === kind).map((row) => JSON.parse(row.line) as Record<string, unknown>);
      const { converted_currencies: converted, ...totals } = lines(PAGE_LINE.totals)[0] ?? {};
      return {
        currency: money.currency,
        items: lines(PAGE_LINE.item),
        summary: this.summary(money, totals, (converted as string[] | undefined) ?? []),
        itemCount,
        topValues: lines(PAGE_LINE.topValue),
        distinctValues: Number(rows[0]?.value_count ?? 0),
      };
    });
  }

  /** The request validated into the kernel's question, answered in its currency by `compute`. */
  private async answer<T>(
    scope: OrganizationScope,
    request: CostDataRequestDto,
    compute: (query: CostDataQuery, money: AnswerMoney) => Promise<T>,
  ): Promise<T> {
    const filters = request.filters ?? {};
    const spanProblem = dateRangeSpanProblem('filters.inclusions.dateRange', filters.inclusions?.dateRange, this.config.maxDateRangeDays);
    if (spanProblem) throw new InvalidRequestException([spanProblem]);
    // `dimensions` wins over `dimension`; an explicit null counts as absent (as IsOptional treats it).
    const names = request.groupBy.dimensions ?? (request.groupBy.dimension ? [request.groupBy.dimension] : []);
    const today = todayUtc();
    const dimensions = names.map((name) => parseDimension(name) as DimensionRef); // validated by the DTO
    const named = { scope: await this.activatedKeys.scopeFor(scope, filters, dimensions), filters, dimensions };
    const question: Omit<CostDataQuery, 'conversion'> = {
      scope: await this.categorySums.scopeFor(named),
      filters,
      dateGrouping: request.groupBy.dateGrouping,
      dimensions,
      multiDimension: Array.isArray(request.groupBy.dimensions),
      today,
      defaultWindowDays: this.config.defaultWindowDays,
    };
    const window = windowOf(filters.inclusions ?? {}, { today, defaultWindowDays: this.config.defaultWindowDays });
    return this.currencies.answer(scope, request.currency, window, async (money) => {
      const convertedSums =
        money.conversion && readsOnlyListColumns(question)
          ? await this.convertedSums.ready(scope.organizationId, money.conversion)
          : undefined;
      const asked = { ...question, conversion: money.conversion, convertedSums };
      return compute({ ...asked, splits: (await this.splits.movedCost(asked))?.splits }, money);
    });
  }

  private refuseTooManyItems(itemCount: number): void {
    const maxRows = this.config.maxResultRows;
    if (itemCount <= maxRows) return;
    throw new InvalidRequestException([
      `groupBy: the result would have ${itemCount} items, more than ${maxRows} (MAX_RESULT_ROWS); narrow it with a coarser groupBy.dateGrouping, fewer groupBy.dimensions, or filters (e.g. a shorter filters.inclusions.dateRange)`,
    ]);
  }

  /** The period totals, and (only when the answer converted: on single-currency data the summary is the spec's) the rates applied. */
  private summary(money: AnswerMoney, totals: Record<string, unknown>, converted: string[]): CostDataSummaryDto {
    const applied = this.currencies.appliedRates(money, converted);
    return { ...toSummary(totals), ...(applied.length > 0 ? { exchange_rates: applied.map(toAppliedRatesDto) } : {}) };
  }
}

function toAppliedRatesDto(rates: AppliedRates): AppliedRatesDto {
  return {
    from: rates.from,
    to: rates.to,
    policy: rates.policy,
    first_date: rates.firstDate,
    last_date: rates.lastDate,
    min_rate: rates.minRate,
    max_rate: rates.maxRate,
    derivations: rates.derivations,
    sources: rates.sources,
  };
}

/** The period totals, from the totals row (metrics under their item field names). */
function toSummary(totals: Record<string, unknown>): Omit<CostDataSummaryDto, 'exchange_rates'> {
  const sums = Object.fromEntries(METRICS.map(({ name }) => [name, finiteNumber(totals[name])])) as MetricSums;
  const summary = Object.fromEntries(METRICS.map(({ name, summaryName }) => [summaryName, sums[name]]));
  return { ...summary, effective_savings_rate: effectiveSavingsRate(sums) } as Omit<CostDataSummaryDto, 'exchange_rates'>;
}
