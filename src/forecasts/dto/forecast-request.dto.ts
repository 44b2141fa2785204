import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsCalendarDate } from '../../common/validation/validators';
import { FORECAST_METRICS, ForecastMetric } from '../../cost-query/forecast-series.query';
import { AnswerCurrency } from '../../dto/currency.dto';
import { ForecastFiltersDto, NestedObject } from '../../dto/filters.dto';
import { DIMENSION_FORMS, DIMENSION_PATTERN, describeReceived, IsGroupingDimension } from '../../dto/grouping.dto';
import { FORECAST_LIMITS } from '../forecast-limits';

export const FORECAST_DATE_GROUPINGS = ['daily', 'monthly'] as const;
export type ForecastDateGrouping = (typeof FORECAST_DATE_GROUPINGS)[number];

export class ForecastGroupByDto {
  @ApiPropertyOptional({
    description: `Forecast each value of this dimension (${DIMENSION_FORMS}) on its own: the ${FORECAST_LIMITS.topValues} values with the highest amounts over the history, and the others together as \`${FORECAST_LIMITS.otherLabel}\`. Without it, one series of everything the filters select.`,
    example: 'service',
    pattern: DIMENSION_PATTERN,
  })
  @IsOptional()
  @IsGroupingDimension()
  dimension?: string;
}

export class ForecastRequestDto {
  @ApiProperty({
    description: `Required. The last day forecast (YYYY-MM-DD), after the last complete day (yesterday, UTC): at most ${FORECAST_LIMITS.maxDailyDays} days ahead with \`daily\` points, ${FORECAST_LIMITS.maxMonthlyDays} with \`monthly\`.`,
    example: '2026-12-31',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  })
  @IsCalendarDate()
  forecastEnd: string;

  @ApiPropertyOptional({
    enum: FORECAST_DATE_GROUPINGS,
    default: 'daily',
    description: 'One point per day, or per calendar month (the forecast days of that month, summed).',
    example: 'monthly',
  })
  @IsOptional()
  @IsIn(FORECAST_DATE_GROUPINGS, {
    message: (args) => `Expected one of ${FORECAST_DATE_GROUPINGS.join(', ')}, received ${describeReceived(args.value)}`,
  })
  dateGrouping?: ForecastDateGrouping;

  @ApiPropertyOptional({
    enum: FORECAST_METRICS,
    default: 'amortized_cost',
    description: 'The money metric forecast.',
    example: 'amortized_cost',
  })
  @IsOptional()
  @IsIn(FORECAST_METRICS, {
    message: (args) => `Expected one of ${FORECAST_METRICS.join(', ')}, received ${describeReceived(args.value)}`,
  })
  metric?: ForecastMetric;

  @ApiPropertyOptional({
    description: 'The probability (percent) that a value falls inside its `lower`–`upper` interval, 50 to 99.',
    default: FORECAST_LIMITS.defaultLevel,
    minimum: 50,
    maximum: 99,
    example: 95,
  })
  @IsOptional()
  @IsInt({ message: (args) => `Expected an integer from 50 to 99, received ${describeReceived(args.value)}` })
  @Min(50, { message: (args) => `Expected an integer from 50 to 99, received ${describeReceived(args.value)}` })
  @Max(99, { message: (args) => `Expected an integer from 50 to 99, received ${describeReceived(args.value)}` })
  predictionIntervalLevel?: number;

  @ApiPropertyOptional({
    type: () => ForecastGroupByDto,
    description: 'Optional: one series per value of a dimension.',
    example: { dimension: 'service' },
  })
  @NestedObject(() => ForecastGroupByDto, false)
  groupBy?: ForecastGroupByDto;

  @ApiPropertyOptional({
    type: () => ForecastFiltersDto,
    description:
      'Filters of the history (as /compare: without `dateRange` and `billingPeriods`, which are a 400; the history sets the dates).',
    example: { inclusions: { clouds: ['AWS'] } },
  })
  @NestedObject(() => ForecastFiltersDto, false)
  filters?: ForecastFiltersDto;

  @AnswerCurrency()
  currency?: string;
}
