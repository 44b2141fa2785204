import { ActivatedKeysService } from '../tag-keys/activated-keys.service';
import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { buildComparisonQuery, buildComparisonValuesProbe, ComparisonQuery } from '../cost-query/comparison.query';
import { bucketCount } from '../cost-query/date-bucketing';
import { DimensionRef, parseDimension } from '../cost-query/dimension-registry';
import { DateRange, OrganizationScope } from '../cost-query/filters.types';
import { windowQuestion } from '../cost-query/cost-data.query';
import { SplitsService } from '../cost-categories/splits.service';
import { dateRangeSpanProblem } from '../cost-query/guardrails';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import {
  assembleComparison,
  ComparisonResult,
  ComparisonSpec,
  comparisonPointCount,
  comparisonValues,
  readComparisonRow,
  TOTAL_DIMENSION_VALUE,
} from './comparison-result';
import { CompareRequestDto, DEFAULT_COMPARE_DATE_GROUPING } from './dto/compare-request.dto';

@Injectable()
export class ComparisonService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly currencies: AnswerCurrencyService,
    private readonly activatedKeys: ActivatedKeysService,
    private readonly splits: SplitsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async compare(scope: OrganizationScope, request: CompareRequestDto): Promise<ComparisonResult & { currency: string }> {
    const maxDays = this.config.maxDateRangeDays;
    const spanProblems = [
      dateRangeSpanProblem('baselinePeriod', request.baselinePeriod, maxDays),
      dateRangeSpanProblem('comparisonPeriod', request.comparisonPeriod, maxDays),
    ].filter((problem): problem is string => problem !== undefined);
    if (spanProblems.length) throw new InvalidRequestException(spanProblems);

    const dimensionName = request.groupBy?.dimension ?? undefined; // null counts as absent, as IsOptional treats it
    const spec: ComparisonSpec = {
      metric: request.metric,
      baselinePeriod: request.baselinePeriod,
      comparisonPeriod: request.comparisonPeriod,
      dateGrouping: request.groupBy?.dateGrouping ?? DEFAULT_COMPARE_DATE_GROUPING,
      grouped: dimensionName !== undefined,
    };
    const maxPoints = this.config.maxResultRows;
    const filters = request.filters ?? {};
    const dimension = dimensionName === undefined ? undefined : (parseDimension(dimensionName) as DimensionRef);
    const query: ComparisonQuery = {
      scope: await this.activatedKeys.scopeFor(scope, filters, dimension ? [dimension] : []),
      filters,
      baselinePeriod: spec.baselinePeriod,
      comparisonPeriod: spec.comparisonPeriod,
      dateGrouping: spec.dateGrouping,
      dimension,
      totalLabel: TOTAL_DIMENSION_VALUE,
    };
    await this.refuseKnownOversizedComparison(query, maxPoints);
    const window = { dateRanges: [spec.baselinePeriod, spec.comparisonPeriod] };
    return this.currencies.answer(scope, request.currency, window, async (money) => {
      // The query returns at most 2 × points + 2 rows (bucket rows ≤ points, value totals ≤ points, two
      // period totals), so a fetch that reaches this limit already means more than maxPoints points.
      const rowLimit = 2 * maxPoints + 3;
      const splits = await this.movedCost({ ...query, conversion: money.conversion });
      const { sql, params } = buildComparisonQuery(
        costRowsTable(this.clickhouse),
        { ...query, conversion: money.conversion, splits },
        rowLimit,
      );
      const raw = await this.clickhouse.query<Record<string, unknown>>(sql, params, scope);
      const rows = raw.map(readComparisonRow);
      if (raw.length >= rowLimit || comparisonPointCount(comparisonValues(rows, spec).length, spec) > maxPoints) {
        throw tooManyPoints(maxPoints);
      }
      return { currency: money.currency, ...assembleComparison(rows, spec) };
    });
  }

  /** Per period, what the shared-cost splits of a category the comparison groups or filters by move (none: undefined). */
  private async movedCost(query: ComparisonQuery): Promise<ComparisonQuery['splits']> {
    const { scope, filters, dateGrouping, conversion } = query;
    const dimensions = query.dimension ? [query.dimension] : [];
    const period = (window: DateRange) => windowQuestion({ scope, filters, window, dimensions, dateGrouping, conversion });
    const [baseline, comparison] = await Promise.all([
      this.splits.movedCost(period(query.baselinePeriod)),
      this.splits.movedCost(period(query.comparisonPeriod)),
    ]);
    return baseline || comparison ? [baseline?.splits, comparison?.splits] : undefined;
  }

  /**
   * Every value gets every bucket of both periods, so the response's size is values × buckets. The
   * buckets are known from the request; when they leave room for few values, a probe that stops at the
   * first value too many (a few granules) refuses an oversized comparison before its aggregation runs.
   */
  private async refuseKnownOversizedComparison(query: ComparisonQuery, maxPoints: number): Promise<void> {
    const buckets =
      bucketCount(query.dateGrouping, query.baselinePeriod.start, query.baselinePeriod.end) +
      bucketCount(query.dateGrouping, query.comparisonPeriod.start, query.comparisonPeriod.end);
    const maxValues = Math.floor(maxPoints / buckets);
    if (!query.dimension) {
      if (maxValues < 1) throw tooManyPoints(maxPoints);
      return;
    }
    if (maxValues >= PROBE_BELOW_VALUES) return;
    const { sql, params } = buildComparisonValuesProbe(
      costRowsTable(this.clickhouse),
      { ...query, dimension: query.dimension },
      maxValues + 1,
    );
    const values = await this.clickhouse.query<{ dim_0: string }>(sql, params, query.scope);
    if (values.length > maxValues) throw tooManyPoints(maxPoints);
  }
}

/**
 * Below this many values fitting the response, /compare probes the values before aggregating. Typical
 * comparisons (months or weeks, or up to ~a quarter of days) leave room for more and skip the probe.
 */
const PROBE_BELOW_VALUES = 250;

function tooManyPoints(maxPoints: number): InvalidRequestException {
  return new InvalidRequestException([
    `groupBy: the comparison would have more than ${maxPoints} by_date points (MAX_RESULT_ROWS: dimension values × buckets of both periods); use a coarser groupBy.dateGrouping, a dimension with fewer values, filters, or shorter periods`,
  ]);
}
