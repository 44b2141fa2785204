import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CONVERSION_POLICIES, ConversionPolicy } from '../../common/money/exchange-rates';
import { IsCurrencyCode } from '../../dto/currency.dto';

const POLICY_TEXT =
  "`usage_date`: each cost at the rate of its usage day (default); `period_end`: at the rate of its billing period's last day, as an invoice converts it. A day without a rate takes the latest earlier one up to 7 days back; beyond that the answer is refused, naming the dates.";

export class UpdateCurrencySettingsDto {
  @ApiPropertyOptional({ description: 'The currency answers are reported in (ISO 4217).', example: 'EUR' })
  @IsOptional()
  @IsCurrencyCode()
  reportingCurrency?: string;

  @ApiPropertyOptional({ enum: CONVERSION_POLICIES, description: POLICY_TEXT, example: 'usage_date' })
  @IsOptional()
  @IsIn(CONVERSION_POLICIES, { message: `Expected one of ${CONVERSION_POLICIES.join(', ')}` })
  conversionPolicy?: ConversionPolicy;
}

export class LoadedPairDto {
  @ApiProperty({ example: 'EUR' })
  base: string;

  @ApiProperty({ example: 'USD' })
  quote: string;

  @ApiProperty({ description: 'Rates loaded (one per date).', example: 6600 })
  rates: number;

  @ApiProperty({ example: '1999-01-04' })
  firstDate: string;

  @ApiProperty({ example: '2026-11-24' })
  lastDate: string;

  @ApiProperty({ example: ['ECB'] })
  sources: string[];
}

export class CurrencySettingsDto {
  @ApiProperty({ description: 'The currency answers are reported in unless a request asks for another.', example: 'USD' })
  reportingCurrency: string;

  @ApiProperty({ enum: CONVERSION_POLICIES, description: POLICY_TEXT, example: 'usage_date' })
  conversionPolicy: ConversionPolicy;

  @ApiProperty({ description: "The currencies the organisation's costs were billed in.", example: ['EUR', 'USD'] })
  billingCurrencies: string[];

  @ApiProperty({ type: [LoadedPairDto], description: 'The exchange rates loaded, per currency pair (1 base = rate quote).' })
  exchangeRates: LoadedPairDto[];
}

export class CurrencySettingsResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: CurrencySettingsDto })
  data: CurrencySettingsDto;
}

export class RatesPairLoadedDto {
  @ApiProperty({ example: 'EUR/USD' })
  pair: string;

  @ApiProperty({ example: 250 })
  rates: number;

  @ApiProperty({ example: '2026-01-02' })
  first: string;

  @ApiProperty({ example: '2026-11-24' })
  last: string;
}

export class RatesImportDto {
  @ApiProperty({ enum: ['ecb', 'pairs'], description: 'The file format recognised from its header.', example: 'ecb' })
  format: string;

  @ApiProperty({
    description: 'Rates stored (one per date and pair; a rate loaded before for the same date and pair is replaced).',
    example: 7500,
  })
  rates: number;

  @ApiProperty({ type: [RatesPairLoadedDto] })
  pairs: RatesPairLoadedDto[];
}

export class RatesImportResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: RatesImportDto })
  data: RatesImportDto;
}
