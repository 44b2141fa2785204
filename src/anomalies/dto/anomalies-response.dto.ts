import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ROOT_CAUSE_TAG_SOURCES, RootCauseTagSource } from '../../cost-query/anomaly-root-causes.query';
import { DateRangeDto } from '../../dto/filters.dto';
import { FEEDBACK_REASONS } from '../../store/repositories/anomalies.repository';
import { ANOMALY_LIMITS } from '../anomaly-limits';
import { ANOMALY_METHOD } from '../anomaly-model';

export class RootCauseDto {
  @ApiProperty({
    description: '`account`, `service`, `region`, `usageType` (the monitored dimension left out), or `tag:<key>`.',
    example: 'account',
  })
  dimension: string;
  @ApiProperty({ example: '123456789012' })
  value: string;
  @ApiProperty({
    description: "How much this value's amount over the anomaly's days exceeds its average over the baseline days (same number of days).",
    example: 412.5,
  })
  contribution: number;
}

export class AnomalyDto {
  @ApiProperty({
    description: `Stable while later scans extend the anomaly; kept ${ANOMALY_LIMITS.keptDays} days for feedback.`,
    example: 'an_3f9a0c1d2e4b5a6978b1c2d3',
  })
  id: string;
  @ApiProperty({ description: 'First anomalous day.', example: '2026-11-20' })
  start: string;
  @ApiProperty({ description: 'Last anomalous day (consecutive anomalous days are one anomaly).', example: '2026-11-21' })
  end: string;
  @ApiProperty({
    description: "The monitored dimension's value (its series); `(other)` for the values past the monitored ones.",
    example: 'Amazon EC2',
  })
  dimension_value: string;
  @ApiProperty({ description: 'The baselines of its days, summed (an estimate, 4 places).', example: 1200 })
  expected: number;
  @ApiProperty({ description: 'The actual amount of its days.', example: 1850.25 })
  actual: number;
  @ApiProperty({ description: 'actual − expected.', example: 650.25 })
  impact: number;
  @ApiProperty({ type: Number, nullable: true, description: 'impact / expected × 100 (null when nothing was expected).', example: 54.19 })
  impactPercentage: number | null;
  @ApiProperty({ description: `The largest robust z-score of its days (at least ${ANOMALY_LIMITS.scoreThreshold}).`, example: 12.4 })
  score: number;
  @ApiProperty({
    type: [RootCauseDto],
    description: `Up to ${ANOMALY_LIMITS.rootCauses} values that rose most, largest contribution first.`,
  })
  rootCauses: RootCauseDto[];
  @ApiProperty({ enum: FEEDBACK_REASONS, nullable: true, description: 'The latest feedback given on it, or null.', example: null })
  feedback: string | null;
}

export class AnomalyThresholdsDto {
  @ApiProperty({ example: ANOMALY_LIMITS.defaultMinImpact })
  min_impact: number;
  @ApiProperty({ example: ANOMALY_LIMITS.defaultMinImpactPercentage })
  min_impact_percentage: number;
  @ApiProperty({ description: 'The least robust z-score of an anomalous day.', example: ANOMALY_LIMITS.scoreThreshold })
  score: number;
}

@ApiSchema({ name: 'Anomalies' })
export class AnomaliesDto {
  @ApiProperty({ description: 'The ISO 4217 currency of every amount (also in `X-Currency`).', example: 'USD' })
  currency: string;
  @ApiProperty({ example: 'service' })
  dimension: string;
  @ApiProperty({ type: DateRangeDto, description: 'The days judged.' })
  date_range: DateRangeDto;
  @ApiProperty({ description: 'Yesterday (UTC): later days are not complete.', example: '2026-11-24' })
  last_complete_day: string;
  @ApiProperty({ example: ANOMALY_METHOD })
  method: string;
  @ApiProperty({ type: AnomalyThresholdsDto })
  thresholds: AnomalyThresholdsDto;
  @ApiProperty({
    enum: ROOT_CAUSE_TAG_SOURCES,
    description:
      "Where tag root causes were looked for: every key (`all`) or the organisation's activated keys (`activated`, listed by `GET /v1/admin/tag-keys`); see the request's `rootCauseTags`.",
    example: 'activated',
  })
  root_cause_tags: RootCauseTagSource;
  @ApiProperty({ type: [AnomalyDto], description: `Newest first, at most ${ANOMALY_LIMITS.maxAnomalies}.` })
  anomalies: AnomalyDto[];
}

@ApiSchema({ name: 'AnomaliesResponse' })
export class AnomaliesResponseDto {
  @ApiProperty({ example: true })
  success: boolean;
  @ApiProperty({ type: AnomaliesDto })
  data: AnomaliesDto;
}

export class AnomalyFeedbackDto {
  @ApiProperty({ example: 'an_3f9a0c1d2e4b5a6978b1c2d3' })
  id: string;
  @ApiProperty({ enum: FEEDBACK_REASONS, example: 'expected' })
  reason: string;
  @ApiProperty({ example: '2026-11-25T10:15:00.123Z' })
  recorded_at: string;
}

@ApiSchema({ name: 'AnomalyFeedbackResponse' })
export class AnomalyFeedbackResponseDto {
  @ApiProperty({ example: true })
  success: boolean;
  @ApiProperty({ type: AnomalyFeedbackDto })
  data: AnomalyFeedbackDto;
}
