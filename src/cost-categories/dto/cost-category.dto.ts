import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { MAX_MAP_KEY_LENGTH } from '../../cost-query/dimension-registry';
import {
  CategorySplitDefinition,
  CostCategoryDefinition,
  MAX_CATEGORY_RULES,
  MAX_CATEGORY_SPLITS,
  MAX_SPLIT_TARGETS,
  SPLIT_METHODS,
} from '../../cost-query/cost-category-definition';
import type { CategoryRule } from '../../cost-query/cost-category-rules';
import type { SplitMethod } from '../../cost-query/cost-splits';
import { NestedObject, RuleConditionDto } from '../../dto/filters.dto';

/** A category value, a tag key or a category key: text a Map holds. */
const VALUE_LENGTH = { min: 1, max: MAX_MAP_KEY_LENGTH };
const BILLING_MONTH = /^(20\d\d|2100)-(0[1-9]|1[0-2])$/;

export class CategoryRuleDto implements CategoryRule {
  @ApiPropertyOptional({ description: 'The value a matching row gets (one of value, inheritTag, inheritCategory).', example: 'Data' })
  @IsOptional()
  @IsString()
  @Length(VALUE_LENGTH.min, VALUE_LENGTH.max)
  value?: string;

  @ApiPropertyOptional({ description: "The row's value of this tag key (rows without it fall through to the next rule).", example: 'team' })
  @IsOptional()
  @IsString()
  @Length(VALUE_LENGTH.min, VALUE_LENGTH.max)
  inheritTag?: string;

  @ApiPropertyOptional({
    description:
      "The row's value of this cost category: imported, or rule-defined and read before this one (rows without it fall through).",
    example: 'Business Unit',
  })
  @IsOptional()
  @IsString()
  @Length(VALUE_LENGTH.min, VALUE_LENGTH.max)
  inheritCategory?: string;

  @ApiPropertyOptional({
    type: () => RuleConditionDto,
    description: 'The rows the rule applies to (Filters without dates); absent: every row.',
    example: { inclusions: { services: ['Amazon RDS'] } },
  })
  @NestedObject(() => RuleConditionDto, false)
  when?: RuleConditionDto;

  @ApiPropertyOptional({ description: 'Tag values of `when` compared without case (Payments = payments = PAYMENTS).', default: false })
  @IsOptional()
  @IsBoolean()
  caseInsensitive?: boolean;
}

export class SplitSourceDto {
  @ApiPropertyOptional({ description: 'A value of the category whose cost is split.', example: 'Shared' })
  @IsOptional()
  @IsString()
  @Length(VALUE_LENGTH.min, VALUE_LENGTH.max)
  value?: string;

  @ApiPropertyOptional({
    type: () => RuleConditionDto,
    description: 'Or the rows a filter selects (e.g. a support charge), whatever value the rules gave them.',
    example: { inclusions: { services: ['AWS Support'] } },
  })
  @NestedObject(() => RuleConditionDto, false)
  filters?: RuleConditionDto;
}

export class CategorySplitDto implements CategorySplitDefinition {
  @ApiProperty({ type: () => SplitSourceDto })
  @NestedObject(() => SplitSourceDto, true)
  source: SplitSourceDto;

  @ApiProperty({ description: 'Values of the category the cost moves to.', example: ['Data', 'Payments'], maxItems: MAX_SPLIT_TARGETS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SPLIT_TARGETS)
  @IsString({ each: true })
  @Length(VALUE_LENGTH.min, VALUE_LENGTH.max, { each: true })
  targets: string[];

  @ApiProperty({
    enum: SPLIT_METHODS,
    description:
      "`proportional`: to each target's own amortized cost that day and currency (before splits); `fixed`: by `percentages`; `even`: equal parts.",
  })
  @IsIn(SPLIT_METHODS as string[])
  method: SplitMethod;

  @ApiPropertyOptional({ description: '`fixed`: each target’s percentage, in the targets’ order, summing to 100.', example: [60, 40] })
  @IsOptional()
  @IsArray()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { each: true })
  percentages?: number[];
}

export class CostCategoryDefinitionDto implements CostCategoryDefinition {
  @ApiPropertyOptional({
    description: 'The first billing month (yyyy-MM) the version is in effect for; default the current month. Earlier months are rewritten.',
    example: '2026-10',
  })
  @IsOptional()
  @Matches(BILLING_MONTH, { message: 'effectiveFrom: a billing month, yyyy-MM' })
  effectiveFrom: string;

  @ApiProperty({ description: 'The value of rows no rule matches.', example: 'Unallocated' })
  @IsString()
  @Length(VALUE_LENGTH.min, VALUE_LENGTH.max)
  defaultValue: string;

  @ApiProperty({ type: () => [CategoryRuleDto], description: `Rules in order, first match wins (1 to ${MAX_CATEGORY_RULES}).` })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CATEGORY_RULES)
  @ValidateNested({ each: true })
  @Type(() => CategoryRuleDto)
  rules: CategoryRuleDto[];

  @ApiPropertyOptional({
    type: () => [CategorySplitDto],
    description: `Shared-cost splits, applied in order (at most ${MAX_CATEGORY_SPLITS}).`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_CATEGORY_SPLITS)
  @ValidateNested({ each: true })
  @Type(() => CategorySplitDto)
  splits?: CategorySplitDto[];
}
