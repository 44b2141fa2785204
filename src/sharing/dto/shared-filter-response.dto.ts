import { ApiProperty } from '@nestjs/swagger';
import { DATE_GROUPINGS, DateGrouping } from '../../cost-query/date-bucketing';
import { DateRangeDto } from '../../cost-query/dto/filters.dto';
import { COMPARE_METRICS, CompareMetric } from '../../cost-query/metrics';
import { FILTER_ID_EXAMPLE, FILTER_ID_FORMAT_DESCRIPTION } from '../filter-id';
import {
  CompleteFilterFields,
  SharedFilterConfiguration,
} from '../shared-filter-configuration';

const LIST = (description: string, example: string[]) =>
  ApiProperty({ type: [String], description: `${description} [] when unset.`, example });

/** FilterFields as a read returns it: every field present, lists [] and the others null when unset. */
export class CompleteFilterFieldsDto implements CompleteFilterFields {
  @LIST('Cost layer names.', []) costLayers: string[];
  @LIST('Cloud provider names.', ['AWS']) clouds: string[];
  @LIST('Cloud service names.', []) services: string[];
  @LIST('Resource family names.', []) resourceFamilies: string[];
  @LIST('Cloud region codes.', []) regions: string[];
  @LIST('Instance type identifiers.', []) instanceTypes: string[];
  @LIST('Usage type identifiers.', []) usageTypes: string[];
  @LIST('Billing periods (yyyy-MM).', []) billingPeriods: string[];

  @ApiProperty({ type: () => DateRangeDto, nullable: true, description: 'Date interval; null when unset.' })
  dateRange: DateRangeDto | null;

  @LIST('Cost type identifiers.', []) costTypes: string[];
  @LIST('Cloud account IDs.', []) accountIds: string[];
  @LIST('Integration IDs.', []) integrationIds: string[];

  @ApiProperty({ type: String, nullable: true, description: 'Resource tag key; null when unset.', example: null })
  resourceTag: string | null;

  @LIST('Values of resourceTag.', []) resourceTagValues: string[];

  @ApiProperty({ type: String, nullable: true, description: 'Cost category key; null when unset.', example: null })
  costCategory: string | null;

  @LIST('Values of costCategory.', []) costCategoryValues: string[];
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
  @ApiProperty({ description: `The new filter's ID: ${FILTER_ID_FORMAT_DESCRIPTION}.`, example: FILTER_ID_EXAMPLE, pattern: '^sf_[A-Za-z0-9_-]{24}$' })
  filterId: string;
}

export class CreateSharedFilterResponseDto {
  @ApiProperty({ enum: [true], example: true })
  success: true;

  @ApiProperty({ type: () => SharedFilterCreatedDto })
  data: SharedFilterCreatedDto;
}
