import { ApiHideProperty, ApiProperty, ApiPropertyOptional, ApiSchema, OmitType } from '@nestjs/swagger';
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
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { expected } from '../common/validation/messages';
import { IsBillingPeriod, IsCalendarDate, IsStartNotAfterEnd, Rule, SUPPORTED_DATES_TEXT } from '../common/validation/validators';
import { MAX_MAP_KEY_LENGTH, NOT_SET } from '../cost-query/dimension-registry';
import { DATE_FIELDS, FILTER_FIELD_ENTRIES, FilterFieldDefinition, FilterFieldName, MAP_DIMENSIONS } from '../cost-query/filter-fields';
import { DateRange, FilterFields, Filters } from '../cost-query/filters.types';

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
  @ApiProperty({
    description: `First day, included. YYYY-MM-DD, a real calendar date ${SUPPORTED_DATES_TEXT} (other dates are a 400).`,
    example: '2026-10-01',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  })
  @IsDefined({ message: expected('string') })
  @IsCalendarDate()
  start: string;

  @ApiProperty({
    description: `Last day, included; on or after start, ${SUPPORTED_DATES_TEXT}.`,
    example: '2026-10-31',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  })
  @IsDefined({ message: expected('string') })
  @IsCalendarDate()
  @IsStartNotAfterEnd()
  end: string;
}

/** The spec's FilterFields, every field declared from the field table (filter-fields.ts) below. */
export interface FilterFieldsDto extends FilterFields {}
export class FilterFieldsDto {}

/**
 * Each field's Swagger and validation, by kind, listed in the order the rules are registered and so
 * checked: the first failing rule is the one a 400 reports.
 */
function filterFieldDecorators(name: FilterFieldName, field: FilterFieldDefinition): PropertyDecorator {
  switch (field.kind) {
    case 'list':
      if (!field.billingPeriods) return StringListField(field.label, field.example);
      return applyDecorators(
        IsBillingPeriod(),
        ArrayMaxSize(MAX_FILTER_VALUES, { message: `at most ${MAX_FILTER_VALUES} values are allowed` }),
        IsArray({ message: expected('array of strings') }),
        IsOptional(),
        ApiPropertyOptional({
          type: [String],
          description: `Billing periods in yyyy-MM format (legacy; dateRange is preferred), months of the supported dates (${SUPPORTED_DATES_TEXT}). In inclusions without a dateRange they replace the default date window.`,
          example: field.example,
          maxItems: MAX_FILTER_VALUES,
        }),
      );
    case 'dateRange':
      return applyDecorators(
        NestedObject(() => DateRangeDto, false),
        ApiPropertyOptional({
          type: () => DateRangeDto,
          description:
            'Date interval, both ends included. In inclusions it sets the query window; without it (and without billingPeriods) the default window is the last DEFAULT_WINDOW_DAYS days up to today (UTC). In exclusions it removes those days.',
        }),
      );
    case 'mapKey':
      return applyDecorators(
        MaxLength(MAX_MAP_KEY_LENGTH, { message: `at most ${MAX_MAP_KEY_LENGTH} characters` }),
        MinLength(1, { message: 'must not be empty' }),
        IsString({ message: expected('string') }),
        IsOptional(),
        ApiPropertyOptional({ type: String, description: field.description, example: field.example }),
      );
    case 'mapValues': {
      const keyField = MAP_DIMENSIONS[field.map].keyField;
      return applyDecorators(
        IsDefinedSibling(keyField),
        ValidateIf((o: FilterFieldsDto) => o[name] !== undefined),
        StringListField(`${field.label.replace(/\.$/, '')} (requires ${keyField}).`, field.example),
      );
    }
    default:
      return assertNever(field);
  }
}

for (const [name, field] of FILTER_FIELD_ENTRIES) {
  // As a declared property would, so Swagger and class-transformer see the field's type.
  Reflect.defineMetadata(
    'design:type',
    field.kind === 'dateRange' ? DateRangeDto : field.kind === 'mapKey' ? String : Array,
    FilterFieldsDto.prototype,
    name,
  );
  filterFieldDecorators(name, field)(FilterFieldsDto.prototype, name);
}

/** FilterFields without the date fields, which are refused with `refusal` and hidden from Swagger. */
function filterFieldsWithoutDates(refusal: string) {
  class WithoutDates extends OmitType(FilterFieldsDto, DATE_FIELDS) {}
  for (const name of DATE_FIELDS) {
    ApiHideProperty()(WithoutDates.prototype, name);
    IsEmpty({ message: refusal })(WithoutDates.prototype, name);
  }
  return WithoutDates;
}

/** FilterFields for /compare: the periods are explicit, so the date fields (dateRange, billingPeriods) are refused. */
export class CompareFilterFieldsDto extends filterFieldsWithoutDates(
  'not allowed in /compare: baselinePeriod and comparisonPeriod set the dates',
) {}

