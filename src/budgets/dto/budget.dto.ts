import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsCurrencyCode } from '../../dto/currency.dto';
import { BudgetFiltersDto, NestedObject } from '../../dto/filters.dto';
import { BUDGET_LIMITS, DEFAULT_AMOUNT_KEY } from '../budget-definition';
import {
  BUDGET_METRICS,
  BUDGET_PERIODS,
  BudgetMetric,
  BudgetPeriodKind,
  THRESHOLD_KINDS,
  ThresholdKind,
} from '../../store/repositories/budgets.repository';
import { WEBHOOK_FORMATS, WebhookFormat } from '../webhook-payloads';

export class BudgetThresholdDto {
  @ApiProperty({
    enum: THRESHOLD_KINDS,
    description: '`actual`: spend to date reaches it; `forecast`: spend at period end is forecast to.',
  })
  @IsIn(THRESHOLD_KINDS as unknown as string[])
  kind: ThresholdKind;

  @ApiProperty({
    description: `Percent of the period’s amount, a whole number ${BUDGET_LIMITS.minPercent}–${BUDGET_LIMITS.maxPercent}.`,
    example: 80,
  })
  @IsInt()
  @Min(BUDGET_LIMITS.minPercent)
  @Max(BUDGET_LIMITS.maxPercent)
  percent: number;
}

export class WebhookDestinationDto {
  @ApiProperty({
    description:
      '`https://` (or `http://` to an allowed loopback host), on a host WEBHOOK_ALLOWED_HOSTS allows, without credentials. Redirects are not followed.',
    example: 'https://hooks.example.internal/finops',
  })
  @IsString()
  @Length(1, 2048)
  url: string;

  @ApiPropertyOptional({ enum: WEBHOOK_FORMATS, default: 'json', description: 'The body: the event as JSON, or a Slack or Teams message.' })
  @IsOptional()
  @IsIn(WEBHOOK_FORMATS as unknown as string[])
  format?: WebhookFormat;
}

/** A budget as given to POST and PUT /v1/admin/budgets. */
export class BudgetRequestDto {
  @ApiProperty({
    description: 'What the budget is for, as people read it.',
    example: 'Payments monthly',
    maxLength: BUDGET_LIMITS.maxNameLength,
  })
  @IsString()
  @Length(1, BUDGET_LIMITS.maxNameLength)
  name: string;

  @ApiPropertyOptional({
    type: () => BudgetFiltersDto,
    description:
      'The rows the budget follows: any Filters field without dates (tags, cost categories incl. rule-defined ones). Absent: everything the key sees.',
    example: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } },
  })
  @NestedObject(() => BudgetFiltersDto, false)
  filters?: BudgetFiltersDto;

  @ApiPropertyOptional({ enum: BUDGET_METRICS, default: 'amortized_cost' })
  @IsOptional()
  @IsIn(BUDGET_METRICS as unknown as string[])
  metric?: BudgetMetric;

  @ApiPropertyOptional({
    description: 'ISO 4217; default the organisation’s reporting currency (fixed when the budget is saved).',
    example: 'USD',
  })
  @IsOptional()
  @IsCurrencyCode()
  currency?: string;

  @ApiProperty({ enum: BUDGET_PERIODS, example: 'monthly' })
  @IsIn(BUDGET_PERIODS as unknown as string[])
  period: BudgetPeriodKind;

  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    description: `Positive decimals (text or number, at most 10 places) by period — \`2026-12\`, \`2026-Q4\` or \`2026\` as the period is — and \`${DEFAULT_AMOUNT_KEY}\` for every other period. Without \`${DEFAULT_AMOUNT_KEY}\`, the planned periods must follow each other without a gap and include the current one; a period after the last has no amount (the budget is then not evaluated).`,
    example: { default: '3000', '2026-12': '3500' },
  })
  @IsObject()
  amounts: Record<string, string | number>;

  @ApiProperty({ type: [BudgetThresholdDto], description: `At most ${BUDGET_LIMITS.maxThresholds}; no kind and percent twice.` })
  @IsArray()
  @ArrayMaxSize(BUDGET_LIMITS.maxThresholds)
  @ValidateNested({ each: true })
  @Type(() => BudgetThresholdDto)
  thresholds: BudgetThresholdDto[];

  @ApiPropertyOptional({
    type: [WebhookDestinationDto],
    description: `Where alerts are delivered, at most ${BUDGET_LIMITS.maxDestinations}.`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(BUDGET_LIMITS.maxDestinations)
  @ValidateNested({ each: true })
  @Type(() => WebhookDestinationDto)
  notify?: WebhookDestinationDto[];
}

@ApiSchema({ name: 'BudgetPeriod' })
export class BudgetPeriodDto {
  @ApiProperty({ example: '2026-12' })
  label: string;
  @ApiProperty({ example: '2026-12-01' })
  start: string;
  @ApiProperty({ example: '2026-12-31' })
  end: string;
}

/** A saved budget, as the admin API answers it. */
export class BudgetDto {
  @ApiProperty({ format: 'uuid' })
  budgetId: string;
  @ApiProperty()
  name: string;
  @ApiProperty({ type: () => BudgetFiltersDto })
  filters: BudgetFiltersDto;
  @ApiProperty({ enum: BUDGET_METRICS })
  metric: BudgetMetric;
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ enum: BUDGET_PERIODS })
  period: BudgetPeriodKind;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { default: '3000', '2026-12': '3500' } })
  amounts: Record<string, string>;
  @ApiProperty({ type: [BudgetThresholdDto] })
  thresholds: BudgetThresholdDto[];
  @ApiProperty({ type: [WebhookDestinationDto] })
  notify: WebhookDestinationDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The data scope of the key that made it, in words; null: the whole organisation.',
  })
  dataScope: string | null;
  @ApiProperty({ description: 'How many times it was saved.' })
  version: number;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
  @ApiProperty({ description: 'Who saved it last: an admin key’s id or a signed-in person’s email.' })
  updatedBy: string;
}

