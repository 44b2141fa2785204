import { ApiHideProperty, ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  registerDecorator,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { expected } from '../../common/validation/messages';
import { IsBillingPeriod, IsCalendarDate, IsStartNotAfterEnd } from '../../common/validation/validators';
import { MAX_MAP_KEY_LENGTH, NOT_SET } from '../dimension-registry';
import { DateRange, FilterFields, Filters } from '../filters.types';

/** Longest list a filter field accepts, and longest value in it. */
export const MAX_FILTER_VALUES = 1000;
export const MAX_FILTER_VALUE_LENGTH = 512;

/** An optional array of strings, bounded in length. */
export function StringListField(description: string, example: string[]): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: [String],
      description: `${description} Values OR together; an empty array is ignored. \`${NOT_SET}\` matches rows without a value.`,
      example,
      maxItems: MAX_FILTER_VALUES,
    }),
    IsOptional(),
    IsArray({ message: expected('array of strings') }),
    ArrayMaxSize(MAX_FILTER_VALUES, { message: `at most ${MAX_FILTER_VALUES} values are allowed` }),
    IsString({ each: true, message: expected('string') }),
    MaxLength(MAX_FILTER_VALUE_LENGTH, { each: true, message: `values are at most ${MAX_FILTER_VALUE_LENGTH} characters` }),
  );
}

/** A required nested object, reported as "Expected object, received …" when absent or of another type. */
export function NestedObject(type: () => new () => object, required: boolean): PropertyDecorator {
  return applyDecorators(
    required ? IsDefined({ message: expected('object') }) : IsOptional(),
    IsObject({ message: expected('object') }),
    ValidateNested(),
    Type(type),
  );
}

export class DateRangeDto implements DateRange {
  @ApiProperty({ description: 'First day, included. YYYY-MM-DD, a real calendar date.', example: '2026-10-01', pattern: '^\\d{4}-\\d{2}-\\d{2}$' })
  @IsDefined({ message: expected('string') })
  @IsCalendarDate()
  start: string;

  @ApiProperty({ description: 'Last day, included; on or after start.', example: '2026-10-31', pattern: '^\\d{4}-\\d{2}-\\d{2}$' })
  @IsDefined({ message: expected('string') })
  @IsCalendarDate()
  @IsStartNotAfterEnd()
  end: string;
}

export class FilterFieldsDto implements FilterFields {
  @StringListField('Cost layer names.', ['Infrastructure'])
  costLayers?: string[];

  @StringListField('Cloud provider names.', ['AWS', 'Azure'])
  clouds?: string[];

  @StringListField('Cloud service names.', ['Amazon EC2'])
  services?: string[];

  @StringListField('Resource family names.', ['Compute'])
  resourceFamilies?: string[];

  @StringListField('Cloud region codes.', ['us-east-1'])
  regions?: string[];

  @StringListField('Instance type identifiers.', ['m6i.xlarge'])
  instanceTypes?: string[];

  @StringListField('Usage type identifiers.', ['BoxUsage:m6i.xlarge'])
  usageTypes?: string[];

  @ApiPropertyOptional({
    type: [String],
    description:
      'Billing periods in yyyy-MM format (legacy; dateRange is preferred). In inclusions without a dateRange they replace the default date window.',
    example: ['2026-10'],
    maxItems: MAX_FILTER_VALUES,
  })
  @IsOptional()
  @IsArray({ message: expected('array of strings') })
  @ArrayMaxSize(MAX_FILTER_VALUES, { message: `at most ${MAX_FILTER_VALUES} values are allowed` })
  @IsBillingPeriod()
  billingPeriods?: string[];

  @ApiPropertyOptional({
    type: () => DateRangeDto,
    description:
      'Date interval, both ends included. In inclusions it sets the query window; without it (and without billingPeriods) the default window is the last DEFAULT_WINDOW_DAYS days up to today (UTC). In exclusions it removes those days.',
  })
  @NestedObject(() => DateRangeDto, false)
  dateRange?: DateRangeDto;

