import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataAnswer, MONEY_ANSWER_HEADERS } from '../answers/data-answer.interceptor';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { organizationScopeOf } from '../cost-query/data-scope';
import { UnitCostsDto, UnitCostsRequestDto } from './dto/unit-costs.dto';
import { UnitCostsService } from './unit-costs.service';

@ApiTags('Unit costs')
@Controller('cost-insights/unit-costs')
export class UnitCostsController {
  constructor(private readonly unitCosts: UnitCostsService) {}

  @Post()
  @HttpCode(200)
  @Authorized('cost:read')
  @DataAnswer({ money: true })
  @ApiOperation({
    operationId: 'getUnitCosts',
    summary: 'Extension: what a unit of the business costs — cost per order, per customer, per GB — per day, week or month',
    description: [
      "Requires scope `cost:read`; the key's organisation and data scope, and the request's filters, as /data's.",
      'Per bucket (and per value of the metric’s dimension with `groupBy.dimension`, which must be the metric’s own): `cost` (the `costMetric` of the rows selected, in the answer’s currency), `units` (the metric’s values that day, week or month, each day as its latest load has it), `unit_cost` = cost ÷ units × the metric’s unitScale — exact decimal text, **null where units are 0** — and `unit_cost_change` against the bucket before.',
      'Units count the dimension values the filters and the key’s data scope name; filters that name none of the metric’s dimension leave its units whole (the organisation’s), and `units_basis` says which.',
    ].join('\n\n'),
  })
  @ApiOkResponse({ type: UnitCostsDto, headers: MONEY_ANSWER_HEADERS })
  @ApiBadRequestResponse({
    description: 'An unknown metric, a grouping by another dimension than the metric’s, billingPeriods, unknown fields, a window too long.',
  })
  async unitCostsOf(@CurrentPrincipal() principal: Principal, @Body() body: UnitCostsRequestDto): Promise<SuccessEnvelope<UnitCostsDto>> {
    return ok(await this.unitCosts.unitCosts(organizationScopeOf(principal), body));
  }
}
