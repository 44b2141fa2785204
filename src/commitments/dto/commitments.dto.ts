import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { EXAMPLE_LAST_MONTH } from '../../common/examples/examples';
import { DATE_GROUPINGS, DateGrouping } from '../../cost-query/date-bucketing';
import { MAX_ELIGIBLE_SERVICES } from '../../cost-query/commitments.query';
import { AnswerCurrency } from '../../dto/currency.dto';
import { DateRangeDto, FiltersDto, NestedObject, StringListField } from '../../dto/filters.dto';
import { IsDateGrouping } from '../../dto/grouping.dto';
import { COMMITMENT_LIMITS } from '../commitment-limits';

export class CommitmentsRequestDto {
  @ApiPropertyOptional({
    type: () => FiltersDto,
    description: `Inclusions and exclusions as /data's (any field: clouds, accounts, tags…), inside the key's data scope. \`inclusions.dateRange\` is the window; default from the first day of the month ${COMMITMENT_LIMITS.defaultPastMonths} months ago to today (UTC).`,
    example: { inclusions: { dateRange: EXAMPLE_LAST_MONTH } },
  })
  @NestedObject(() => FiltersDto, false)
  filters?: FiltersDto;

  @ApiPropertyOptional({
    enum: DATE_GROUPINGS,
    description: 'A `series` per bucket beside the window’s figures (total and per commitment).',
    example: 'monthly',
  })
  @IsOptional()
  @IsDateGrouping()
  dateGrouping?: DateGrouping;

  @StringListField(
    `The services whose usage coverage is measured over (at most ${MAX_ELIGIBLE_SERVICES}); default: those on which a commitment discount applied in the window.`,
    ['Amazon Elastic Compute Cloud'],
  )
  eligibleServices?: string[];

  @AnswerCurrency()
  currency?: string;
}

export class CommitmentFiguresDto {
  @ApiProperty({ description: 'EffectiveCost of the rows of status Used.', example: 7200.5 })
  used_cost: number;

  @ApiProperty({ description: 'EffectiveCost of the rows of status Unused: what was committed and not used.', example: 800 })
  unused_cost: number;

  @ApiProperty({ description: 'used_cost / (used_cost + unused_cost), 6 decimals; 0 without either.', example: 0.900006 })
  utilization: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'List cost of eligible usage a commitment covered / list cost of all eligible usage (usage not of an unused commitment, in `eligible_services`), 6 decimals; 0 without eligible usage. null per commitment (its services are not told apart).',
    example: 0.72,
  })
  coverage: number | null;

  @ApiProperty({ description: 'What the used commitment’s usage would have cost on demand (its list cost).', example: 11000 })
  on_demand_equivalent: number;

  @ApiProperty({
    description:
      'on_demand_equivalent − used_cost − unused_cost: what the commitment saved, its waste counted (negative: it cost more than on demand).',
    example: 2999.5,
  })
  savings: number;

  @ApiProperty({
    description: 'savings / on_demand_equivalent, 6 decimals (as /data’s effective_savings_rate); 0 without on-demand equivalent.',
    example: 0.272682,
  })
  effective_savings_rate: number;
}

export class CommitmentBucketDto extends CommitmentFiguresDto {
  @ApiProperty({ description: 'First day of the bucket (YYYY-MM-DD).', example: '2026-10-01' })
  date: string;
}

export class CommitmentQuantitiesDto {
  @ApiProperty({ description: 'FOCUS CommitmentDiscountUnit.', example: 'Hours' })
  unit: string;

  @ApiProperty({ description: 'CommitmentDiscountQuantity of the rows of status Used.', example: 648 })
  used: number;

  @ApiProperty({ description: 'CommitmentDiscountQuantity of the rows of status Unused.', example: 72 })
  unused: number;

  @ApiProperty({ description: 'used / (used + unused), 6 decimals; 0 without either.', example: 0.9 })
  utilization: number;
}

export class CommitmentDto extends CommitmentFiguresDto {
  @ApiProperty({ example: 'arn:aws:savingsplans::123456789012:savingsplan/sp-1' })
  commitment_discount_id: string;

  @ApiProperty({ example: 'Compute Savings Plan' })
  name: string;

  @ApiProperty({ description: 'FOCUS CommitmentDiscountType.', example: 'Savings Plan' })
  type: string;

  @ApiProperty({ description: 'FOCUS CommitmentDiscountCategory: Spend or Usage.', example: 'Spend' })
  category: string;

  @ApiProperty({ description: 'The cloud.', example: 'AWS' })
  provider: string;

  @ApiProperty({ example: '123456789012' })
  billing_account_id: string;

  @ApiPropertyOptional({
    type: () => CommitmentQuantitiesDto,
    description:
      'A usage-category commitment (category Usage) whose rows give a CommitmentDiscountUnit: its quantities used and unused, in that unit.',
  })
  quantities?: CommitmentQuantitiesDto;

  @ApiPropertyOptional({ type: [CommitmentBucketDto], description: 'With dateGrouping: per bucket with any of its cost.' })
  series?: CommitmentBucketDto[];
}

export class CommitmentsDto {
  @ApiProperty({ type: () => DateRangeDto })
  date_range: DateRangeDto;

  @ApiProperty({ description: 'The currency of every amount.', example: 'USD' })
  currency: string;

  @ApiProperty({
    type: [String],
    description: 'The services coverage is measured over, for usage rows without FOCUS 1.4 CommitmentProgramEligibilityDetails.',
    example: ['Amazon Elastic Compute Cloud'],
  })
  eligible_services: string[];

  @ApiProperty({
    type: [String],
    description:
      'The commitment discount types used in the window: a usage row carrying CommitmentProgramEligibilityDetails (FOCUS 1.4) is eligible when one of its programs (`ProgramType`) is of these types, or a commitment covered it, whatever its service.',
    example: ['Savings Plan'],
  })
  eligible_program_types: string[];

  @ApiProperty({ type: () => CommitmentFiguresDto })
  total: CommitmentFiguresDto;

  @ApiPropertyOptional({
    type: [CommitmentBucketDto],
    description: 'With dateGrouping: the totals per bucket, every bucket of the window.',
  })
  series?: CommitmentBucketDto[];

  @ApiProperty({
    type: [CommitmentDto],
    description: 'Each commitment discount with cost in the window, the largest used_cost + unused_cost first.',
  })
  commitments: CommitmentDto[];
}

export class CommitmentsResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: () => CommitmentsDto })
  data: CommitmentsDto;
}
