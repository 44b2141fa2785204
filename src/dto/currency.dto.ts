import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { isCurrencyCode } from '../common/money/currency-codes';
import { Rule } from '../common/validation/validators';
import { describeReceived } from './grouping.dto';

/** A request's currency: an ISO 4217 code, exactly (`eur` is refused), or absent. */
export const IsCurrencyCode = () =>
  Rule('isCurrencyCode', (value) =>
    isCurrencyCode(value)
      ? undefined
      : `Expected an ISO 4217 currency code in capitals (e.g. USD, EUR, JPY), received ${describeReceived(value)}`,
  );

/**
 * The optional `currency` of a money answer (an extension of the spec): the answer's amounts in that currency.
 * Absent or null: the organisation's reporting currency.
 */
export const AnswerCurrency = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      description:
        "Extension: the currency of the answer's amounts (ISO 4217), instead of the organisation's reporting currency. Costs billed in another currency are converted at the rate of their usage day (or, per the organisation's policy, of their billing period's last day); a day without a rate (nor one up to 7 days before) refuses the answer with a 400 naming the currency pair and the dates, never a silent 1:1. Rows already in this currency are not converted. The answer says its currency in `X-Currency` and in `currency`.",
      example: 'EUR',
      pattern: '^[A-Z]{3}$',
    }),
    IsOptional(),
    IsCurrencyCode(),
  );

@ApiSchema({
  name: 'AppliedExchangeRates',
  description:
    "Extension: the exchange rates an answer applied to the costs billed in one currency, over the answer's dates where that currency has costs. Each converted amount is (that day's — or period's — exact sum in `from`) × (that day's rate), summed, then rounded once to 10 places; the rates themselves: GET /v1/admin/currency lists what is loaded.",
})
export class AppliedRatesDto {
  @ApiProperty({ description: 'The billing currency converted.', example: 'EUR' })
  from: string;

  @ApiProperty({ description: "The answer's currency.", example: 'USD' })
  to: string;

  @ApiProperty({
    enum: ['usage_date', 'period_end'],
    description: "Which day's rate converts a cost: its usage day, or its billing period's last day.",
    example: 'usage_date',
  })
  policy: string;

  @ApiProperty({ description: 'The first day (or billing period) converted.', example: '2026-10-01' })
  first_date: string;

  @ApiProperty({ description: 'The last day (or billing period) converted.', example: '2026-10-31' })
  last_date: string;

  @ApiProperty({ description: 'The lowest rate applied, exact decimal text (1 `from` = rate `to`).', example: '1.0412' })
  min_rate: string;

  @ApiProperty({ description: 'The highest rate applied, exact decimal text.', example: '1.0874' })
  max_rate: string;

  @ApiProperty({
    description:
      'How the rates were obtained: `direct` (loaded as from→to), `inverse` (1 ÷ a loaded to→from, 18 places), `cross via X` (to ÷ from, both loaded against X, 18 places).',
    example: ['direct'],
  })
  derivations: string[];

  @ApiProperty({ description: 'The sources of the loaded rates.', example: ['ECB'] })
  sources: string[];
}
