import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { describeType, expected } from '../../common/validation/messages';
import { Rule } from '../../common/validation/validators';
import { MAX_MAP_KEY_LENGTH } from '../../cost-query/dimension-registry';
import { MAX_MAP_KEY_VALUES, MAX_SEARCH_LENGTH } from '../../cost-query/filter-options.query';
import { DEMO_ORGANIZATION_ID } from '../../common/examples/examples';
import { encodeValueCursor, MAX_CURSOR_LENGTH } from '../value-cursor';
import type { MapKeyValues } from '../filter-options.service';

/** A required, non-empty map key (tag key or cost category key), taken as plain data. */
function MapKeyField(description: string, example: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ description, example, minLength: 1, maxLength: MAX_MAP_KEY_LENGTH }),
    IsDefined({ message: expected('string') }),
    IsString({ message: expected('string') }),
    MinLength(1, { message: 'must not be empty' }),
    MaxLength(MAX_MAP_KEY_LENGTH, { message: `at most ${MAX_MAP_KEY_LENGTH} characters` }),
  );
}

/** The optional `search` of the discovery routes: a case-insensitive substring, at most MAX_SEARCH_LENGTH characters. */
export function SearchField(description: string, example: string | null): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_SEARCH_LENGTH, description, example }),
    IsOptional(),
    IsString({ message: expected('string') }),
    MaxLength(MAX_SEARCH_LENGTH, { message: `at most ${MAX_SEARCH_LENGTH} characters` }),
  );
}

/** An integer from 1 to MAX_MAP_KEY_VALUES. */
const IsPageLimit = () =>
  Rule('isPageLimit', (value) => {
    if (typeof value !== 'number') return `Expected integer, received ${describeType(value)}`;
    if (!Number.isInteger(value)) return `Expected integer, received ${value}`;
    if (value < 1 || value > MAX_MAP_KEY_VALUES) return `must be from 1 to ${MAX_MAP_KEY_VALUES}, received ${value}`;
    return undefined;
  });

const PAGING =
  'Paging: with `limit` or `cursor` the values come in pages, ascending by Unicode code point; each page but the ' +
  'last carries `nextCursor`. Send the same request with `cursor` set to it for the next page.';

const SEARCH_RULES =
  'Only values that contain this text, case-insensitively (Unicode; `%`, `_` and every other character are literal). ' +
  `Omitted, null or "": every value. At most ${MAX_SEARCH_LENGTH} characters.`;

/** `limit`: the page size. */
function LimitField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      nullable: true,
      minimum: 1,
      maximum: MAX_MAP_KEY_VALUES,
      description:
        `${PAGING} \`limit\` is the page size, 1 to ${MAX_MAP_KEY_VALUES} (with a cursor and no limit: ${MAX_MAP_KEY_VALUES}). ` +
        `Omitted or null without a cursor: the unpaged answer (at most ${MAX_MAP_KEY_VALUES} values, the most expensive, ` +
        'with `truncated: true` when more exist).',
      example: 100,
    }),
    IsOptional(),
    IsPageLimit(),
  );
}

/** `cursor`: the previous page's nextCursor. */
function CursorField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      maxLength: MAX_CURSOR_LENGTH,
      description:
        'The `nextCursor` of the previous page, as it is (opaque). It is valid for the same organisation, key and ' +
        "search only, and only while the organisation's cost data is unchanged since the first page: otherwise 400 " +
        'naming `cursor` (an expired cursor: start again without one). Omitted or null: the first page.',
      example: null,
    }),
    IsOptional(),
    IsString({ message: expected('string') }),
    MinLength(1, { message: 'must not be empty' }),
    MaxLength(MAX_CURSOR_LENGTH, { message: `at most ${MAX_CURSOR_LENGTH} characters` }),
  );
}

export class TagValuesRequestDto {
  @MapKeyField('The resource tag key whose values are wanted (exact, case-sensitive).', 'env')
  tagKey: string;

  @SearchField(SEARCH_RULES, 'prod')
  search?: string | null;

  @LimitField()
  limit?: number | null;

  @CursorField()
  cursor?: string | null;
}

export class CostCategoryValuesRequestDto {
  @MapKeyField('The cost category key whose values are wanted (exact, case-sensitive).', 'Business Unit')
  categoryKey: string;

  @SearchField(SEARCH_RULES, 'plat')
  search?: string | null;

  @LimitField()
  limit?: number | null;

  @CursorField()
  cursor?: string | null;
}

/** What a nextCursor looks like (a real one, of the demo organisation; its data version is made up). */
const EXAMPLE_CURSOR = encodeValueCursor(
  { organizationId: DEMO_ORGANIZATION_ID, dataScope: '', kind: 'tag', key: 'env', search: 'prod' },
  { after: 'prod', dataVersion: '7261939123431029911/' },
);

export class MapKeyValuesDto implements MapKeyValues {
  @ApiProperty({
    type: [String],
    description: 'Distinct non-empty values, ascending by Unicode code point.',
    example: ['development', 'production', 'staging'],
  })
  values: string[];

  @ApiPropertyOptional({
    type: String,
    description:
      'Paged requests only (`limit` or `cursor`), and only when more values follow: pass it as `cursor` for the next ' +
      'page. Absent on the last page.',
    example: EXAMPLE_CURSOR,
  })
  nextCursor?: string;

  @ApiPropertyOptional({
    type: Boolean,
    enum: [true],
    description:
      `Unpaged requests only: present (true) when the key has more than ${MAX_MAP_KEY_VALUES} values (matching the ` +
      'search), so `values` holds only the most expensive ones; page with `limit` to get every value.',
    example: true,
  })
  truncated?: true;
}

export class MapKeyValuesResponseDto {
  @ApiProperty({ example: true })
  success: true;

  @ApiProperty({ type: () => MapKeyValuesDto })
  data: MapKeyValuesDto;
}
