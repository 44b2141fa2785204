import { Body, Controller, Get, HttpCode, HttpStatus, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { isRateSource, RATE_RANGE, RATE_SOURCE_RULE } from '../common/money/exchange-rates';
import type { AuditOrigin } from '../store/repositories/audit-event';
import { ApiKeyOrigin } from '../infrastructure/audit-trail/audit-origin';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import {
  CurrencySettingsDto,
  CurrencySettingsResponseDto,
  RatesImportDto,
  RatesImportResponseDto,
  UpdateCurrencySettingsDto,
} from './dto/currency-admin.dto';
import { ExchangeRatesService } from './exchange-rates.service';

const ADMIN = 'rates:admin';
const FORBIDDEN = `The API key lacks the \`${ADMIN}\` scope, or has a data scope.`;
const SCOPED_ADMIN =
  "Managing exchange rates and the reporting currency needs a key without a data scope: they change every answer of the organisation, not only the key's slice.";

/**
 * The organisation's money settings as an API (`rates:admin`): its reporting currency and conversion policy, and
 * its exchange rates. The organisation is the key's; a data-scoped key is refused.
 */
@ApiTags('Currency (admin)')
@Controller('admin')
export class CurrencyAdminController {
  constructor(
    private readonly rates: ExchangeRatesService,
    private readonly auditTrail: AuditTrail,
  ) {}

  @Get('currency')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'getCurrencySettings',
    summary: "The organisation's reporting currency, conversion policy, billing currencies and loaded exchange rates",
  })
  @ApiOkResponse({ type: CurrencySettingsResponseDto })
  async settings(@CurrentPrincipal() principal: Principal): Promise<SuccessEnvelope<CurrencySettingsDto>> {
    refuseScoped(principal);
    return ok(await this.describe(principal.organizationId));
  }

  @Put('currency')
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'updateCurrencySettings',
    summary: 'Set the reporting currency and/or the conversion policy',
    description:
      'Fields left out keep their value. Every answer computed afterwards (on every instance, within RESULT_CACHE_VERSION_CHECK_MS) uses them.',
  })
  @ApiOkResponse({ type: CurrencySettingsResponseDto })
  @ApiBadRequestResponse({ description: 'An unknown currency code or policy (the message names the field).' })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateCurrencySettingsDto,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<CurrencySettingsDto>> {
    refuseScoped(principal);
    const { before, after } = await this.rates.changeSettings(principal.organizationId, body);
    // Setting the values in force again changes nothing: no event.
    if (before.reportingCurrency !== after.reportingCurrency || before.conversionPolicy !== after.conversionPolicy) {
      await this.auditTrail.record(origin, 'currency.settings-changed', 'currency', { before, after });
    }
    return ok(await this.describe(principal.organizationId));
  }

  @Post('exchange-rates')
  @HttpCode(HttpStatus.OK)
  @Authorized(ADMIN, FORBIDDEN)
  @ApiOperation({
    operationId: 'importExchangeRates',
    summary: 'Load exchange rates from a file (ECB reference rates, or date,from,to,rate)',
    description: [
      "The body is the file itself (`Content-Type: text/csv`, at most RATES_IMPORT_MAX_BYTES): the European Central Bank's reference rates as published (`eurofxref-hist.csv`, `eurofxref.csv`: `Date,USD,JPY,…`, 1 EUR = value, `N/A` where a currency had none), or a plain `date,from,to,rate` file (1 from = rate to), optionally with a `source` column.",
      `The file is checked whole before anything is stored: a bad header, a rate that is not a positive decimal within ${RATE_RANGE.text} (nor two rates of one base and date whose cross rate is outside it), a source that ${RATE_SOURCE_RULE}, an unknown currency, a date out of range or two different rates for one date and pair refuse it with a 400 naming each line, and nothing is stored. A rate loaded again for a date and pair replaces the earlier one.`,
      `\`source\` names the rates of a file without a source column (ECB files: \`ECB\` unless given). An answer never applies a rate, loaded or derived (inverse, cross), outside ${RATE_RANGE.text}: it is a 400 naming the pair and the day.`,
    ].join('\n\n'),
  })
  @ApiConsumes('text/csv')
  @ApiBody({ schema: { type: 'string', example: 'Date,USD,JPY,GBP,\n2026-11-24,1.0493,161.92,0.8342,\n' } })
  @ApiQuery({
    name: 'source',
    required: false,
    description: `Source of the file's rates: ${RATE_SOURCE_RULE}.`,
    example: 'ECB',
  })
  @ApiOkResponse({ type: RatesImportResponseDto })
  @ApiBadRequestResponse({ description: 'Not a text/csv body, or a bad file: every problem named by line; nothing stored.' })
  async importRates(
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @ApiKeyOrigin() origin: AuditOrigin,
    @Query('source') source?: unknown,
  ): Promise<SuccessEnvelope<RatesImportDto>> {
    refuseScoped(principal);
    if (typeof request.body !== 'string') {
      throw new InvalidRequestException(['body: send the rates file itself as the body, with Content-Type: text/csv']);
    }
    if (source !== undefined && (typeof source !== 'string' || !isRateSource(source))) {
      throw new InvalidRequestException([`source: ${RATE_SOURCE_RULE}`]);
    }
    const loaded = await this.rates.importFile(principal.organizationId, request.body, source as string | undefined);
    await this.auditTrail.record(origin, 'exchange-rates.changed', 'exchange-rates', { source: source ?? null, ...loaded });
    return ok(loaded);
  }

  private async describe(organizationId: string): Promise<CurrencySettingsDto> {
    const [settings, billingCurrencies, exchangeRates] = await Promise.all([
      this.rates.settings(organizationId),
      this.rates.billingCurrencies(organizationId),
      this.rates.loadedPairs(organizationId),
    ]);
    return { ...settings, billingCurrencies, exchangeRates };
  }
}

function refuseScoped(principal: Principal): void {
  if (principal.dataScope) throw new ApiError(HttpStatus.FORBIDDEN, SCOPED_ADMIN);
}
