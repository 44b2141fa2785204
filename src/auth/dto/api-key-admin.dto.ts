import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsString, MaxLength } from 'class-validator';
import { keyNameProblem, MAX_KEY_NAME_LENGTH, Scope, SCOPES } from '../../common/http/principal';
import { Rule } from '../../common/validation/validators';
import { expected } from '../../common/validation/messages';
import { DataScopeDto, NestedObject } from '../../dto/filters.dto';

const DATA_SCOPE_EXAMPLE = { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } };

export class CreateApiKeyDto {
  @ApiProperty({
    description: `Who or what uses the key, 1 to ${MAX_KEY_NAME_LENGTH} characters, stored trimmed; not blank, and without control, bidirectional, zero-width or line-separator characters.`,
    example: 'Payments team dashboards',
    maxLength: MAX_KEY_NAME_LENGTH,
  })
  // Rules run from the bottom up and the first failure is reported: the type before the content.
  @Rule('keyName', (value) => (typeof value === 'string' ? keyNameProblem(value) : undefined))
  @MaxLength(MAX_KEY_NAME_LENGTH, { message: `at most ${MAX_KEY_NAME_LENGTH} characters` })
  @IsString({ message: expected('string') })
  @IsDefined({ message: expected('string') })
  name: string;

  @ApiProperty({ enum: SCOPES, isArray: true, description: 'The permissions of the key (at least one).', example: ['cost:read'] })
  @IsIn(SCOPES, { each: true, message: `Expected one of ${SCOPES.join(', ')}` })
  @ArrayMaxSize(SCOPES.length * 4, { message: `at most ${SCOPES.length * 4} entries` })
  @ArrayMinSize(1, { message: 'must list at least one scope' })
  @IsArray({ message: expected('array') })
  @IsDefined({ message: expected('array') })
  scopes: Scope[];

  @ApiPropertyOptional({
    type: () => DataScopeDto,
    description:
      'Optional data scope: Filters without dates (`dateRange`, `billingPeriods` refused). Every answer of the key is confined to the matching rows of the organisation; fixed for the key’s life. Omitted, null or empty: the whole organisation.',
    example: DATA_SCOPE_EXAMPLE,
  })
  @NestedObject(() => DataScopeDto, false)
  dataScope?: DataScopeDto | null;
}

export class ApiKeyDto {
  @ApiProperty({ description: 'The key’s public id (the part after `cik_`).', example: 'Xy12Ab34Cd56' })
  id: string;

  @ApiProperty({ example: 'Payments team dashboards' })
  name: string;

  @ApiProperty({ enum: SCOPES, isArray: true, example: ['cost:read'] })
  scopes: Scope[];

  @ApiProperty({
    type: () => DataScopeDto,
    nullable: true,
    description: 'The data scope; null for the whole organisation.',
    example: DATA_SCOPE_EXAMPLE,
  })
  dataScope: object | null;

  @ApiProperty({ description: 'The data scope in words.', example: 'tag team in (payments)' })
  dataScopeDescription: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-23T09:30:00.000Z' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  revokedAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the key was last used, to about a minute (each instance writes the times once a minute); null if never.',
    example: '2026-11-23T10:05:00.000Z',
  })
  lastUsedAt: string | null;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({
    description: 'The full key. Shown only in this answer: only its SHA-256 is stored, it can never be shown again.',
    example: 'cik_Xy12Ab34Cd56_…',
  })
  key: string;
}

export class CreatedApiKeyResponseDto {
  @ApiProperty({ example: true })
  success: true;

  @ApiProperty({ type: CreatedApiKeyDto })
  data: CreatedApiKeyDto;
}

export class ApiKeyListDto {
  @ApiProperty({
    type: [ApiKeyDto],
    description:
      'A page of the organisation’s keys, oldest first, revoked ones included (`limit`, default and at most API_KEY_LIST_PAGE_SIZE).',
  })
  keys: ApiKeyDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Set when more keys follow: send the same request with `cursor` set to it. Null on the last page.',
    example: null,
  })
  nextCursor: string | null;
}

export class ApiKeyListResponseDto {
  @ApiProperty({ example: true })
  success: true;

  @ApiProperty({ type: ApiKeyListDto })
  data: ApiKeyListDto;
}

export class RevokedApiKeyResponseDto {
  @ApiProperty({ example: true })
  success: true;

  @ApiProperty({ type: ApiKeyDto })
  data: ApiKeyDto;
}