export class BudgetCreatedDto extends BudgetDto {
  @ApiProperty({
    description:
      'The secret webhook signatures are made with (`X-Cost-Insights-Signature: t=<unix>,v1=<HMAC-SHA256(secret, t + "." + body)>`). Shown once, here, and never again.',
    example: 'whsec_3q2-7wHZ...',
  })
  signingSecret: string;
}

export class BudgetListDto {
  @ApiProperty({ type: [BudgetDto] })
  budgets: BudgetDto[];
}

export class BudgetStatusRequestDto {
  @ApiPropertyOptional({ description: 'Only these budgets; default every budget the key may see.', type: [String], format: 'uuid' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(BUDGET_LIMITS.maxPerOrganization)
  @IsUUID('all', { each: true })
  budgetIds?: string[];
}

export class ForecastEstimateDto {
  @ApiProperty({ example: 3120.5 })
  mean: number;
  @ApiProperty({ example: 2950.1 })
  lower: number;
  @ApiProperty({ example: 3290.9 })
  upper: number;
}

export class ThresholdStatusDto extends BudgetThresholdDto {
  @ApiProperty({ description: 'percent % of the period’s amount.', example: 2400 })
  amount: number;
  @ApiProperty({ enum: ['ok', 'breached', 'forecast_breach'] })
  state: 'ok' | 'breached' | 'forecast_breach';
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When its standing alert fired; null when none stands.' })
  since: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Forecast thresholds: the day actual spend plus the forecast’s mean reaches it (null: not within the period).',
    example: '2026-12-24',
  })
  crossing_date?: string | null;
}

export class PeriodFiguresDto {
  @ApiProperty({ type: () => BudgetPeriodDto })
  period: BudgetPeriodDto;
  @ApiProperty({ type: Number, nullable: true, description: 'The period’s amount; null when none is planned for it.', example: 3000 })
  amount: number | null;
  @ApiProperty({ description: 'Spend in the period (to date for the current one), in the budget’s currency.', example: 1234.56 })
  actual: number;
  @ApiProperty({ type: Number, nullable: true, description: 'actual ÷ amount × 100, 2 decimals.', example: 41.15 })
  percent_used: number | null;
}

export class BudgetStatusDto extends PeriodFiguresDto {
  @ApiProperty({ format: 'uuid' })
  budgetId: string;
  @ApiProperty()
  name: string;
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ enum: BUDGET_METRICS })
  metric: BudgetMetric;
  @ApiProperty({ type: () => BudgetFiltersDto, description: 'The rows the budget follows (inside the data scope it was made in).' })
  filters: BudgetFiltersDto;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'The amount spread evenly over the period’s days, up to and including today: on track when actual is below it.',
    example: 1161.29,
  })
  prorated_amount: number | null;
  @ApiProperty({
    type: () => ForecastEstimateDto,
    nullable: true,
    description:
      'Spend at period end: actual to yesterday plus the forecast of the remaining days (mean and 80 % interval); null with under 14 days of history.',
  })
  forecast: ForecastEstimateDto | null;
  @ApiProperty({ type: [ThresholdStatusDto] })
  thresholds: ThresholdStatusDto[];
  @ApiProperty({
    type: [PeriodFiguresDto],
    description: `The ${BUDGET_LIMITS.historyPeriods} periods before the current one, oldest first.`,
  })
  history: PeriodFiguresDto[];
}

export class BudgetStatusListDto {
  @ApiProperty({ example: '2026-11-29' })
  today: string;
  @ApiProperty({ type: [BudgetStatusDto] })
  budgets: BudgetStatusDto[];
}

export class WebhookAttemptDto {
  @ApiProperty()
  destination: number;
  @ApiProperty()
  attempt: number;
  @ApiProperty({ format: 'date-time' })
  at: string;
  @ApiProperty({ description: 'The receiver’s HTTP status; 0 when none answered.' })
  status_code: number;
  @ApiProperty({ description: 'Why the attempt failed, when it did (never the response body).' })
  error: string;
  @ApiProperty({ enum: ['delivered', 'retry', 'dead'] })
  outcome: string;
}

export class BudgetAlertDto {
  @ApiProperty({ format: 'uuid', description: 'X-Cost-Insights-Event-Id of its deliveries.' })
  eventId: string;
  @ApiProperty({ enum: ['fired', 'withdrawn'] })
  event: 'fired' | 'withdrawn';
  @ApiProperty({ format: 'date-time' })
  at: string;
  @ApiProperty({ type: () => BudgetPeriodDto })
  period: { start: string; end: string };
  @ApiProperty({ type: () => BudgetThresholdDto })
  threshold: BudgetThresholdDto;
  @ApiProperty({
    type: 'object',
    description: 'The webhook event as delivered (amount, actual, forecast: exact decimal text).',
    additionalProperties: true,
  })
  payload: Record<string, unknown>;
  @ApiProperty({ type: [WebhookAttemptDto] })
  deliveries: WebhookAttemptDto[];
  @ApiProperty({ description: 'Whether a destination gave up after 24 hours of retries (a dead letter).' })
  dead_letter: boolean;
}

export class BudgetAlertListDto {
  @ApiProperty({ type: [BudgetAlertDto], description: 'Newest first, the last 13 months.' })
  alerts: BudgetAlertDto[];
}
