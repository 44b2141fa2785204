import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { CHARGE_CATEGORIES } from '../../cost-query/invoices.query';
import { EXAMPLE_LAST_MONTH } from '../../common/examples/examples';
import { FiltersDto, NestedObject } from '../../dto/filters.dto';

const EXACT = "Exact decimal text (a string, so no digit is lost to a double), in the invoice's billing currency.";

export class InvoicesRequestDto {
  @ApiPropertyOptional({
    type: () => FiltersDto,
    description:
      "As in /data. The billing periods are `inclusions.billingPeriods`, else every month the `dateRange` (else the default window) touches; each invoice is then summed over all its rows of the period, whatever their usage dates. The other filters (and the key's data scope) narrow the rows summed.",
    example: { inclusions: { billingPeriods: [EXAMPLE_LAST_MONTH.start.slice(0, 7)] } },
  })
  @NestedObject(() => FiltersDto, false)
  filters?: FiltersDto;
}

@ApiSchema({ name: 'InvoiceCharges', description: 'BilledCost by FOCUS ChargeCategory, corrections left out (they are `corrections`).' })
export class InvoiceChargesDto {
  @ApiProperty({ example: '1250.5' })
  usage: string;

  @ApiProperty({ example: '300' })
  purchase: string;

  @ApiProperty({ example: '62.52' })
  tax: string;

  @ApiProperty({ example: '-100' })
  credit: string;

  @ApiProperty({ example: '0' })
  adjustment: string;

  @ApiProperty({ description: 'Rows of any other (or no) ChargeCategory.', example: '0' })
  other: string;
}

@ApiSchema({ name: 'Invoice' })
export class InvoiceDto {
  @ApiProperty({ description: 'FOCUS BillingAccountId ("" for rows loaded before it was stored).', example: '999988887777' })
  billing_account_id: string;

  @ApiProperty({ description: 'yyyy-MM.', example: '2026-10' })
  billing_period: string;

  @ApiProperty({ description: 'FOCUS InvoiceId ("" when the export has none).', example: 'EUINUS202610-7777' })
  invoice_id: string;

  @ApiProperty({ description: 'ISO 4217: every amount of this invoice is in it (never converted).', example: 'USD' })
  billing_currency: string;

  @ApiProperty({ description: 'FOCUS InvoiceIssuerName.', example: 'Amazon Web Services, Inc.' })
  invoice_issuer: string;

  @ApiProperty({ description: 'Cost rows summed (as a string: a count can exceed 2^53).', example: '18342' })
  line_items: string;

  @ApiProperty({ description: `Σ BilledCost: what the invoice states. ${EXACT}`, example: '1513.02' })
  billed_cost: string;

  @ApiProperty({ description: `Σ EffectiveCost (amortized). ${EXACT}`, example: '1498.1' })
  effective_cost: string;

  @ApiProperty({ type: InvoiceChargesDto, description: `${EXACT} With \`corrections\` they add up to billed_cost.` })
  charges: InvoiceChargesDto;

  @ApiProperty({
    description: `Σ BilledCost of the rows whose ChargeClass is Correction (changes to earlier periods' charges). ${EXACT}`,
    example: '0',
  })
  corrections: string;
}

@ApiSchema({ name: 'Invoices' })
export class InvoicesDto {
  @ApiProperty({ type: [InvoiceDto], description: 'Ordered by billing period, billing account, invoice id, currency.' })
  invoices: InvoiceDto[];

  @ApiProperty({ description: 'The billing periods selected.', example: ['2026-10'] })
  billing_periods: string[];
}

export class InvoicesResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: InvoicesDto })
  data: InvoicesDto;
}

/** The categories in the order the DTO declares them (checked against the kernel's list). */
export const DECLARED_CHARGE_CATEGORIES = [...CHARGE_CATEGORIES, 'other'] as const;
