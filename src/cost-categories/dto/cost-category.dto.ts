import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNumber,
  IsString,
  Length,
  Matches,
  ValidateIf,
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

/**
 * Optional: absent is fine, but a null is checked like any other value (and refused), never taken for absent: in a
 * definition `{"value": null}` would otherwise be a rule that gives nothing.
 */
const OptionalNotNull = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

/** A category value, a tag key or a category key: text a Map holds. */
const VALUE_LENGTH = { min: 1, max: MAX_MAP_KEY_LENGTH };
const BILLING_MONTH = /^(20\d\d|2100)-(0[1-9]|1[0-2])$/;

export class CategoryRuleDto implements CategoryRule {
  @ApiPropertyOptional({ description: 'The value a matching row gets (one of value, inheritTag, inheritCategory).', example: 'Data' })
  @OptionalNotNull()
  @IsString()
  @Length(VALUE_LENGTH.min, VALUE_LENGTH.max)
  value?: string;

  @ApiPropertyOptional({ description: "The row's value of this tag key (rows without it fall through to the next rule).", example: 'team' })
  @OptionalNotNull()
  @IsString()
  @Length(VALUE_LENGTH.min, VALUE_LENGTH.max)
  inheritTag?: string;

  @ApiPropertyOptional({
    description:
      "The row's value of this cost category: imported, or rule-defined and read before this one (rows without it fall through).",
    example: 'Business Unit',
  })
  @OptionalNotNull()
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
  @OptionalNotNull()
  @IsBoolean()
  caseInsensitive?: boolean;
}

export class SplitSourceDto {
  @ApiPropertyOptional({ description: 'A value of the category whose cost is split.', example: 'Shared' })
  @OptionalNotNull()
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
  @OptionalNotNull()
  @IsArray()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { each: true })
  percentages?: number[];
}

export class CostCategoryDefinitionDto implements CostCategoryDefinition {
  @ApiPropertyOptional({
    description: 'The first billing month (yyyy-MM) the version is in effect for; default the current month. Earlier months are rewritten.',
    example: '2026-10',
  })
  @OptionalNotNull()
  @Matches(BILLING_MONTH, { message: 'a billing month, yyyy-MM' })
  effectiveFrom: string;

  @ApiProperty({ description: 'The value of rows no rule matches.', example: 'Unallocated' })
  @IsString()
  @Length(VALUE_LENGTH.min, VALUE_LENGTH.max)
  defaultValue: string;

  @ApiProperty({
    type: () => [CategoryRuleDto],
    description: `Rules in order, first match wins (1 to ${MAX_CATEGORY_RULES}).`,
    example: [
      { value: 'Data', when: { inclusions: { services: ['Amazon RDS'] } } },
      { value: 'Payments', caseInsensitive: true, when: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } } },
      { inheritTag: 'team' },
    ],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CATEGORY_RULES)
  @ValidateNested({ each: true })
  @Type(() => CategoryRuleDto)
  rules: CategoryRuleDto[];

  @ApiPropertyOptional({
    type: () => [CategorySplitDto],
    description: `Shared-cost splits, applied in order (at most ${MAX_CATEGORY_SPLITS}). Checked, but not applied to answers yet: a definition with splits is refused.`,
    example: [],
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_CATEGORY_SPLITS)
  @ValidateNested({ each: true })
  @Type(() => CategorySplitDto)
  splits?: CategorySplitDto[];
}

export class CostCategoryVersionDto {
  @ApiProperty({ description: 'The version, numbered from 1 in the order saved.', example: 2 })
  version: number;

  @ApiProperty({ description: 'The first billing month (yyyy-MM) the version is in effect for.', example: '2026-10' })
  effectiveFrom: string;

  @ApiPropertyOptional({ description: 'Absent for a deletion.', example: 'Unallocated' })
  defaultValue?: string;

  @ApiPropertyOptional({ type: () => [CategoryRuleDto], description: 'Absent for a deletion.' })
  rules?: CategoryRuleDto[];

  @ApiPropertyOptional({ type: () => [CategorySplitDto], description: 'Absent for a deletion.' })
  splits?: CategorySplitDto[];

