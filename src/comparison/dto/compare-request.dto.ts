import { AnswerCurrency } from '../../dto/currency.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { DATE_GROUPINGS, DateGrouping } from '../../cost-query/date-bucketing';
import { CompareFiltersDto, DateRangeDto, NestedObject } from '../../dto/filters.dto';
import { DIMENSION_FORMS, DIMENSION_PATTERN, describeReceived, IsDateGrouping, IsGroupingDimension } from '../../dto/grouping.dto';
import { COMPARE_METRICS, CompareMetric } from '../../cost-query/cost-metrics';
import { EXAMPLE_LAST_MONTH, EXAMPLE_MONTH_BEFORE } from '../../common/examples/examples';
import { TOTAL_DIMENSION_VALUE } from '../comparison-result';

export const DEFAULT_COMPARE_DATE_GROUPING: DateGrouping = 'daily';

export class CompareGroupByDto {
  @ApiPropertyOptional({
    description: `Grouping dimension: ${DIMENSION_FORMS}. One comparison row per value present in either period; rows without a value form \`(not set)\`. Without it there is a single row, \`${TOTAL_DIMENSION_VALUE}\`.`,
    example: 'service',
    pattern: DIMENSION_PATTERN,
  })
  @IsOptional()
  @IsGroupingDimension()
  dimension?: string;

  @ApiPropertyOptional({
    enum: DATE_GROUPINGS,
    default: DEFAULT_COMPARE_DATE_GROUPING,
    description: `Bucketing of each row's \`by_date\` (weeks start on Monday). Default \`${DEFAULT_COMPARE_DATE_GROUPING}\`.`,
    example: 'weekly',
  })
  @IsOptional()
  @IsDateGrouping()
  dateGrouping?: DateGrouping;
}

export class CompareRequestDto {
  @ApiProperty({
    type: () => DateRangeDto,
    description: 'Required. The period compared against, both ends included; at most MAX_DATE_RANGE_DAYS days.',
    example: EXAMPLE_MONTH_BEFORE,
  })
  @NestedObject(() => DateRangeDto, true)
  baselinePeriod: DateRangeDto;

  @ApiProperty({
    type: () => DateRangeDto,
    description:
      'Required. The period of interest, both ends included; at most MAX_DATE_RANGE_DAYS days. It may overlap the baseline: a day in both counts in both.',
    example: EXAMPLE_LAST_MONTH,
  })
  @NestedObject(() => DateRangeDto, true)
  comparisonPeriod: DateRangeDto;

  @ApiProperty({
    enum: COMPARE_METRICS,
    description:
      'Required. The metric compared. `effective_savings_rate` is total savings / on-demand cost computed from the sums of each bucket and period (0 without on-demand cost).',
    example: 'amortized_cost',
  })
  @IsIn(COMPARE_METRICS, {
    message: (args) => `Expected one of ${COMPARE_METRICS.join(', ')}, received ${describeReceived(args.value)}`,
  })
  metric: CompareMetric;

  @ApiPropertyOptional({
    type: () => CompareGroupByDto,
    description: 'Optional grouping dimension and by_date granularity.',
    example: { dimension: 'service', dateGrouping: 'weekly' },
  })
  @NestedObject(() => CompareGroupByDto, false)
  groupBy?: CompareGroupByDto;

  @ApiPropertyOptional({
    type: () => CompareFiltersDto,
    description:
      'Filters applied identically to both periods. Same as Filters without `dateRange` and `billingPeriods` (refused with 400): the periods set the dates.',
    example: { inclusions: { clouds: ['AWS'] } },
  })
  @NestedObject(() => CompareFiltersDto, false)
  filters?: CompareFiltersDto;

  @AnswerCurrency()
  currency?: string;
}
