import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import {
  buildCostDataQuery,
  BUCKET_COLUMN,
  CostDataQuery,
  dimensionColumn,
  TOTAL_FLAG_COLUMN,
} from '../cost-query/cost-data.query';
import { todayUtc } from '../cost-query/date-bucketing';
import { DimensionRef, dimensionName, parseDimension } from '../cost-query/dimension-registry';
import { OrganizationScope } from '../cost-query/filters.types';
import { dateRangeSpanProblem } from '../cost-query/guardrails';
import { addMetricSums, effectiveSavingsRate, readMetricSums, SUMMED_METRICS } from '../cost-query/metrics';
import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';
import { CostDataRequestDto } from './dto/cost-data-request.dto';
import { CostDataDto, CostDataPointDto, CostDataSummaryDto } from './dto/cost-data-response.dto';

type ResultRow = Record<string, unknown>;

@Injectable()
export class CostsService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async getCostData(scope: OrganizationScope, request: CostDataRequestDto): Promise<CostDataDto> {
    const filters = request.filters ?? {};
    const spanProblem = dateRangeSpanProblem(
      'filters.inclusions.dateRange',
      filters.inclusions?.dateRange,
      this.config.maxDateRangeDays,
    );
    if (spanProblem) throw new InvalidRequestException([spanProblem]);

    // `dimensions` wins over `dimension`; an explicit null counts as absent (as IsOptional treats it).
    const multi = Array.isArray(request.groupBy.dimensions);
    const names = request.groupBy.dimensions ?? (request.groupBy.dimension ? [request.groupBy.dimension] : []);
    const dimensions = names.map((name) => parseDimension(name) as DimensionRef); // validated by the DTO
    const query: CostDataQuery = {
      scope,
      filters,
      dateGrouping: request.groupBy.dateGrouping,
      dimensions,
      today: todayUtc(),
      defaultWindowDays: this.config.defaultWindowDays,
    };
    const maxRows = this.config.maxResultRows;
    const { sql, params } = buildCostDataQuery(this.clickhouse.table('cost_line_items'), query, maxRows + 1);
    const rows = await this.clickhouse.query<ResultRow>(sql, params);
    // The totals row comes first (ORDER BY is_total DESC); the rest are the items.
    const hasTotals = rows[0]?.[TOTAL_FLAG_COLUMN] === 1;
    const totals = hasTotals ? rows[0] : {};
    const itemRows = hasTotals ? rows.slice(1) : rows;
    if (itemRows.length > maxRows) {
      throw new InvalidRequestException([
        `groupBy: the result would have more than ${maxRows} items (MAX_RESULT_ROWS); narrow it with a coarser groupBy.dateGrouping, fewer groupBy.dimensions, or filters (e.g. a shorter filters.inclusions.dateRange)`,
      ]);
    }

    return {
      items: itemRows.map((row) => toDataPoint(row, dimensions, multi)),
      summary: toSummary(totals),
    };
  }
}

/** Built in one object, keys in the spec's order (hot path: one call per item, up to MAX_RESULT_ROWS). */
function toDataPoint(row: ResultRow, dimensions: DimensionRef[], multi: boolean): CostDataPointDto {
  const point: Record<string, unknown> = { usage_date: String(row[BUCKET_COLUMN]) };
  if (multi) {
    const values: Record<string, string> = {};
    dimensions.forEach((ref, i) => (values[dimensionName(ref)] = String(row[dimensionColumn(i)])));
    point.dimension_values = values;
  } else if (dimensions.length === 1) {
    point.dimension_value = String(row[dimensionColumn(0)]);
  }
  addMetricSums(point, row);
  return point as unknown as CostDataPointDto;
}

function toSummary(row: ResultRow): CostDataSummaryDto {
  const sums = readMetricSums(row);
  const totals = Object.fromEntries(
    SUMMED_METRICS.map((metric) => [metric === 'total_savings' ? metric : `total_${metric}`, sums[metric]]),
  );
  return { ...totals, effective_savings_rate: effectiveSavingsRate(sums) } as CostDataSummaryDto;
}
