import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DataAnswer, MONEY_ANSWER_HEADERS } from '../answers/data-answer.interceptor';
import { Authorized } from '../common/http/authorized.decorator';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import type { Principal } from '../common/http/principal';
import { CurrentPrincipal } from '../common/http/request-context';
import { ROOT_CAUSE_DIMENSIONS } from '../cost-query/anomaly-root-causes.query';
import { organizationScopeOf } from '../cost-query/data-scope';
import type { AuditOrigin } from '../store/repositories/audit-event';
import { ApiKeyOrigin } from '../infrastructure/audit-trail/audit-origin';
import { AnomaliesResult, AnomaliesService } from './anomalies.service';
import { ANOMALY_LIMITS } from './anomaly-limits';
import { ANOMALY_METHOD } from './anomaly-model';
import { AnomaliesRequestDto, AnomalyFeedbackRequestDto } from './dto/anomalies-request.dto';
import { AnomaliesResponseDto, AnomalyFeedbackDto, AnomalyFeedbackResponseDto } from './dto/anomalies-response.dto';

@ApiTags('Anomalies')
@Controller('cost-insights/anomalies')
export class AnomaliesController {
  constructor(private readonly anomalies: AnomaliesService) {}

  @Post()
  @HttpCode(200)
  @Authorized('cost:read')
  @DataAnswer({ money: true })
  @ApiOperation({
    operationId: 'findAnomalies',
    summary: 'Extension: cost anomalies per value of a dimension, with their root causes',
    description: [
      "Requires scope `cost:read`; the key's organisation and data scope, like every answer.",
      `**Series**: the daily amortized cost of each of the ${ANOMALY_LIMITS.monitoredValues} values of \`dimension\` (default \`${ANOMALY_LIMITS.defaultDimension}\`) with the highest costs, the others as \`${ANOMALY_LIMITS.otherLabel}\`; ${ANOMALY_LIMITS.leftOutCategories.join(', ')} charges are left out (one-offs and commitment purchases are not usage). Complete days only: up to yesterday (UTC).`,
      `**Model**: ${ANOMALY_METHOD}. A day is anomalous when its score is at least ${ANOMALY_LIMITS.scoreThreshold} and its impact reaches both \`minImpact\` and \`minImpactPercentage\`; only increases are anomalies; consecutive anomalous days are one anomaly.`,
      `**Root causes**: over ${ROOT_CAUSE_DIMENSIONS.join(', ')} (the monitored one left out) and tags — every key, or the organisation's activated ones (\`rootCauseTags\`; by default the activated keys when it has some and every key the request names is one of them) — the values whose amount over the anomaly's days rose most above their usual amount: their mean on the same weekdays over the ${ANOMALY_LIMITS.rootCauseBaselineWeeks} weeks before it. \`root_cause_tags\` says which tags were looked in.`,
      `**Kept**: each reported anomaly is kept ${ANOMALY_LIMITS.keptDays} days under its \`id\`, for feedback (\`POST /v1/cost-insights/anomalies/{id}/feedback\`); its latest feedback comes back with it.`,
    ].join('\n\n'),
  })
  @ApiOkResponse({ type: AnomaliesResponseDto, headers: MONEY_ANSWER_HEADERS, description: 'The anomalies, newest first.' })
  @ApiBadRequestResponse({ description: 'Invalid body, a dateRange after yesterday or longer than allowed, or dates in filters.' })
  async scan(@CurrentPrincipal() principal: Principal, @Body() body: AnomaliesRequestDto): Promise<SuccessEnvelope<AnomaliesResult>> {
    return ok(await this.anomalies.scan(organizationScopeOf(principal), body));
  }

  @Post(':id/feedback')
  @HttpCode(200)
  @Authorized('anomalies:write')
  @ApiOperation({
    operationId: 'giveAnomalyFeedback',
    summary: 'Extension: say why an anomaly happened',
    description:
      'Requires scope `anomalies:write`. The latest feedback per anomaly is returned with it by later scans; `expected`, `seasonal` and `migration` leave its days out of the baselines of later scans of its series (the same monitored dimension and value). An id that is unknown, older than 90 days, another organisation’s, or of a series outside the key’s data scope (one its own scans could not report) is the same 404. Each feedback is in the audit trail (`anomaly.feedback-given`).',
  })
  @ApiParam({ name: 'id', description: 'An anomaly id from a scan.', example: 'an_3f9a0c1d2e4b5a6978b1c2d3' })
  @ApiOkResponse({ type: AnomalyFeedbackResponseDto })
  @ApiBadRequestResponse({ description: 'An unknown reason.' })
  @ApiNotFoundResponse({ description: 'No such anomaly that this key sees.' })
  async feedback(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: AnomalyFeedbackRequestDto,
    @ApiKeyOrigin() origin: AuditOrigin,
  ): Promise<SuccessEnvelope<AnomalyFeedbackDto>> {
    return ok(await this.anomalies.recordFeedback(principal, origin, id, body.reason));
  }
}
