import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { NOT_SET } from '../../cost-query/dimension-registry';
import { Metric, MetricName, METRICS, MetricSummaryName } from '../../cost-query/metrics';
import { AppliedRatesDto } from '../../dto/currency.dto';

const MONEY = 'Exact sum of Decimal amounts, returned as a JSON number (double).';

/**
 * Declares for Swagger one number property per metric of the metrics table, in its order, on `dto` after the
 * properties it declares itself: `property` gives each its name and Swagger text.
 */
function declareMetricProperties(
  dto: abstract new () => object,
  property: (metric: Metric) => { name: string; description: string; example: number },
): void {
  for (const metric of METRICS) {
    const { name, description, example } = property(metric);
    ApiProperty({ type: Number, description, example })(dto.prototype, name);
  }
}

/** A CostDataPoint: its bucket and dimension value(s), then every metric (declared from the metrics table below). */
export interface CostDataPointDto extends Record<MetricName, number> {
  split_in?: number;
  split_out?: number;
}
@ApiSchema({ name: 'CostDataPoint', description: 'One date bucket × dimension value(s), with every metric summed.' })
export class CostDataPointDto {
  @ApiProperty({
    description: "First day of the bucket (YYYY-MM-DD): the day, the week's Monday, or the month's first day.",
    example: '2026-10-01',
  })
  usage_date: string;

  @ApiPropertyOptional({
    description: `Value of groupBy.dimension for this item (only with a single \`dimension\`). \`${NOT_SET}\` groups rows without a value.`,
    example: 'Amazon EC2',
  })
  dimension_value?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: `Only with groupBy.dimensions: each requested dimension (as written in the request, e.g. \`service\`, \`tag:env\`) → this item's value; \`${NOT_SET}\` for rows without a value.`,
    example: { service: 'Amazon EC2', region: 'us-east-1' },
  })
  dimension_values?: Record<string, string>;
}
declareMetricProperties(CostDataPointDto, (metric) => ({
  name: metric.name,
  description: `${metric.description}. ${MONEY}`,
  example: metric.examples.item,
}));
// After the metrics: the amortized cost a category's shared-cost splits moved in and out of the item.
ApiPropertyOptional({
  type: Number,
  description: `Only grouped by a cost category with shared-cost splits: the amortized cost the splits moved into this item (already in its metrics). ${MONEY}`,
  example: 120.5,
})(CostDataPointDto.prototype, 'split_in');
ApiPropertyOptional({
  type: Number,
  description: `Only grouped by a cost category with shared-cost splits: the amortized cost the splits moved out of this item (already taken from its metrics). ${MONEY}`,
  example: 0,
})(CostDataPointDto.prototype, 'split_out');

/** The total of each metric, first in CostDataSummary (the spec's order): declared from the metrics table. */
interface CostDataSummaryTotals extends Record<MetricSummaryName, number> {}
class CostDataSummaryTotals {}
declareMetricProperties(CostDataSummaryTotals, (metric) => ({
  name: metric.summaryName,
  description: `Sum of ${metric.noun}.`,
  example: metric.examples.summary,
}));

@ApiSchema({ name: 'CostDataSummary', description: 'Totals over the whole filtered period (all items together).' })
export class CostDataSummaryDto extends CostDataSummaryTotals {
  @ApiProperty({
    description: 'total_savings / total_on_demand_cost as a fraction (0.25 = 25 %); 0 when total on-demand cost is 0.',
    example: 0.2479,
  })
  effective_savings_rate: number;

  @ApiPropertyOptional({
    type: [AppliedRatesDto],
    description:
      'Extension, only when the answer converted costs billed in another currency: per such currency, the rates applied (their range, dates, derivations and sources). Absent on an answer whose costs are all in its currency.',
  })
  exchange_rates?: AppliedRatesDto[];
}

@ApiSchema({ name: 'CostData' })
export class CostDataDto {
  @ApiProperty({
    description:
      "Extension: the ISO 4217 currency of every amount of this answer (also in `X-Currency`): the request's `currency`, else the organisation's reporting currency.",
    example: 'USD',
  })
  currency: string;

  @ApiProperty({
    type: [CostDataPointDto],
    description:
      'One item per date bucket and dimension value(s), ordered by usage_date, then dimension value(s) ascending (byte order). Only combinations with data appear; no item is dropped or truncated (too many items is a 400).',
  })
  items: CostDataPointDto[];

  @ApiProperty({ type: CostDataSummaryDto, description: 'Totals across the full queried period; zeros when nothing matches.' })
  summary: CostDataSummaryDto;
}

@ApiSchema({ name: 'CostDataResponse' })
export class CostDataResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: CostDataDto })
  data: CostDataDto;
}
