import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { EXAMPLE_LAST_MONTH } from '../../common/examples/examples';
import { DATE_GROUPINGS, DateGrouping } from '../../cost-query/date-bucketing';
import { MEASURE_COLUMNS, MeasureColumn } from '../../cost-query/metrics';
import { AnswerCurrency } from '../../dto/currency.dto';
import { FiltersDto, NestedObject } from '../../dto/filters.dto';
import { DIMENSION_FORMS, IsDateGrouping, IsGroupingDimension } from '../../dto/grouping.dto';
import { METRIC_LIMITS, METRIC_NAME } from '../business-metric';

/** PUT /v1/admin/business-metrics/{name}: a metric's definition. */
export class BusinessMetricDto {
  @ApiProperty({ description: 'What one unit is, as people read it.', example: 'order', maxLength: METRIC_LIMITS.maxUnitLength })
  @IsString()
  @Length(1, METRIC_LIMITS.maxUnitLength)
  unit: string;

  @ApiPropertyOptional({
    enum: METRIC_LIMITS.unitScales,
    default: 1,
    description: 'Unit costs are per this many units: 1000 answers "per thousand orders".',
  })
  @IsOptional()
  @IsInt()
  @IsIn(METRIC_LIMITS.unitScales as unknown as number[])
  unitScale?: number;

  @ApiPropertyOptional({
    description: `Values per value of one dimension (${DIMENSION_FORMS}); absent: one series for the organisation.`,
    example: 'tag:team',
  })
  @IsOptional()
  @IsGroupingDimension()
  dimension?: string;
}

export class MetricValueDto {
  @ApiProperty({ example: '2026-11-01' })
  date: string;
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '1200', description: 'Units that day: a non-negative decimal.' })
  value: string | number;
  @ApiPropertyOptional({ example: 'payments', description: 'For a metric with a dimension: the value the units are of.' })
  dimensionValue?: string;
}

/** POST …/values as JSON (its CSV twin is text/csv `date,value[,dimension value]`). */
export class MetricValuesDto {
  @ApiProperty({ type: [MetricValueDto], maxItems: METRIC_LIMITS.maxValuesPerLoad })
  @IsArray()
  @ArrayMaxSize(METRIC_LIMITS.maxValuesPerLoad)
  values: Array<Record<string, unknown>>;
}

export class BusinessMetricListItemDto {
  @ApiProperty({ example: 'orders' })
  name: string;
  @ApiProperty({ example: 'order' })
  unit: string;
  @ApiProperty({ example: 1000 })
  unitScale: number;
  @ApiProperty({ type: String, nullable: true, example: 'tag:team' })
  dimension: string | null;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class BusinessMetricListDto {
  @ApiProperty({ type: [BusinessMetricListItemDto] })
  metrics: BusinessMetricListItemDto[];
}

export class MetricValuesLoadedDto {
  @ApiProperty({ example: 'orders' })
  name: string;
  @ApiProperty({ description: 'Values stored.', example: 30 })
  values: number;
  @ApiProperty({ description: 'Days replaced whole.', example: 30 })
  days: number;
  @ApiProperty({ example: '2026-11-01' })
  first: string;
  @ApiProperty({ example: '2026-11-30' })
  last: string;
}

export class UnitCostsGroupByDto {
  @ApiProperty({ enum: DATE_GROUPINGS, example: 'daily' })
  @IsDateGrouping()
  dateGrouping: DateGrouping;

  @ApiPropertyOptional({ description: 'The metric’s own dimension (an item per value); no other.', example: 'tag:team' })
  @IsOptional()
  @IsGroupingDimension()
  dimension?: string;
}

export class UnitCostsRequestDto {
  @ApiProperty({ description: 'A business metric of the organisation.', example: 'orders' })
  @IsString()
  @Matches(METRIC_NAME, { message: 'metric: expected a business metric name (lower-case letters, digits and _)' })
  metric: string;

  @ApiPropertyOptional({ enum: MEASURE_COLUMNS, default: 'amortized_cost', description: 'The cost divided by the units.' })
  @IsOptional()
  @IsIn(MEASURE_COLUMNS as unknown as string[])
  costMetric?: MeasureColumn;

  @ApiPropertyOptional({
    type: () => FiltersDto,
    description:
      'As /data’s (inclusions.dateRange is the window; default the last DEFAULT_WINDOW_DAYS days). billingPeriods is refused: units are per day.',
    example: { inclusions: { dateRange: EXAMPLE_LAST_MONTH } },
  })
  @NestedObject(() => FiltersDto, false)
  filters?: FiltersDto;

  @ApiPropertyOptional({ type: () => UnitCostsGroupByDto, description: 'Default daily, without a dimension.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => UnitCostsGroupByDto)
  groupBy?: UnitCostsGroupByDto;

  @AnswerCurrency()
  currency?: string;
}

export class UnitCostItemDto {
  @ApiProperty({ example: '2026-11-01' })
  usage_date: string;
  @ApiPropertyOptional({ example: 'payments' })
  dimension_value?: string;
  @ApiProperty({ description: 'The cost metric, exact decimal text in the answer’s currency.', example: '1523.42' })
  cost: string;
  @ApiProperty({ description: 'Units, exact decimal text.', example: '1200' })
  units: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'cost ÷ units × unitScale, exact decimal text rounded half up to 10 places; null where units are 0.',
    example: '1269.5166666667',
  })
  unit_cost: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'The change of unit_cost against the bucket before (same dimension value), a fraction of 6 decimals (0.05 = +5 %); null without both.',
    example: 0.031,
  })
  unit_cost_change: number | null;
}

export class UnitCostsSummaryDto {
  @ApiProperty({ example: '45210.77' })
  cost: string;
  @ApiProperty({ example: '36000' })
  units: string;
  @ApiProperty({ type: String, nullable: true, example: '1255.8547222222' })
  unit_cost: string | null;
}

export class UnitCostsDto {
  @ApiProperty({ example: 'orders' })
  metric: string;
  @ApiProperty({ example: 'order' })
  unit: string;
  @ApiProperty({ example: 1000 })
  unit_scale: number;
  @ApiProperty({ example: 'amortized_cost' })
  cost_metric: string;
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ example: EXAMPLE_LAST_MONTH })
  date_range: { start: string; end: string };
  @ApiProperty({
    description:
      'Which of the metric’s values the units are: those of the dimension values the filters and the key’s data scope name, or — when they name none of its dimension — all of them (the organisation’s units, against the cost of the rows selected).',
    example: 'tag team in (payments)',
  })
  units_basis: string;
  @ApiProperty({ type: () => UnitCostsSummaryDto })
  summary: UnitCostsSummaryDto;
  @ApiProperty({ type: [UnitCostItemDto] })
  items: UnitCostItemDto[];
}
