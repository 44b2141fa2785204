import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { AnswerCurrency } from '../../dto/currency.dto';
import { AnomalyFiltersDto, DateRangeDto, NestedObject } from '../../dto/filters.dto';
import { DIMENSION_FORMS, DIMENSION_PATTERN, describeReceived, IsGroupingDimension } from '../../dto/grouping.dto';
import { ROOT_CAUSE_TAG_SOURCES, RootCauseTagSource } from '../../cost-query/anomaly-root-causes.query';
import { FEEDBACK_REASONS, FeedbackReason } from '../../store/repositories/anomalies.repository';
import { ANOMALY_LIMITS } from '../anomaly-limits';

const MAX_THRESHOLD = 1e12;
const threshold = (what: string) => ({
  message: (args: { value: unknown }) => `Expected ${what} from 0 to ${MAX_THRESHOLD}, received ${describeReceived(args.value)}`,
});

export class AnomaliesRequestDto {
  @ApiPropertyOptional({
    type: () => DateRangeDto,
    description: `The days scanned (at most ${ANOMALY_LIMITS.maxDays}); default the last ${ANOMALY_LIMITS.defaultDays} complete days. Only complete days are judged: an end after yesterday (UTC) is read as yesterday. Each day's baseline is the ${ANOMALY_LIMITS.baselineDays} days before it, also before the range.`,
    example: { start: '2026-09-01', end: '2026-11-24' },
  })
  @NestedObject(() => DateRangeDto, false)
  dateRange?: DateRangeDto;

  @ApiPropertyOptional({
    description: `The monitored dimension (${DIMENSION_FORMS}): each of its ${ANOMALY_LIMITS.monitoredValues} values with the highest costs is a series of its own, the others one series \`${ANOMALY_LIMITS.otherLabel}\`.`,
    default: ANOMALY_LIMITS.defaultDimension,
    example: 'service',
    pattern: DIMENSION_PATTERN,
  })
  @IsOptional()
  @IsGroupingDimension()
  dimension?: string;

  @ApiPropertyOptional({
    description: "An anomaly's least impact (actual − expected), in the answer's currency.",
    default: ANOMALY_LIMITS.defaultMinImpact,
    minimum: 0,
    example: 50,
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, threshold('a number'))
  @Min(0, threshold('a number'))
  @Max(MAX_THRESHOLD, threshold('a number'))
  minImpact?: number;

  @ApiPropertyOptional({
    description: "An anomaly's least impact as a percentage of its expected amount.",
    default: ANOMALY_LIMITS.defaultMinImpactPercentage,
    minimum: 0,
    example: 20,
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, threshold('a number'))
  @Min(0, threshold('a number'))
  @Max(MAX_THRESHOLD, threshold('a number'))
  minImpactPercentage?: number;

  @ApiPropertyOptional({
    type: () => AnomalyFiltersDto,
    description:
      'Filters of the scanned costs (as /compare: without `dateRange` and `billingPeriods`, which are a 400; `dateRange` above sets the days).',
    example: { inclusions: { clouds: ['AWS'] } },
  })
  @NestedObject(() => AnomalyFiltersDto, false)
  filters?: AnomalyFiltersDto;

  @ApiPropertyOptional({
    enum: ROOT_CAUSE_TAG_SOURCES,
    description:
      "The tag keys root causes are looked for in: `all` (every key) or `activated` (the organisation's activated keys, `GET /v1/admin/tag-keys`). Default: `activated` when the organisation has activated tag keys and every key the request and the key's data scope name is one of them, else `all`. On an estate whose resources carry tags of their own (Name, instance-id), `all` reads a row per resource and day of the anomalies' days and is the slower. The answer's `root_cause_tags` says which was used.",
    example: 'all',
  })
  @IsOptional()
  @IsIn(ROOT_CAUSE_TAG_SOURCES, {
    message: (args) => `Expected one of ${ROOT_CAUSE_TAG_SOURCES.join(', ')}, received ${describeReceived(args.value)}`,
  })
  rootCauseTags?: RootCauseTagSource;

  @AnswerCurrency()
  currency?: string;
}

export class AnomalyFeedbackRequestDto {
  @ApiProperty({
    enum: FEEDBACK_REASONS,
    description:
      'Why the anomaly happened. `expected`, `seasonal` and `migration` leave its days out of the baselines of later scans of its series; the others are recorded only.',
    example: 'expected',
  })
  @IsIn(FEEDBACK_REASONS, {
    message: (args) => `Expected one of ${FEEDBACK_REASONS.join(', ')}, received ${describeReceived(args.value)}`,
  })
  reason: FeedbackReason;
}
