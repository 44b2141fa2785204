import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { DATE_GROUPINGS, DateGrouping } from '../../cost-query/date-bucketing';
import {
  DIMENSION_FORMS,
  IsDateGrouping,
  IsGroupingDimension,
  IsGroupingDimensionList,
  DIMENSION_PATTERN,
  MAX_GROUPING_DIMENSIONS,
} from '../../dto/grouping.dto';
import { FiltersDto, NestedObject } from '../../dto/filters.dto';
import { AnswerCurrency } from '../../dto/currency.dto';
import { EXAMPLE_LAST_MONTH } from '../../common/examples/examples';
import { SETTING_DEFAULTS } from '../../config/settings';

export class CostDataGroupByDto {
  @ApiProperty({
    enum: DATE_GROUPINGS,
    description:
      "Time-series granularity. Each item is one bucket: a day, a week starting on Monday, or a calendar month; `usage_date` is the bucket's first day (so the first bucket may start before the date range).",
    example: 'monthly',
  })
  @IsDateGrouping()
  dateGrouping: DateGrouping;

  @ApiPropertyOptional({
    description: `Single grouping dimension: ${DIMENSION_FORMS}. Each item then carries \`dimension_value\`; rows without a value (empty column, untagged resource, no category) form the \`(not set)\` group. Ignored when \`dimensions\` is given. Without any dimension there is one item per date bucket.`,
    example: 'service',
    pattern: DIMENSION_PATTERN,
  })
  @IsOptional()
  @IsGroupingDimension()
  dimension?: string;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_GROUPING_DIMENSIONS,
    uniqueItems: true,
    description: `Multi-dimension grouping: 1 to ${MAX_GROUPING_DIMENSIONS} distinct dimensions, each ${DIMENSION_FORMS}. Takes precedence over \`dimension\`. Each item then carries \`dimension_values\` (API dimension name → value) and no \`dimension_value\`. Items are ordered by date, then by the values in this order.`,
    example: ['service', 'region'],
  })
  @IsOptional()
  @IsGroupingDimensionList()
  dimensions?: string[];
}

export class CostDataRequestDto {
  @ApiPropertyOptional({
    type: () => FiltersDto,
    description: `Inclusions and exclusions. Without \`inclusions.dateRange\` (and without \`inclusions.billingPeriods\`) the last DEFAULT_WINDOW_DAYS days (default ${SETTING_DEFAULTS.DEFAULT_WINDOW_DAYS}) up to today, UTC, are queried. A dateRange may span at most MAX_DATE_RANGE_DAYS days.`,
    example: { inclusions: { dateRange: EXAMPLE_LAST_MONTH } },
  })
  @NestedObject(() => FiltersDto, false)
  filters?: FiltersDto;

  @AnswerCurrency()
  currency?: string;

  // Declared last so that, when it is missing, its detail ends the validation message.
  @ApiProperty({
    type: () => CostDataGroupByDto,
    description: 'Required. Time-series granularity and optional grouping dimension(s).',
    example: { dateGrouping: 'monthly', dimension: 'service' },
  })
  @NestedObject(() => CostDataGroupByDto, true)
  groupBy: CostDataGroupByDto;
}