  @StringListField('Cost type identifiers.', ['Usage'])
  costTypes?: string[];

  @StringListField('Cloud account IDs.', ['123456789012'])
  accountIds?: string[];

  @StringListField('Integration IDs.', ['aws-cur-main'])
  integrationIds?: string[];

  @ApiPropertyOptional({
    description:
      'One resource tag key. With resourceTagValues: rows whose tag has one of those values. Alone: rows that have the tag (in exclusions: rows that lack it).',
    example: 'env',
  })
  @IsOptional()
  @IsString({ message: expected('string') })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(MAX_MAP_KEY_LENGTH, { message: `at most ${MAX_MAP_KEY_LENGTH} characters` })
  resourceTag?: string;

  @StringListField('Values of resourceTag (requires resourceTag).', ['production'])
  @ValidateIf((o: FilterFieldsDto) => o.resourceTagValues !== undefined)
  @IsDefinedSibling('resourceTag')
  resourceTagValues?: string[];

  @ApiPropertyOptional({
    description:
      'One cost category key. With costCategoryValues: rows in one of those values. Alone: rows that have the category (in exclusions: rows that lack it).',
    example: 'Business Unit',
  })
  @IsOptional()
  @IsString({ message: expected('string') })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(MAX_MAP_KEY_LENGTH, { message: `at most ${MAX_MAP_KEY_LENGTH} characters` })
  costCategory?: string;

  @StringListField('Values of costCategory (requires costCategory).', ['Platform'])
  @ValidateIf((o: FilterFieldsDto) => o.costCategoryValues !== undefined)
  @IsDefinedSibling('costCategory')
  costCategoryValues?: string[];
}

/** FilterFields for /compare: the periods are explicit, so dateRange and billingPeriods are refused. */
export class CompareFilterFieldsDto extends OmitType(FilterFieldsDto, ['dateRange', 'billingPeriods'] as const) {
  @ApiHideProperty()
  @IsEmpty({ message: 'not allowed in /compare: baselinePeriod and comparisonPeriod set the dates' })
  dateRange?: never;

  @ApiHideProperty()
  @IsEmpty({ message: 'not allowed in /compare: baselinePeriod and comparisonPeriod set the dates' })
  billingPeriods?: never;
}

export class FiltersDto implements Filters {
  @ApiPropertyOptional({ type: () => FilterFieldsDto, description: 'Narrows results to matching data: fields AND, values OR.' })
  @NestedObject(() => FilterFieldsDto, false)
  inclusions?: FilterFieldsDto;

  @ApiPropertyOptional({
    type: () => FilterFieldsDto,
    description: 'Removes matching data: a row matching any value of any exclusion field is removed.',
  })
  @NestedObject(() => FilterFieldsDto, false)
  exclusions?: FilterFieldsDto;
}

export class CompareFiltersDto implements Filters {
  @ApiPropertyOptional({ type: () => CompareFilterFieldsDto })
  @NestedObject(() => CompareFilterFieldsDto, false)
  inclusions?: CompareFilterFieldsDto;

  @ApiPropertyOptional({ type: () => CompareFilterFieldsDto })
  @NestedObject(() => CompareFilterFieldsDto, false)
  exclusions?: CompareFilterFieldsDto;
}


/**
 * Values are only meaningful together with their key `sibling` (e.g. resourceTagValues with resourceTag).
 * An empty list is ignored like every empty filter list, so `{resourceTag: null, resourceTagValues: []}`
 * (how a shared-filter read spells "unset") stays valid.
 */
function IsDefinedSibling(sibling: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDefinedSibling',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `requires ${sibling}` },
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          (Array.isArray(value) && value.length === 0) || (args.object as Record<string, unknown>)[sibling] != null,
      },
    });
}
