import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { expected } from '../../common/validation/messages';
import { MAX_MAP_KEY_LENGTH } from '../../cost-query/dimension-registry';

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

export class TagValuesRequestDto {
  @MapKeyField('The resource tag key whose values are wanted (exact, case-sensitive).', 'env')
  tagKey: string;
}

export class CostCategoryValuesRequestDto {
  @MapKeyField('The cost category key whose values are wanted (exact, case-sensitive).', 'Business Unit')
  categoryKey: string;
}

export class MapKeyValuesDto {
  @ApiProperty({ type: [String], description: 'Distinct non-empty values, ascending by Unicode code point.', example: ['development', 'production', 'staging'] })
  values: string[];
}

export class MapKeyValuesResponseDto {
  @ApiProperty({ example: true })
  success: true;

  @ApiProperty({ type: () => MapKeyValuesDto })
  data: MapKeyValuesDto;
}
