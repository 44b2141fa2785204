import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DATA_ANSWER_HEADERS, DataAnswer, MONEY_ANSWER_HEADERS } from '../answers/data-answer.interceptor';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { organizationScopeOf } from '../cost-query/data-scope';
import { CommitmentsResult, CommitmentsService } from './commitments.service';
import { ContractsService } from './contracts.service';
import { CommitmentsRequestDto, CommitmentsResponseDto } from './dto/commitments.dto';
import { ContractsDto, ContractsRequestDto, ContractsResponseDto } from './dto/contracts.dto';
import { CONTRACT_LIMITS } from './commitment-limits';

@ApiTags('Commitments')
@Controller('cost-insights')
export class CommitmentsController {
  constructor(
    private readonly commitments: CommitmentsService,
    private readonly contracts: ContractsService,
  ) {}

  @Post('commitments')
  @HttpCode(200)
  @Authorized('cost:read')
  @DataAnswer({ money: true })
  @ApiOperation({
    operationId: 'getCommitments',
    summary: 'Extension: are the commitments used? Utilisation, coverage and savings of commitment discounts',
    description: [
      "Requires scope `cost:read`; the key's organisation and data scope, and the request's filters, as /data's.",
      'From the FOCUS commitment columns every import keeps: per commitment discount (Savings Plans, reservations, committed-use discounts) and in total over the window, `used_cost` and `unused_cost` (EffectiveCost of rows of status Used and Unused), `utilization` = used ÷ (used + unused), `on_demand_equivalent` (the used usage’s list cost), `savings` = on-demand equivalent − used − unused (waste counted) and `effective_savings_rate` = savings ÷ on-demand equivalent.',
      '`coverage` (total only) = list cost of eligible usage a commitment covered ÷ list cost of all eligible usage: usage not of an unused commitment, in the services on which a commitment applied in the window (`eligible_services`), or in `eligibleServices` when given; a row carrying FOCUS 1.4 CommitmentProgramEligibilityDetails is eligible by it instead (one of its programs of a commitment type used in the window, `eligible_program_types`, or covered), whatever its service. Rates are fractions of 6 decimals; a window without commitments answers zeros and an empty list, never NaN.',
      'With `dateGrouping`, `series` per bucket, in total (every bucket of the window) and per commitment (its buckets with cost).',
    ].join('\n\n'),
  })
  @ApiOkResponse({ type: CommitmentsResponseDto, headers: MONEY_ANSWER_HEADERS })
  @ApiBadRequestResponse({ description: 'Unknown fields, a filter or dateGrouping that is not one, a window too long.' })
  async measure(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CommitmentsRequestDto,
  ): Promise<SuccessEnvelope<CommitmentsResult>> {
    return ok(await this.commitments.measure(organizationScopeOf(principal), body));
  }

  @Post('contracts')
  @HttpCode(200)
  @Authorized('cost:read')
  @DataAnswer()
  @ApiOperation({
    operationId: 'getContracts',
    summary: 'Extension: contract burn-down: how much of each contract commitment is used, and where it is heading',
    description: [
      "Requires scope `cost:read`; the key's organisation. The contracts are those of the FOCUS 1.3 Contract Commitment dataset (`ingest focus` or a data source recognises its files by their columns; a re-import replaces the contracts it names).",
      "Per commitment: `applied_cost` / `applied_quantity` = Σ of the cost rows' `ContractApplied` elements naming it, in its period up to `as_of` (default yesterday, the last whole day), in its billing currency; a data-scoped key counts the rows of its scope. `burned` = applied ÷ committed, in quantity for a Usage commitment with a committed quantity, in cost otherwise.",
      `\`projected\`: applied to date plus the forecast of the days left to the period's end (the model of /forecast fitted on the daily applied amounts), with its interval at \`level\` (default ${CONTRACT_LIMITS.defaultLevel} %); null, with \`projection_note\`, when the period has ended, has not started or has under two weeks behind it.`,
    ].join('\n\n'),
  })
  @ApiOkResponse({ type: ContractsResponseDto, headers: DATA_ANSWER_HEADERS })
  @ApiBadRequestResponse({ description: 'Unknown fields, an asOf that is not a date, a level outside 50–99, too many contract ids.' })
  async burnDown(@CurrentPrincipal() principal: Principal, @Body() body: ContractsRequestDto): Promise<SuccessEnvelope<ContractsDto>> {
    return ok(await this.contracts.burnDown(organizationScopeOf(principal), body));
  }
}
