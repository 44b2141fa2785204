import { ApiProperty } from '@nestjs/swagger';
import { DATE_GROUPINGS, DateGrouping } from '../../cost-query/date-bucketing';
import { DateRangeDto } from '../../dto/filters.dto';
import { COMPARE_METRICS, CompareMetric } from '../../cost-query/cost-metrics';
import { FILTER_ID_EXAMPLE, FILTER_ID_FORMAT_DESCRIPTION } from '../filter-id';
import { CompleteFilterFields, FILTER_FIELD_ENTRIES } from '../../cost-query/filter-fields';
import { SharedFilterConfiguration } from '../../store/shared-filters/shared-filter-configuration';

/** FilterFields as a read returns it: every field present, lists [] and the others null when unset (from the field table). */
export interface CompleteFilterFieldsDto extends CompleteFilterFields {}
export class CompleteFilterFieldsDto {}

for (const [name, field] of FILTER_FIELD_ENTRIES) {
  const list = (label: string, example: readonly string[]) =>
    ApiProperty({ type: [String], description: `${label} [] when unset.`, example });
  const decorator =
    field.kind === 'list'
      ? list(field.label, field.readExample ?? [])
      : field.kind === 'mapValues'
        ? list(field.label, [])
        : field.kind === 'dateRange'
          ? ApiProperty({ type: () => DateRangeDto, nullable: true, description: 'Date interval; null when unset.' })
          : ApiProperty({ type: String, nullable: true, description: `${field.readLabel}; null when unset.`, example: null });
  decorator(CompleteFilterFieldsDto.prototype, name);
}

export class SharedFilterFiltersViewDto {
  @ApiProperty({ type: () => CompleteFilterFieldsDto })
  inclusions: CompleteFilterFieldsDto;

  @ApiProperty({ type: () => CompleteFilterFieldsDto })
  exclusions: CompleteFilterFieldsDto;
}

export class SharedFilterGroupByViewDto {
  @ApiProperty({ enum: DATE_GROUPINGS, example: 'monthly' })
  dateGrouping: DateGrouping;

  @ApiProperty({ type: String, nullable: true, description: 'null when no dimension was given.', example: 'service' })
  dimension: string | null;
}

export class SharedFilterMetadataViewDto {
  @ApiProperty({ example: 'AWS by service, last month', description: '"" when not given.' })
  name: string;

  @ApiProperty({ example: 'AWS spend per service, without tax, for the platform team.', description: '"" when not given.' })
  description: string;
}

export class SharedFilterConfigurationViewDto implements SharedFilterConfiguration {
  @ApiProperty({ type: () => SharedFilterFiltersViewDto })
  filters: SharedFilterFiltersViewDto;

  @ApiProperty({ type: () => SharedFilterGroupByViewDto })
  groupBy: SharedFilterGroupByViewDto;

  @ApiProperty({ enum: COMPARE_METRICS, example: 'amortized_cost' })
  metric: CompareMetric;

  @ApiProperty({ example: false })
  comparisonEnabled: boolean;

  @ApiProperty({ type: () => SharedFilterMetadataViewDto })
  metadata: SharedFilterMetadataViewDto;
}

export class SharedFilterViewDto {
  @ApiProperty({ type: () => SharedFilterConfigurationViewDto })
  filterConfiguration: SharedFilterConfigurationViewDto;
}

export class GetSharedFilterResponseDto {
  @ApiProperty({ enum: [true], example: true })
  success: true;

  @ApiProperty({ type: () => SharedFilterViewDto })
  data: SharedFilterViewDto;
}

export class SharedFilterCreatedDto {
  @ApiProperty({
    description: `The new filter's ID: ${FILTER_ID_FORMAT_DESCRIPTION}.`,
    example: FILTER_ID_EXAMPLE,
    pattern: '^sf_[A-Za-z0-9_-]{24}$',
  })
  filterId: string;
}

export class CreateSharedFilterResponseDto {
  @ApiProperty({ enum: [true], example: true })
  success: true;

  @ApiProperty({ type: () => SharedFilterCreatedDto })
  data: SharedFilterCreatedDto;
}

export class DeleteSharedFilterResponseDto {
  @ApiProperty({ enum: [true], example: true })
  success: true;

  @ApiProperty({ type: () => SharedFilterCreatedDto, description: 'The deleted filter.' })
  data: SharedFilterCreatedDto;
}
