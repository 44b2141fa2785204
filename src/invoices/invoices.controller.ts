import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { organizationScopeOf } from '../cost-query/data-scope';
import { DATA_ANSWER_HEADERS, DataAnswer } from '../answers/data-answer.interceptor';
import { InvoicesDto, InvoicesRequestDto, InvoicesResponseDto } from './dto/invoices.dto';
import { InvoicesService } from './invoices.service';

@ApiTags('Invoices')
@Controller('cost-insights')
export class InvoicesController {
  constructor(private readonly invoicesService: InvoicesService) {}

  @Post('invoices')
  @HttpCode(200)
  @Authorized('cost:read')
  @DataAnswer()
  @ApiOperation({
    operationId: 'listInvoices',
    summary: "Extension: the providers' invoices reproduced from the cost rows",
    description: [
      "Requires scope `cost:read`. One entry per billing account × billing period × invoice (FOCUS InvoiceId) × billing currency, in the invoice's own currency (never converted): Σ BilledCost — FOCUS requires the BilledCost of an invoice's rows to add up to the invoice — Σ EffectiveCost, the BilledCost per charge category (usage, purchase, tax, credit, adjustment, other) and the corrections (ChargeClass = Correction) apart; categories and corrections add up to billed_cost.",
      "**Periods**: `filters.inclusions.billingPeriods`, else every month the `dateRange` (else the default window) touches; whole periods, whatever the usage dates. The other filters, and a data-scoped key's scope, narrow the rows summed: a scoped key sees its slice of each invoice.",
      '**Money** as exact decimal text (strings). Rows loaded before invoices were stored have `invoice_id` and `billing_account_id` "".',
      `**Limits**: more than MAX_RESULT_ROWS invoices is a 400.`,
    ].join('\n\n'),
  })
  @ApiOkResponse({ type: InvoicesResponseDto, headers: DATA_ANSWER_HEADERS })
  @ApiBadRequestResponse({ description: 'Invalid body (the message names each offending path), or too many invoices.' })
  async invoices(@CurrentPrincipal() principal: Principal, @Body() body: InvoicesRequestDto): Promise<SuccessEnvelope<InvoicesDto>> {
    return ok(await this.invoicesService.invoices(organizationScopeOf(principal), body));
  }
}