  @ApiProperty({ description: 'When it was saved (UTC).', example: '2026-11-29T08:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ description: "Who saved it: the admin API key's id, or the email of the person signed in.", example: 'k_3f9a…' })
  createdBy: string;

  @ApiProperty({ description: 'A deletion: the category ended (its versions are kept).', example: false })
  deleted: boolean;
}

export class CostCategoryVersionsDto {
  @ApiProperty({ example: 'BusinessUnit' })
  key: string;

  @ApiProperty({ type: [CostCategoryVersionDto], description: 'Every version, oldest first; none is ever lost.' })
  versions: CostCategoryVersionDto[];
}

export class CostCategorySummaryDto {
  @ApiProperty({ example: 'BusinessUnit' })
  key: string;

  @ApiProperty({ description: 'Its latest version.', example: 3 })
  version: number;

  @ApiProperty({ description: "The latest version's first billing month.", example: '2026-10' })
  effectiveFrom: string;

  @ApiProperty({ example: 'Unallocated' })
  defaultValue: string;

  @ApiProperty({ example: 12 })
  ruleCount: number;

  @ApiProperty({ description: 'When the latest version was saved (UTC).', example: '2026-11-29T08:00:00.000Z' })
  updatedAt: string;
}

export class CostCategoryListDto {
  @ApiProperty({ type: [CostCategorySummaryDto], description: 'The categories defined by rules now (deleted ones absent), by key.' })
  categories: CostCategorySummaryDto[];
}

export class PreviewWindowDto {
  @ApiProperty({ example: '2026-09-01' })
  from: string;

  @ApiProperty({ example: '2026-11-29' })
  to: string;
}

export class PreviewValueDto {
  @ApiProperty({ example: 'Payments' })
  value: string;

  @ApiProperty({ description: 'Amortized cost over the window, in `currency`.', example: 1204.5 })
  amortizedCost: number;

  @ApiProperty({ description: 'Cost rows with this value over the window.', example: 310 })
  rows: number;
}

export class UnallocatedShareDto {
  @ApiProperty({
    description: "Share (0–1, 4 decimals) of the window's amortized cost without an owner today: the default value in effect, or no value.",
    example: 0.4213,
  })
  before: number;

  @ApiProperty({ description: 'The same share once the definition is saved.', example: 0.0712 })
  after: number;
}

export class PreviewChangeDto {
  @ApiProperty({ example: 'Payments' })
  value: string;

  @ApiProperty({ description: 'Amortized cost with this value today, in `currency`.', example: 300 })
  before: number;

  @ApiProperty({ description: 'Once saved.', example: 1204.5 })
  after: number;
}

export class CostCategoryPreviewDto {
  @ApiProperty({ example: 'BusinessUnit' })
  key: string;

  @ApiProperty({ type: () => PreviewWindowDto, description: 'Default: from the first day of the month two months ago to today.' })
  window: PreviewWindowDto;

  @ApiProperty({ description: 'The currency of every amount (the reporting currency when one is set).', example: 'USD' })
  currency: string;

  @ApiProperty({ type: [PreviewValueDto], description: 'Each value the saved definition would give, the costliest first.' })
  values: PreviewValueDto[];

  @ApiProperty({ type: () => UnallocatedShareDto })
  unallocatedShare: UnallocatedShareDto;

  @ApiProperty({ type: [PreviewChangeDto], description: 'The values whose cost would change most (at most 10), the largest change first.' })
  changes: PreviewChangeDto[];
}

export class PreviewQueryDto {
  @ApiPropertyOptional({ description: '`true`: answer a preview and save nothing.', enum: ['true', 'false'] })
  @OptionalNotNull()
  @IsIn(['true', 'false'], { message: 'true or false' })
  dryRun?: string;

  @ApiPropertyOptional({ description: 'With dryRun: the first day of the preview window (yyyy-MM-dd).', example: '2026-09-01' })
  @OptionalNotNull()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'a date, yyyy-MM-dd' })
  from?: string;

  @ApiPropertyOptional({ description: 'With dryRun: the last day of the preview window (yyyy-MM-dd).', example: '2026-11-29' })
  @OptionalNotNull()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'a date, yyyy-MM-dd' })
  to?: string;
}
