import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, Length } from 'class-validator';
import { MAX_MAP_KEY_LENGTH } from '../../cost-query/dimension-registry';
import { MAP_DIMENSIONS } from '../../cost-query/filter-fields';
import { MAX_ACTIVATED_KEYS } from '../activated-keys-limit';
import { PRESENCE_DAYS } from '../../cost-query/key-presence.query';
import {
  PER_RESOURCE_MIN_VALUES,
  PER_RESOURCE_VALUE_SHARE,
  SUGGESTED_COST_SHARE,
  SUGGESTED_MAX_VALUES,
} from '../../store/repositories/tag-keys.repository';

const KINDS = Object.keys(MAP_DIMENSIONS);

export class ActivatedKeysDto {
  @ApiProperty({ description: 'Resource tag keys to answer at column speed.', example: ['team', 'env'], maxItems: MAX_ACTIVATED_KEYS })
  @IsArray()
  @ArrayMaxSize(MAX_ACTIVATED_KEYS)
  @IsString({ each: true })
  @Length(1, MAX_MAP_KEY_LENGTH, { each: true })
  tag: string[];

  @ApiProperty({ description: 'Cost category keys to answer at column speed.', example: ['Business Unit'], maxItems: MAX_ACTIVATED_KEYS })
  @IsArray()
  @ArrayMaxSize(MAX_ACTIVATED_KEYS)
  @IsString({ each: true })
  @Length(1, MAX_MAP_KEY_LENGTH, { each: true })
  costCategory: string[];
}

export class KeyActivationDto {
  @ApiProperty({ enum: KINDS, example: 'tag' })
  kind: string;

  @ApiProperty({ example: 'team' })
  key: string;

  @ApiProperty({
    enum: ['backfilling', 'active'],
    description:
      '`backfilling`: written by every new row while the existing ones are rewritten; questions still read the full maps. `active`: questions naming only active keys read the activated columns.',
  })
  state: string;

  @ApiProperty({ description: 'When the state was set (UTC).', example: '2026-11-26 16:40:00.000000' })
  updatedAt: string;
}

export class KeyPresenceDto {
  @ApiProperty({ enum: KINDS, example: 'tag' })
  kind: string;

  @ApiProperty({ example: 'team' })
  key: string;

  @ApiProperty({
    description: `Share of the organisation's amortized cost over its latest ${PRESENCE_DAYS} days of data (up to its last usage date) on rows carrying the key (0–1).`,
    example: 0.93,
  })
  costShare: number;

  @ApiProperty({ description: `Distinct values of the key over those ${PRESENCE_DAYS} days.`, example: 40 })
  distinctValues: number;

  @ApiProperty({
    description: 'Resources (FOCUS ResourceId) whose rows carry the key over those days; 0 when the rows name none.',
    example: 2000,
  })
  resources: number;

  @ApiProperty({
    description:
      `On at least ${SUGGESTED_COST_SHARE * 100} % of the cost with at most ${SUGGESTED_MAX_VALUES.toLocaleString('en-US')} values, and not naming each resource ` +
      `(values more than ${PER_RESOURCE_VALUE_SHARE * 100} % of the resources carrying the key, from ${PER_RESOURCE_MIN_VALUES} values on): worth activating.`,
    example: true,
  })
  suggested: boolean;
}

export class TagKeysDto {
  @ApiProperty({ type: [KeyActivationDto], description: 'Keys activated (back-filling or active).' })
  activated: KeyActivationDto[];

  @ApiProperty({
    type: [KeyPresenceDto],
    description: `Keys present in the organisation's latest ${PRESENCE_DAYS} days of data, by share of cost (at most 1,000).`,
  })
  present: KeyPresenceDto[];
}

export class TagKeysResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: TagKeysDto })
  data: TagKeysDto;
}
