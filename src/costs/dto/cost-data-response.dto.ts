import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { NOT_SET } from '../../cost-query/dimension-registry';
import { AppliedRatesDto } from '../../dto/currency.dto';

const MONEY = 'Exact sum of Decimal amounts, returned as a JSON number (double).';

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

  @ApiProperty({ description: `Upfront commitment fees spread evenly across the commitment term. ${MONEY}`, example: 1523.42 })
  amortized_cost: number;

  @ApiProperty({ description: `Actual billed cost as on the provider invoice. ${MONEY}`, example: 1498.1 })
  billed_cost: number;

  @ApiProperty({ description: `Upfront fees recognised in the period charged, not amortized. ${MONEY}`, example: 1498.1 })
  cash_cost: number;

  @ApiProperty({ description: `Equivalent cost at on-demand rates, before discounts or commitments. ${MONEY}`, example: 2010.55 })
  on_demand_cost: number;

  @ApiProperty({ description: 'Total savings: the sum of the six savings sources below.', example: 487.13 })
  total_savings: number;

  @ApiProperty({ description: `Savings from enterprise discount agreements. ${MONEY}`, example: 120.5 })
  enterprise_discount_savings: number;

  @ApiProperty({ description: `Savings from product-level discounts. ${MONEY}`, example: 10 })
  product_discount_savings: number;

  @ApiProperty({ description: `Savings from partner discount arrangements. ${MONEY}`, example: 0 })
  partner_discount_savings: number;

  @ApiProperty({ description: `Savings from reserved-instance and savings-plan commitments. ${MONEY}`, example: 301.2 })
  commitment_savings: number;

  @ApiProperty({ description: `Savings from spot usage versus on-demand rates. ${MONEY}`, example: 45.43 })
  spot_savings: number;

  @ApiProperty({ description: `Savings from all other discount sources. ${MONEY}`, example: 10 })
  other_savings: number;
}

@ApiSchema({ name: 'CostDataSummary', description: 'Totals over the whole filtered period (all items together).' })
export class CostDataSummaryDto {
  @ApiProperty({ description: 'Sum of amortized cost.', example: 45210.77 })
  total_amortized_cost: number;

  @ApiProperty({ description: 'Sum of billed cost.', example: 44980.12 })
  total_billed_cost: number;

  @ApiProperty({ description: 'Sum of cash cost.', example: 44980.12 })
  total_cash_cost: number;

  @ApiProperty({ description: 'Sum of on-demand equivalent cost.', example: 60112.4 })
  total_on_demand_cost: number;

  @ApiProperty({ description: 'Sum of total savings (all six sources).', example: 14901.63 })
  total_savings: number;

  @ApiProperty({ description: 'Sum of enterprise discount savings.', example: 3600 })
  total_enterprise_discount_savings: number;

  @ApiProperty({ description: 'Sum of product discount savings.', example: 300 })
  total_product_discount_savings: number;

  @ApiProperty({ description: 'Sum of partner discount savings.', example: 0 })
  total_partner_discount_savings: number;

  @ApiProperty({ description: 'Sum of commitment savings.', example: 9500.2 })
  total_commitment_savings: number;

  @ApiProperty({ description: 'Sum of spot savings.', example: 1201.43 })
  total_spot_savings: number;

  @ApiProperty({ description: 'Sum of other savings.', example: 300 })
  total_other_savings: number;

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
