import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataAnswer, MONEY_ANSWER_HEADERS } from '../answers/data-answer.interceptor';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { organizationScopeOf } from '../cost-query/data-scope';
import { ALLOCATION_LIMITS } from './allocation-limits';
import { AllocationService } from './allocation.service';
import { AllocationDto, AllocationRequestDto, AllocationResponseDto } from './dto/allocation.dto';

@ApiTags('Allocation')
@Controller('cost-insights/allocation')
export class AllocationController {
  constructor(private readonly allocation: AllocationService) {}

  @Post()
  @HttpCode(200)
  @Authorized('cost:read')
  @DataAnswer({ money: true })
  @ApiOperation({
    operationId: 'getAllocation',
    summary: 'Extension: how much of the cost has an owner in a cost category',
    description: [
      "Requires scope `cost:read`; the key's organisation and data scope, like every answer.",
      'For a cost category (defined by rules, `/v1/admin/cost-categories`, or imported) and a window of usage days: the amortized cost, the part with an owner (a value other than the category’s default) and the part without (no value, or a default of the versions in effect), per usage month and in total, with the allocated share.',
      `The ${ALLOCATION_LIMITS.largest} services and accounts with the most unallocated cost say where to write the next rule. With shared-cost splits the shares are measured after them, and \`split_flows\` lists the amortized cost each moved from a value to another over the window, the largest first.`,
    ].join('\n\n'),
  })
  @ApiOkResponse({ type: AllocationResponseDto, headers: MONEY_ANSWER_HEADERS })
  @ApiBadRequestResponse({ description: 'No category, unknown fields, or a dateRange that is not one or is too long.' })
  async measure(@CurrentPrincipal() principal: Principal, @Body() body: AllocationRequestDto): Promise<SuccessEnvelope<AllocationDto>> {
    return ok(await this.allocation.measure(organizationScopeOf(principal), body));
  }
}