/** FilterFields of a key's data scope (dto/data-scope.dto.ts): a slice of the organisation, never a date window. */
export class DataScopeFieldsDto extends filterFieldsWithoutDates(
  "not allowed in a data scope: a key's scope is a slice of the organisation, over all dates",
) {}

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

/** FilterFields for /anomalies: the top-level dateRange sets the days scanned. */
export class AnomalyFilterFieldsDto extends filterFieldsWithoutDates(
  'not allowed in /anomalies filters: the top-level dateRange sets the days scanned',
) {}

export class AnomalyFiltersDto implements Filters {
  @ApiPropertyOptional({ type: () => AnomalyFilterFieldsDto })
  @NestedObject(() => AnomalyFilterFieldsDto, false)
  inclusions?: AnomalyFilterFieldsDto;

  @ApiPropertyOptional({ type: () => AnomalyFilterFieldsDto })
  @NestedObject(() => AnomalyFilterFieldsDto, false)
  exclusions?: AnomalyFilterFieldsDto;
}

/** FilterFields for /forecast: forecastEnd sets the end, and the model reads the history it needs. */
export class ForecastFilterFieldsDto extends filterFieldsWithoutDates(
  'not allowed in /forecast filters: forecastEnd sets the end, and the model reads the history it needs',
) {}

export class ForecastFiltersDto implements Filters {
  @ApiPropertyOptional({ type: () => ForecastFilterFieldsDto })
  @NestedObject(() => ForecastFilterFieldsDto, false)
  inclusions?: ForecastFilterFieldsDto;

  @ApiPropertyOptional({ type: () => ForecastFilterFieldsDto })
  @NestedObject(() => ForecastFilterFieldsDto, false)
  exclusions?: ForecastFilterFieldsDto;
}

/** FilterFields of an allocation rule's condition: rows of every date (the version's effectiveFrom sets the months). */
export class RuleConditionFieldsDto extends filterFieldsWithoutDates(
  "not allowed in a rule's condition: a rule applies to rows of every date, its version's effectiveFrom sets the months",
) {}

/** The rows an allocation rule or split applies to: Filters without dates. */
@ApiSchema({ name: 'RuleCondition' })
export class RuleConditionDto implements Filters {
  @ApiPropertyOptional({ type: () => RuleConditionFieldsDto, description: 'The rule applies to rows matching these fields.' })
  @NestedObject(() => RuleConditionFieldsDto, false)
  inclusions?: RuleConditionFieldsDto;

  @ApiPropertyOptional({ type: () => RuleConditionFieldsDto, description: 'The rule never applies to rows matching any of these.' })
  @NestedObject(() => RuleConditionFieldsDto, false)
  exclusions?: RuleConditionFieldsDto;
}

/**
 * Values are only meaningful together with their key `sibling` (e.g. resourceTagValues with resourceTag).
 * An empty list is ignored like every empty filter list, so `{resourceTag: null, resourceTagValues: []}`
 * (how a shared-filter read spells "unset") stays valid.
 */
function IsDefinedSibling(sibling: string): PropertyDecorator {
  return Rule('isDefinedSibling', (value, fields) =>
    (Array.isArray(value) && value.length === 0) || fields[sibling] != null ? undefined : `requires ${sibling}`,
  );
}

function assertNever(value: never): never {
  throw new Error(`Unhandled filter field: ${JSON.stringify(value)}`);
}

/** A key's data scope: Filters without dates (see DataScopeFieldsDto). */
@ApiSchema({
  name: 'DataScope',
  description: 'Filters without dates: the rows of the organisation a key may see. Fields AND, values OR; exclusions remove.',
})
export class DataScopeDto implements Filters {
  @ApiPropertyOptional({ type: () => DataScopeFieldsDto, description: 'The key sees only rows matching these fields.' })
  @NestedObject(() => DataScopeFieldsDto, false)
  inclusions?: DataScopeFieldsDto;

  @ApiPropertyOptional({ type: () => DataScopeFieldsDto, description: 'The key never sees rows matching any of these.' })
  @NestedObject(() => DataScopeFieldsDto, false)
  exclusions?: DataScopeFieldsDto;
}

/** FilterFields of a budget: the rows it follows, over every period (its `period` sets the dates). */
export class BudgetFilterFieldsDto extends filterFieldsWithoutDates(
  'not allowed in a budget’s filters: its period sets the dates, and it follows them period after period',
) {}

/** The rows a budget follows: Filters without dates. */
@ApiSchema({ name: 'BudgetFilters' })
export class BudgetFiltersDto implements Filters {
  @ApiPropertyOptional({ type: () => BudgetFilterFieldsDto, description: 'The budget counts only rows matching these fields.' })
  @NestedObject(() => BudgetFilterFieldsDto, false)
  inclusions?: BudgetFilterFieldsDto;

  @ApiPropertyOptional({ type: () => BudgetFilterFieldsDto, description: 'The budget never counts rows matching any of these.' })
  @NestedObject(() => BudgetFilterFieldsDto, false)
  exclusions?: BudgetFilterFieldsDto;
}
