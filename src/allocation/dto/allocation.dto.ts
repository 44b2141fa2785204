import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { MAX_MAP_KEY_LENGTH } from '../../cost-query/dimension-registry';
import { AnswerCurrency } from '../../dto/currency.dto';
import { DateRangeDto, NestedObject } from '../../dto/filters.dto';
import { ALLOCATION_LIMITS } from '../allocation-limits';
import { EXAMPLE_LAST_MONTH } from '../../common/examples/examples';

export class AllocationRequestDto {
  @ApiProperty({ description: 'The cost category whose owners are measured: defined by rules, or imported.', example: 'Business Unit' })
  @IsString()
  @Length(1, MAX_MAP_KEY_LENGTH)
  category: string;

  @ApiPropertyOptional({
    type: () => DateRangeDto,
    description: `The usage days measured; default from the first day of the month ${ALLOCATION_LIMITS.defaultPastMonths} months ago to today (UTC).`,
    example: EXAMPLE_LAST_MONTH,
  })
  @NestedObject(() => DateRangeDto, false)
  dateRange?: DateRangeDto;

  @AnswerCurrency()
  currency?: string;
}

export class AllocationTotalsDto {
  @ApiProperty({ example: 10250.5 })
  amortized_cost: number;

  @ApiProperty({ description: 'Cost with an owner: a value of the category other than its default.', example: 9100 })
  allocated_cost: number;

  @ApiProperty({ description: 'Cost without one: no value, or the default value.', example: 1150.5 })
  unallocated_cost: number;

  @ApiProperty({ description: 'allocated_cost / amortized_cost, 4 decimals (0 without cost).', example: 0.8878 })
  allocated_share: number;
}

export class AllocationMonthDto extends AllocationTotalsDto {
  @ApiProperty({ description: 'The usage month (yyyy-MM).', example: '2026-10' })
  month: string;
}

export class UnallocatedServiceDto {
  @ApiProperty({ example: 'AWS Support' })
  service: string;

  @ApiProperty({ example: 820.25 })
  unallocated_cost: number;
}

export class UnallocatedAccountDto {
  @ApiProperty({ example: '123456789012' })
  account_id: string;

  @ApiProperty({ example: 640 })
  unallocated_cost: number;
}

export class SplitFlowDto {
  @ApiProperty({ example: 'Shared' })
  source: string;

  @ApiProperty({ example: 'Payments' })
  target: string;

  @ApiProperty({ example: 120.5 })
  amount: number;
}

export class AllocationDto {
  @ApiProperty({ example: 'BusinessUnit' })
  category: string;

  @ApiProperty({ type: () => DateRangeDto })
  date_range: DateRangeDto;

  @ApiProperty({ description: 'The currency of every amount.', example: 'USD' })
  currency: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The rule-defined category's default value (its latest version's), counted as unallocated; null for an imported category.",
    example: 'Unallocated',
  })
  default_value: string | null;

  @ApiProperty({ type: () => AllocationTotalsDto })
  total: AllocationTotalsDto;

  @ApiProperty({ type: [AllocationMonthDto], description: 'Per usage month with cost, ascending.' })
  months: AllocationMonthDto[];

  @ApiProperty({
    type: [UnallocatedServiceDto],
    description: `The services with the most unallocated cost (at most ${ALLOCATION_LIMITS.largest}), the largest first.`,
  })
  unallocated_services: UnallocatedServiceDto[];

  @ApiProperty({
    type: [UnallocatedAccountDto],
    description: `The accounts with the most unallocated cost (at most ${ALLOCATION_LIMITS.largest}), the largest first.`,
  })
  unallocated_accounts: UnallocatedAccountDto[];

  @ApiProperty({
    type: [SplitFlowDto],
    description:
      'Amortized cost moved by shared-cost splits from a value to another (source → target) over the window, the largest first; empty without splits.',
  })
  split_flows: SplitFlowDto[];
}

export class AllocationResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: () => AllocationDto })
  data: AllocationDto;
}
