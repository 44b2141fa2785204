import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, registerDecorator, ValidationArguments } from 'class-validator';
import { describeType, expected } from '../../common/validation/messages';
import { EXAMPLE_LAST_MONTH } from '../../common/http/swagger-examples';
import { NOT_SET, OPTIONS_FIELDS, OptionsField } from '../../cost-query/dimension-registry';
import { FiltersDto, NestedObject } from '../../cost-query/dto/filters.dto';
import {
  EnrichedOption,
  FilterOptions,
  MAX_OPTIONS_PER_FIELD,
  MAX_TAG_VALUE_KEYS,
  MAX_VALUES_PER_TAG_KEY,
} from '../../cost-query/filter-options.query';

/** Longest `fields` list accepted (there are 13 fields; repeats are harmless but bounded). */
export const MAX_REQUESTED_FIELDS = 100;

/** Every element is one of `allowed`; the message names the first offending element (`fields[2]: …`). */
function IsEachOneOf(allowed: readonly string[]): PropertyDecorator {
  const firstProblem = (values: unknown): string | undefined => {
    if (!Array.isArray(values)) return undefined; // reported by IsArray
    for (const [index, value] of values.entries()) {
      if (typeof value !== 'string') return `[${index}] Expected string, received ${describeType(value)}`;
      if (!allowed.includes(value)) return `[${index}] Expected one of ${allowed.join(', ')}, received "${value}"`;
    }
    return undefined;
  };
  return (target, propertyName) =>
    registerDecorator({
      name: 'isEachOneOf',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: (args: ValidationArguments) => firstProblem(args.value) ?? 'invalid value' },
      validator: { validate: (value: unknown) => firstProblem(value) === undefined },
    });
}

export class AvailableFiltersRequestDto {
  @ApiPropertyOptional({
    enum: OPTIONS_FIELDS,
    isArray: true,
    maxItems: MAX_REQUESTED_FIELDS,
    description:
      'The fields to list. Omitted, null or empty: all of them. Repeats are harmless. Fields not requested come ' +
      'back as empty arrays (and are absent from `enriched`).',
    example: ['services', 'regions', 'accounts', 'resourceTags'],
  })
  // applyDecorators registers the rules in this order, so the first failing one is the one reported.
  @applyDecorators(
    IsOptional(),
    IsArray({ message: expected('array of strings') }),
    ArrayMaxSize(MAX_REQUESTED_FIELDS, { message: `at most ${MAX_REQUESTED_FIELDS} values are allowed` }),
    IsEachOneOf(OPTIONS_FIELDS),
  )
  fields?: OptionsField[] | null;

  @ApiPropertyOptional({
    type: () => FiltersDto,
    description:
      'The current filter selection. Each field’s options are computed with every OTHER active filter applied ' +
      '(inclusions and exclusions); the field’s own inclusion and exclusion are left out.',
    example: { inclusions: { dateRange: EXAMPLE_LAST_MONTH, clouds: ['AWS'] } },
  })
  @NestedObject(() => FiltersDto, false)
  filters?: FiltersDto | null;
}

export class EnrichedOptionDto implements EnrichedOption {
  @ApiProperty({ description: `The option, as in the field's list (\`${NOT_SET}\` for rows without a value).`, example: 'Amazon EC2' })
  value: string;

  @ApiProperty({
    description: 'Sum of amortized cost of the rows with this option, under the filters applied to the field.',
    example: 18250.75,
  })
  amortized_cost: number;

  @ApiPropertyOptional({ description: 'Accounts only: the account name ("" when the billing data has none).', example: 'Production' })
  name?: string;
}

const OPTION_EXAMPLES: Record<OptionsField, string[]> = {
  costLayers: ['Infrastructure', 'Marketplace'],
  clouds: ['AWS', 'Azure', 'GCP'],
  services: ['Amazon EC2', 'Amazon S3'],
  resourceFamilies: ['Compute', 'Storage'],
  regions: ['eu-west-1', 'us-east-1'],
  instanceTypes: [NOT_SET, 'm6i.xlarge'],
  usageTypes: ['BoxUsage:m6i.xlarge'],
  billingPeriods: [EXAMPLE_LAST_MONTH.start.slice(0, 7)],
  costTypes: ['Tax', 'Usage'],
  accounts: ['123456789012'],
  integrations: ['aws-cur-main'],
  resourceTags: ['env', 'team'],
  costCategories: ['Business Unit'],
};

/** The /filters payload. The 13 option lists are declared from the registry below. */
export interface AvailableFiltersDto extends Record<OptionsField, string[]> {}
export class AvailableFiltersDto implements FilterOptions {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'Account ID → account name (the latest non-empty name), for every account in `accounts`. Empty when accounts is not requested.',
    example: { '123456789012': 'Production' },
  })
  accountIdToName: Record<string, string>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description:
      `Tag key → its non-empty values (ascending), under the same filters as \`resourceTags\`. Bounded: the ` +
      `${MAX_TAG_VALUE_KEYS} tag keys with the highest amortized cost, and per key the ${MAX_VALUES_PER_TAG_KEY} ` +
      'values with the highest amortized cost. Empty when resourceTags is not requested.',
    example: { env: ['development', 'production', 'staging'], team: ['data', 'platform'] },
  })
  tagValues: Record<string, string[]>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { $ref: getSchemaPath(EnrichedOptionDto) } },
    description:
      'For each requested field (only those): its options with their amortized cost, highest cost first, then by ' +
      'value; accounts also carry `name`. Lets clients rank options.',
    example: {
      services: [
        { value: 'Amazon EC2', amortized_cost: 18250.75 },
        { value: 'Amazon S3', amortized_cost: 2310.2 },
      ],
      accounts: [{ value: '123456789012', name: 'Production', amortized_cost: 20560.95 }],
    },
  })
  enriched: Partial<Record<OptionsField, EnrichedOption[]>>;
}

for (const field of OPTIONS_FIELDS) {
  ApiProperty({
    type: [String],
    description:
      `Options of \`${field}\`, ascending by Unicode code point; at most ${MAX_OPTIONS_PER_FIELD} (those with the ` +
      'highest amortized cost). [] when not requested.' +
      (field === 'resourceTags' || field === 'costCategories' ? ' Lists keys.' : ` \`${NOT_SET}\` stands for rows without a value.`),
    example: OPTION_EXAMPLES[field],
  })(AvailableFiltersDto.prototype, field);
}

export class AvailableFiltersResponseDto {
  @ApiProperty({ example: true })
  success: true;

  @ApiProperty({ type: () => AvailableFiltersDto })
  data: AvailableFiltersDto;
}
