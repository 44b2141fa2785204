import { AnswerCurrency } from '../../dto/currency.dto';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional } from 'class-validator';
import { Rule } from '../../common/validation/validators';
import { describeType, expected } from '../../common/validation/messages';
import { EXAMPLE_LAST_MONTH } from '../../common/examples/examples';
import { LIST_FIELDS, MAP_DIMENSIONS } from '../../cost-query/filter-fields';
import { NOT_SET, OPTIONS_FIELDS, OptionsField } from '../../cost-query/dimension-registry';
import { FiltersDto, NestedObject } from '../../dto/filters.dto';
import {
  EnrichedOption,
  FilterOptions,
  MAX_OPTIONS_PER_FIELD,
  MAX_SEARCH_LENGTH,
  MAX_TAG_VALUE_KEYS,
  MAX_VALUES_PER_TAG_KEY,
  TAG_VALUES_ROW,
  TruncatableList,
} from '../../cost-query/filter-options.query';
import { SearchField } from './map-key-values.dto';

/** Longest `fields` list accepted (one entry per field, repeats harmless but bounded). */
export const MAX_REQUESTED_FIELDS = 100;

/** Every element is one of `allowed`; the message names the first offending element (`fields[2]: …`). */
function IsEachOneOf(allowed: readonly string[]): PropertyDecorator {
  return Rule('isEachOneOf', (values) => {
    if (!Array.isArray(values)) return undefined; // reported by IsArray
    for (const [index, value] of values.entries()) {
      if (typeof value !== 'string') return `[${index}] Expected string, received ${describeType(value)}`;
      if (!allowed.includes(value)) return `[${index}] Expected one of ${allowed.join(', ')}, received "${value}"`;
    }
    return undefined;
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

  @SearchField(
    'Lists only the options that contain this text, case-insensitively (Unicode; `%`, `_` and every other character ' +
      `are literal), in every requested field and its \`enriched\` entry: an account by its ID or its name, ` +
      `\`${NOT_SET}\` as written, \`resourceTags\` and \`costCategories\` by the key; \`tagValues\` then holds the ` +
      'values of the matching tag keys. The bounds apply to the matching options, so a search reaches options a ' +
      `bound cut. Omitted, null or "": every option. At most ${MAX_SEARCH_LENGTH} characters.`,
    null,
  )
  search?: string | null;

  @AnswerCurrency()
  currency?: string;
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

const OPTION_EXAMPLES = Object.fromEntries([
  ...LIST_FIELDS.map((field) => [field.options, field.optionsExample]),
  ...Object.values(MAP_DIMENSIONS).map((map) => [map.optionsField, map.optionsExample]),
]) as Record<OptionsField, readonly string[]>;

/** The /filters payload. The option lists are declared from the registry below. */
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
      `Tag key → its non-empty values (ascending), under the same filters as \`resourceTags\` (with \`search\`: the ` +
      `keys that match it). Bounded: the ${MAX_TAG_VALUE_KEYS} tag keys with the highest amortized cost (\`truncated\` ` +
      `names \`tagValues\` when there are more), and per key the ${MAX_VALUES_PER_TAG_KEY} values with the highest ` +
      'amortized cost (`truncatedTagValues` names the keys that have more). Empty when resourceTags is not requested.',
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

  @ApiPropertyOptional({
    type: [String],
    enum: [...OPTIONS_FIELDS, TAG_VALUES_ROW],
    description:
      `Present only when a bound cut a list: the lists that hold fewer options than exist (matching the search). A ` +
      `field had more than ${MAX_OPTIONS_PER_FIELD} options (its list and its \`enriched\` entry keep the most ` +
      `expensive ones); \`${TAG_VALUES_ROW}\`: there are more than ${MAX_TAG_VALUE_KEYS} tag keys (it covers the most ` +
      'expensive ones). Fields first, in response order. Narrow with `search` or filters to see the rest.',
    example: ['services', TAG_VALUES_ROW],
  })
  truncated?: TruncatableList[];

  @ApiPropertyOptional({
    type: [String],
    description:
      `Present only when some \`tagValues\` key has more than ${MAX_VALUES_PER_TAG_KEY} values: those keys, ascending ` +
      '(each lists its most expensive values). POST /tag-values lists, and pages through, all of a key’s values.',
    example: ['application'],
  })
  truncatedTagValues?: string[];

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date',
    description:
      "Extension: the last usage date (YYYY-MM-DD, UTC) with cost data for the API key's organisation, whatever the filters (as the X-Data-Through header); null without data.",
    example: '2026-11-22',
  })
  dataThrough: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description:
      "Extension: when the organisation's latest cost rows were written, ISO 8601 UTC to the second (as the X-Data-Imported-At header); null without data.",
    example: '2026-11-23T06:00:12Z',
  })
  dataImportedAt: string | null;

  @ApiProperty({
    description:
      "Extension: the ISO 4217 currency of `enriched`'s amortized costs and of the ranking that bounds the lists (as the X-Currency header): the request's `currency`, else the organisation's reporting currency.",
    example: 'USD',
  })
  currency: string;
}

const MAP_OPTIONS_FIELDS = new Set<string>(Object.values(MAP_DIMENSIONS).map((map) => map.optionsField));
for (const field of OPTIONS_FIELDS) {
  ApiProperty({
    type: [String],
    description:
      `Options of \`${field}\`, ascending by Unicode code point; at most ${MAX_OPTIONS_PER_FIELD} (those with the ` +
      'highest amortized cost; `truncated` names the field when more exist). [] when not requested.' +
      (MAP_OPTIONS_FIELDS.has(field) ? ' Lists keys.' : ` \`${NOT_SET}\` stands for rows without a value.`),
    example: OPTION_EXAMPLES[field],
  })(AvailableFiltersDto.prototype, field);
}

export class AvailableFiltersResponseDto {
  @ApiProperty({ example: true })
  success: true;

  @ApiProperty({ type: () => AvailableFiltersDto })
  data: AvailableFiltersDto;
}
