import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { COMPARE_METRICS, CompareMetric } from '../../cost-query/cost-metrics';
import { EXAMPLE_LAST_MONTH, EXAMPLE_MONTH_BEFORE } from '../../common/examples/examples';
import { DeltaDirection } from '../comparison-delta';
import { periodLabel } from '../period-label';
import { TOTAL_DIMENSION_VALUE } from '../comparison-result';

@ApiSchema({ name: 'ComparisonDelta', description: 'How a value moved from the baseline to the comparison period.' })
export class DeltaDto {
  @ApiProperty({ description: 'comparison − baseline, rounded to 10 decimals (removes float noise).', example: 812.5 })
  absolute: number;

  @ApiProperty({
    description:
      'absolute / |baseline| × 100, rounded to 10 decimals. At a zero baseline: 0 when the comparison is also 0, else 100 (−100 for a negative comparison). Never NaN or Infinity.',
    example: 12.5,
  })
  percentage: number;

  @ApiProperty({
    enum: ['increase', 'decrease', 'unchanged'],
    description: 'Sign of `absolute`: increase (> 0), decrease (< 0), unchanged (= 0).',
    example: 'increase',
  })
  direction: DeltaDirection;
}

@ApiSchema({ name: 'ComparisonDateValue' })
export class DateValueDto {
  @ApiProperty({ description: "First day of the bucket (day, the week's Monday, or the month's first day).", example: '2026-10-01' })
  date: string;

  @ApiProperty({ description: 'The metric over the bucket, within the period; 0 when there is no data.', example: 203.1 })
  value: number;
}

@ApiSchema({ name: 'ComparisonPeriodSide', description: 'One period of a comparison row.' })
export class PeriodSideDto {
  @ApiProperty({ description: 'The metric over the whole period for this row (exact sums; ESR computed from sums).', example: 7312.4 })
  total: number;

  @ApiProperty({
    type: [DateValueDto],
    description:
      'Every bucket touching the period, in date order, zero-filled; the first and last buckets may be partial (only days of the period count).',
  })
  by_date: DateValueDto[];
}

@ApiSchema({ name: 'ComparisonRow' })
export class ComparisonRowDto {
  @ApiProperty({
    description: `Value of groupBy.dimension (\`(not set)\` for rows without one), or \`${TOTAL_DIMENSION_VALUE}\` without a dimension.`,
    example: 'Amazon EC2',
  })
  dimension_value: string;

  @ApiProperty({ type: PeriodSideDto, description: 'The baseline period (zeros when the value is absent from it).' })
  baseline: PeriodSideDto;

  @ApiProperty({ type: PeriodSideDto, description: 'The comparison period (zeros when the value is absent from it).' })
  comparison: PeriodSideDto;

  @ApiProperty({ type: DeltaDto, description: 'Delta of the period totals.' })
  delta: DeltaDto;
}

@ApiSchema({ name: 'ComparisonMetricTotal' })
export class MetricTotalDto {
  @ApiProperty({ description: 'The metric over the whole baseline period.', example: 40210.5 })
  baseline: number;

  @ApiProperty({ description: 'The metric over the whole comparison period.', example: 45210.77 })
  comparison: number;

  @ApiProperty({ type: DeltaDto })
  delta: DeltaDto;
}

@ApiSchema({ name: 'ComparisonMetricTotals', description: 'Key metrics over the whole periods, whatever metric is compared.' })
export class MetricTotalsDto {
  @ApiProperty({ type: MetricTotalDto })
  amortized_cost: MetricTotalDto;

  @ApiProperty({ type: MetricTotalDto })
  on_demand_cost: MetricTotalDto;

  @ApiProperty({ type: MetricTotalDto, description: 'Sum of the six savings sources.' })
  total_savings: MetricTotalDto;

  @ApiProperty({ type: MetricTotalDto, description: 'total savings / on-demand cost per period (0 without on-demand cost).' })
  effective_savings_rate: MetricTotalDto;
}

@ApiSchema({ name: 'ComparisonPeriod' })
export class PeriodDto {
  @ApiProperty({ example: '2026-10-01' })
  start: string;

  @ApiProperty({ example: '2026-10-31' })
  end: string;
}

@ApiSchema({ name: 'ComparisonMetadata' })
export class ComparisonMetadataDto {
  @ApiProperty({ type: PeriodDto, example: EXAMPLE_MONTH_BEFORE })
  baseline_period: PeriodDto;

  @ApiProperty({ type: PeriodDto, example: EXAMPLE_LAST_MONTH })
  comparison_period: PeriodDto;

  @ApiProperty({ enum: COMPARE_METRICS, example: 'amortized_cost' })
  metric: CompareMetric;

  @ApiProperty({
    description:
      'Human-readable period: `2026`, `October 2026`, `July – September 2026`, `15 Oct 2026`, `1–15 Oct 2026`, `28 Sep – 4 Oct 2026`, `15 Dec 2025 – 14 Jan 2026`.',
    example: periodLabel(EXAMPLE_MONTH_BEFORE.start, EXAMPLE_MONTH_BEFORE.end),
  })
  baseline_label: string;

  @ApiProperty({ description: 'Same format as baseline_label.', example: periodLabel(EXAMPLE_LAST_MONTH.start, EXAMPLE_LAST_MONTH.end) })
  comparison_label: string;
}

@ApiSchema({ name: 'Comparison' })
export class ComparisonDto {
  @ApiProperty({
    description:
      "Extension: the ISO 4217 currency of every amount of this answer (also in `X-Currency`): the request's `currency`, else the organisation's reporting currency. Each day's costs in another currency are converted at that day's rate, so a comparison across a rate change compares converted amounts.",
    example: 'USD',
  })
  currency: string;
  @ApiProperty({
    type: [ComparisonRowDto],
    description:
      'One row per dimension value present in either period, ordered by |delta.absolute| descending, then dimension_value ascending. Without a dimension: exactly one row.',
  })
  comparisons: ComparisonRowDto[];

  @ApiProperty({ type: MetricTotalDto, description: 'The compared metric over the whole periods (all rows together).' })
  totals: MetricTotalDto;

  @ApiProperty({ type: MetricTotalsDto })
  metric_totals: MetricTotalsDto;

  @ApiProperty({ type: ComparisonMetadataDto })
  metadata: ComparisonMetadataDto;
}

@ApiSchema({ name: 'ComparisonResponse' })
export class ComparisonResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: ComparisonDto })
  data: ComparisonDto;
}
