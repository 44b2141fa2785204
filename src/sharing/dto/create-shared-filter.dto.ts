import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { DEMO_ORGANIZATION_ID, EXAMPLE_LAST_MONTH } from '../../common/examples/examples';
import { expected } from '../../common/validation/messages';
import { UUID_PATTERN } from '../../common/validation/patterns';
import { Rule } from '../../common/validation/validators';
import { DATE_GROUPINGS, DateGrouping } from '../../cost-query/date-bucketing';
import { DIMENSIONS, parseDimension } from '../../cost-query/dimension-registry';
import { FiltersDto, NestedObject } from '../../dto/filters.dto';
import { COMPARE_METRICS, CompareMetric } from '../../cost-query/cost-metrics';
import { SHARED_FILTER_DEFAULTS, SharedFilterConfigurationInput } from '../../store/shared-filters/shared-filter-configuration';

export const MAX_NAME_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 2000;

/** A grouping dimension (parseDimension), with this endpoint's own message. */
const IsDimension = () =>
  Rule('isDimension', (value) =>
    typeof value === 'string' && parseDimension(value)
      ? undefined
      : `"${String(value)}" is not a dimension: expected one of ${DIMENSIONS.join(', ')}, or tag:<key> or costCategory:<key>`,
  );

export class SharedFilterGroupByDto {
  @ApiPropertyOptional({
    enum: DATE_GROUPINGS,
    default: SHARED_FILTER_DEFAULTS.dateGrouping,
    description: `Time-series granularity. Omitted or null: \`${SHARED_FILTER_DEFAULTS.dateGrouping}\`.`,
    example: 'monthly',
  })
  @IsOptional()
  @IsIn(DATE_GROUPINGS, { message: `Expected one of ${DATE_GROUPINGS.join(', ')}` })
  dateGrouping?: DateGrouping | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    default: null,
    description:
      `Grouping dimension: one of ${DIMENSIONS.join(', ')}, or \`tag:<tag_key>\` or \`costCategory:<category_key>\`. ` +
      'Omitted or null: no dimension (stored and returned as null).',
    example: 'service',
  })
  @IsOptional()
  @IsDimension() // above IsString, so a non-string reports the type error (see organizationId)
  @IsString({ message: expected('string') })
  dimension?: string | null;
}

export class SharedFilterMetadataDto {
  @ApiPropertyOptional({
    type: String,
    description: `Display name, at most ${MAX_NAME_LENGTH} characters. Omitted or null: "".`,
    default: SHARED_FILTER_DEFAULTS.name,
    maxLength: MAX_NAME_LENGTH,
    example: 'AWS by service, last month',
  })
  @IsOptional()
  @IsString({ message: expected('string') })
  @MaxLength(MAX_NAME_LENGTH, { message: `at most ${MAX_NAME_LENGTH} characters` })
  name?: string | null;

  @ApiPropertyOptional({
    type: String,
    description: `Free text, at most ${MAX_DESCRIPTION_LENGTH} characters. Omitted or null: "".`,
    default: SHARED_FILTER_DEFAULTS.description,
    maxLength: MAX_DESCRIPTION_LENGTH,
    example: 'AWS spend per service, without tax, for the platform team.',
  })
  @IsOptional()
  @IsString({ message: expected('string') })
  @MaxLength(MAX_DESCRIPTION_LENGTH, { message: `at most ${MAX_DESCRIPTION_LENGTH} characters` })
  description?: string | null;
}

export class SharedFilterConfigurationDto implements SharedFilterConfigurationInput {
  @ApiPropertyOptional({
    type: () => FiltersDto,
    description: 'Inclusions and exclusions, each a full FilterFields (dateRange and billingPeriods included).',
    example: { inclusions: { clouds: ['AWS'], dateRange: EXAMPLE_LAST_MONTH }, exclusions: { costTypes: ['Tax'] } },
  })
  @NestedObject(() => FiltersDto, false)
  filters?: FiltersDto;

  @ApiPropertyOptional({ type: () => SharedFilterGroupByDto })
  @NestedObject(() => SharedFilterGroupByDto, false)
  groupBy?: SharedFilterGroupByDto;

  @ApiPropertyOptional({
    enum: COMPARE_METRICS,
    default: SHARED_FILTER_DEFAULTS.metric,
    description: `The metric to show (the /compare metrics). Omitted or null: \`${SHARED_FILTER_DEFAULTS.metric}\`.`,
    example: 'amortized_cost',
  })
  @IsOptional()
  @IsIn(COMPARE_METRICS, { message: `Expected one of ${COMPARE_METRICS.join(', ')}` })
  metric?: CompareMetric | null;

  @ApiPropertyOptional({
    type: Boolean,
    default: SHARED_FILTER_DEFAULTS.comparisonEnabled,
    description: 'Whether the view compares two periods. Omitted or null: false.',
    example: false,
  })
  @IsOptional()
  @IsBoolean({ message: expected('boolean') })
  comparisonEnabled?: boolean | null;

  @ApiPropertyOptional({ type: () => SharedFilterMetadataDto })
  @NestedObject(() => SharedFilterMetadataDto, false)
  metadata?: SharedFilterMetadataDto;
}

export class CreateSharedFilterDto {
  @ApiProperty({
    description: "The organization's identifier (UUID-shaped). It must be the organization of the API key (else 403).",
    example: DEMO_ORGANIZATION_ID,
    format: 'uuid',
  })
  // Decorators register bottom-up and the first failing rule is reported: the type check goes last.
  @Matches(UUID_PATTERN, { message: 'Expected a UUID such as 3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d' })
  @IsString({ message: expected('string') })
  @IsDefined({ message: expected('string') })
  organizationId: string;

  @ApiProperty({ type: () => SharedFilterConfigurationDto, description: 'The configuration to store; every part optional.' })
  @NestedObject(() => SharedFilterConfigurationDto, true)
  filterConfiguration: SharedFilterConfigurationDto;
}
