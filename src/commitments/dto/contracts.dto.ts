import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsCalendarDate } from '../../common/validation/validators';
import { describeReceived } from '../../dto/grouping.dto';
import { CONTRACT_LIMITS } from '../commitment-limits';

const levelMessage = (args: { value: unknown }) => `Expected an integer from 50 to 99, received ${describeReceived(args.value)}`;

export class ContractsRequestDto {
  @ApiPropertyOptional({
    type: [String],
    description: `Only these contracts (FOCUS ContractId, at most ${CONTRACT_LIMITS.maxContractIds}); default: every contract of the organisation.`,
    example: ['AGR-99-BETA'],
    maxItems: CONTRACT_LIMITS.maxContractIds,
  })
  @IsOptional()
  @IsArray({ message: 'Expected an array of strings' })
  @ArrayMaxSize(CONTRACT_LIMITS.maxContractIds, { message: `at most ${CONTRACT_LIMITS.maxContractIds} contract ids are allowed` })
  @IsString({ each: true, message: 'Expected an array of strings' })
  @MaxLength(1000, { each: true, message: 'contract ids are at most 1000 characters' })
  contractIds?: string[];

  @ApiPropertyOptional({
    description:
      'The last day counted as applied (YYYY-MM-DD); the projection forecasts the days after it. Default: yesterday (UTC), the last whole day.',
    example: '2026-11-29',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  })
  @IsOptional()
  @IsCalendarDate()
  asOf?: string;

  @ApiPropertyOptional({
    description: 'The projection interval’s level, in percent.',
    example: 80,
    default: CONTRACT_LIMITS.defaultLevel,
    minimum: 50,
    maximum: 99,
  })
  @IsOptional()
  @IsInt({ message: levelMessage })
  @Min(50, { message: levelMessage })
  @Max(99, { message: levelMessage })
  level?: number;
}

export class ContractProjectionDto {
  @ApiProperty({
    description: 'Applied to date plus the forecast of the days left: what the period will have applied (the mean), in the burn measure.',
    example: 912400.5,
  })
  applied: number;

  @ApiProperty({ description: 'The interval’s lower bound at `level`.', example: 861000 })
  lower: number;

  @ApiProperty({ description: 'The interval’s upper bound at `level`.', example: 963800 })
  upper: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'applied / committed, 6 decimals (null without a committed amount): under 1 is a shortfall at the period’s end.',
    example: 0.9124,
  })
  burned: number | null;
}

export class ContractCommitmentDto {
  @ApiProperty({ description: 'FOCUS ContractCommitmentId.', example: 'CMT-SPEND-001' })
  contract_commitment_id: string;

  @ApiProperty({ description: 'FOCUS ContractCommitmentCategory: Spend or Usage.', example: 'Spend' })
  category: string;

  @ApiProperty({ description: 'FOCUS ContractCommitmentType.', example: 'Enterprise Agreement' })
  type: string;

  @ApiProperty({ description: 'FOCUS ContractCommitmentDescription.', example: '3yr Enterprise Spend Goal' })
  description: string;

  @ApiProperty({ description: 'The billing currency of every amount of the commitment (FOCUS BillingCurrency).', example: 'EUR' })
  currency: string;

  @ApiProperty({ description: 'FOCUS ContractCommitmentPeriodStart (UTC).', example: '2025-12-01T00:00:00Z' })
  period_start: string;

  @ApiProperty({ description: 'FOCUS ContractCommitmentPeriodEnd (UTC, exclusive).', example: '2028-12-01T00:00:00Z' })
  period_end: string;

  @ApiProperty({ type: Number, nullable: true, description: 'FOCUS ContractCommitmentCost, in `currency`.', example: 925000 })
  committed_cost: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'FOCUS ContractCommitmentQuantity, in `unit`.', example: null })
  committed_quantity: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'FOCUS ContractCommitmentUnit.', example: null })
  unit: string | null;

  @ApiProperty({
    enum: ['cost', 'quantity'],
    description: 'What burns the commitment down: quantity for a Usage commitment with a committed quantity, cost otherwise.',
    example: 'cost',
  })
  burn_measure: 'cost' | 'quantity';

  @ApiProperty({
    description:
      'Σ ContractCommitmentAppliedCost of the rows’ ContractApplied elements naming the commitment, in its period up to as_of, in `currency`.',
    example: 412800.25,
  })
  applied_cost: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Σ ContractCommitmentAppliedQuantity of the same elements, in `unit` (null when none gave one).',
    example: null,
  })
  applied_quantity: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Applied / committed in the burn measure, 6 decimals (over 1: past the commitment); null without a committed amount.',
    example: 0.446271,
  })
  burned: number | null;

  @ApiProperty({ description: 'Days of the period up to and including as_of.', example: 364 })
  days_elapsed: number;

  @ApiProperty({ description: 'Days of the period after as_of.', example: 731 })
  days_left: number;

  @ApiProperty({
    type: () => ContractProjectionDto,
    nullable: true,
    description:
      'At the period’s end, from the forecast model of /forecast fitted on the daily applied amounts; null as `projection_note` says.',
  })
  projected: ContractProjectionDto | null;

  @ApiPropertyOptional({
    description: 'Why there is no projection: the period has ended, not started, or has fewer days of history than the model needs.',
    example: undefined,
  })
  projection_note?: string;
}

export class ContractDto {
  @ApiProperty({ description: 'FOCUS ContractId.', example: 'AGR-99-BETA' })
  contract_id: string;

  @ApiProperty({ description: 'FOCUS ContractPeriodStart (UTC).', example: '2025-12-01T00:00:00Z' })
  period_start: string;

  @ApiProperty({ description: 'FOCUS ContractPeriodEnd (UTC, exclusive).', example: '2028-12-01T00:00:00Z' })
  period_end: string;

  @ApiProperty({ type: [ContractCommitmentDto], description: 'Its commitments, by id.' })
  commitments: ContractCommitmentDto[];
}

export class ContractsDto {
  @ApiProperty({ description: 'The last day counted as applied.', example: '2026-11-29' })
  as_of: string;

  @ApiProperty({ description: 'The projection intervals’ level, in percent.', example: 80 })
  level: number;

  @ApiProperty({ description: 'How projections are made.', example: 'least squares: level, linear trend, day of week, first day of month' })
  method: string;

  @ApiProperty({
    type: [ContractDto],
    description: 'The contracts of the latest import of each (FOCUS Contract Commitment dataset), by id.',
  })
  contracts: ContractDto[];
}

export class ContractsResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: () => ContractsDto })
  data: ContractsDto;
}
