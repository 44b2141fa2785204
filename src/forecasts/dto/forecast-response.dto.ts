import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { FORECAST_METRICS } from '../../cost-query/forecast-series.query';
import { FORECAST_METHOD } from '../../cost-query/forecast-model';
import { FORECAST_DATE_GROUPINGS } from './forecast-request.dto';

export class ForecastEstimateDto {
  @ApiProperty({ description: 'The expected amount (an estimate, rounded to 4 places).', example: 1234.5678 })
  mean: number;
  @ApiProperty({
    description: 'Lower end of the prediction interval (0 at least for a series without negative amounts).',
    example: 1100.25,
  })
  lower: number;
  @ApiProperty({ description: 'Upper end of the prediction interval.', example: 1368.9 })
  upper: number;
}

export class ForecastPointDto extends ForecastEstimateDto {
  @ApiProperty({
    description: 'The day (daily) or the first day of the month (monthly; the forecast days of that month).',
    example: '2026-12-01',
  })
  date: string;
}

export class ForecastActualDto {
  @ApiProperty({ example: '2026-11-24' })
  date: string;
  @ApiProperty({ description: 'The day’s amount the model was fitted on (exact sum; one-off charges left out).', example: 1210.5 })
  amount: number;
}

export class ForecastCurrentMonthDto extends ForecastEstimateDto {
  @ApiProperty({ description: 'The month of today (UTC), yyyy-MM.', example: '2026-11' })
  month: string;
  @ApiProperty({
    description: 'Its actual amount up to the last complete day; mean, lower and upper add the forecast of its remaining days.',
    example: 30250.75,
  })
  actual: number;
}

export class ForecastBacktestDto {
  @ApiProperty({ description: 'Rolling origins scored (each with at least two weeks of history before it).', example: 4 })
  origins: number;
  @ApiProperty({ description: 'Days forecast from each origin.', example: 7 })
  horizon_days: number;
  @ApiProperty({
    description: 'Mean absolute percentage error of the horizon totals, as a fraction (0.05 = 5 %); null when none was scored.',
    example: 0.0412,
    nullable: true,
    type: Number,
  })
  mape: number | null;
  @ApiProperty({
    description: 'Share of the scored days whose actual amount fell inside its interval; null when none was scored.',
    example: 0.8214,
    nullable: true,
    type: Number,
  })
  interval_coverage: number | null;
}

export class ForecastAccuracyDto {
  @ApiProperty({ example: FORECAST_METHOD })
  method: string;
  @ApiProperty({ description: 'Days the model was fitted on (at most 91: the most recent).', example: 91 })
  training_days: number;
  @ApiProperty({ type: ForecastBacktestDto, description: 'The same model scored on this series’ own history.' })
  backtest: ForecastBacktestDto;
}

export class ForecastSeriesDto {
  @ApiPropertyOptional({
    description: 'The dimension value (with `groupBy.dimension`); `(other)` for the values past the top ones.',
    example: 'Amazon EC2',
  })
  dimension_value?: string;
  @ApiProperty({ type: [ForecastActualDto], description: 'The history, one amount per day (0 on days without costs), oldest first.' })
  actuals: ForecastActualDto[];
  @ApiProperty({ description: 'Tax, credits and adjustments over the history: one-off charges, left out of the model.', example: -120.5 })
  one_off_total: number;
  @ApiProperty({ type: [ForecastPointDto], description: 'From the day after the last complete day to forecastEnd, per day or month.' })
  points: ForecastPointDto[];
  @ApiProperty({ type: ForecastEstimateDto, description: 'Over every forecast day (its interval accounts for what the days share).' })
  total: ForecastEstimateDto;
  @ApiProperty({ type: ForecastCurrentMonthDto })
  current_month: ForecastCurrentMonthDto;
  @ApiProperty({ type: ForecastAccuracyDto })
  accuracy: ForecastAccuracyDto;
}

@ApiSchema({ name: 'Forecast' })
export class ForecastDto {
  @ApiProperty({
    description:
      "The ISO 4217 currency of every amount (also in `X-Currency`): the request's `currency`, else the organisation's reporting currency.",
    example: 'USD',
  })
  currency: string;
  @ApiProperty({ enum: FORECAST_METRICS, example: 'amortized_cost' })
  metric: string;
  @ApiProperty({ enum: FORECAST_DATE_GROUPINGS, example: 'daily' })
  date_grouping: string;
  @ApiProperty({ example: 80 })
  prediction_interval_level: number;
  @ApiProperty({ description: 'The last day of the history: yesterday (UTC).', example: '2026-11-24' })
  last_complete_day: string;
  @ApiProperty({ example: '2026-12-31' })
  forecast_end: string;
  @ApiProperty({
    type: [ForecastSeriesDto],
    description: 'One series, or one per top value and `(other)`; the largest forecast total first, `(other)` last.',
  })
  series: ForecastSeriesDto[];
}

@ApiSchema({ name: 'ForecastResponse' })
export class ForecastResponseDto {
  @ApiProperty({ example: true })
  success: boolean;
  @ApiProperty({ type: ForecastDto })
  data: ForecastDto;
}
