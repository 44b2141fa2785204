import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import { Authorized } from '../common/http/authorized.decorator';
import { CurrentPrincipal } from '../common/http/request-context';
import { SETTING_DEFAULTS } from '../config/settings';
import { NOT_SET } from '../cost-query/dimension-registry';
import { MAX_GROUPING_DIMENSIONS } from '../dto/grouping.dto';
import { CostDataResult, CostsService } from './costs.service';
import { CostDataRequestDto } from './dto/cost-data-request.dto';
import { CostDataResponseDto } from './dto/cost-data-response.dto';
import { CACHE_STATUS_HEADER, CachedResult } from '../infrastructure/result-cache/cached-result.interceptor';
import type { Principal } from '../common/http/principal';

@ApiTags('Cost data')
@Controller('cost-insights')
export class CostsController {
  constructor(private readonly costs: CostsService) {}

  @Post('data')
  @HttpCode(200)
  @Authorized('cost:read')
  @CachedResult()
  @ApiOperation({
    operationId: 'getCostData',
    summary: 'Get cost data: a time series per date and dimension, plus totals',
    description: [
      "Requires scope `cost:read`. Data is always confined to the API key's organisation.",
      "**items**: one item per date bucket (`groupBy.dateGrouping`: daily, weekly with weeks starting on Monday, or monthly; `usage_date` is the bucket's first day) and value of the grouping dimension(s). Only combinations with data appear. Order: `usage_date`, then dimension value(s), ascending.",
      `**Grouping**: \`groupBy.dimension\` (one dimension, items carry \`dimension_value\`) or \`groupBy.dimensions\` (1 to ${MAX_GROUPING_DIMENSIONS} distinct dimensions, items carry \`dimension_values\` keyed by dimension name and no \`dimension_value\`); \`dimensions\` wins when both are given. Without either, one item per bucket. Rows without a value for a dimension (empty column, untagged resource, no category) are grouped under \`${NOT_SET}\`, never dropped.`,
      '**summary**: totals over the whole filtered period; `effective_savings_rate` = total savings / total on-demand cost (0 when on-demand is 0). `total_savings` is the sum of the six savings sources.',
      '**Money**: summed exactly (Decimal) in the store, returned as JSON numbers; item values are written with all their exact decimal digits (no trailing zeros).',
      `**Window**: \`filters.inclusions.dateRange\` (both ends included, at most MAX_DATE_RANGE_DAYS days, default ${SETTING_DEFAULTS.MAX_DATE_RANGE_DAYS}), else \`billingPeriods\`, else the last DEFAULT_WINDOW_DAYS days up to today (UTC).`,
      `**Limits**: a result of more than MAX_RESULT_ROWS items (default ${SETTING_DEFAULTS.MAX_RESULT_ROWS}) is refused with 400 (never truncated): use a coarser dateGrouping, fewer dimensions or narrower filters. An empty result is \`items: []\` with a zero summary.`,
      '**400** when `groupBy` is missing: the message ends with `groupBy: Expected object, received undefined`.',
    ].join('\n\n'),
  })
  @ApiOkResponse({ type: CostDataResponseDto, description: 'The time series and the period totals.', headers: CACHE_STATUS_HEADER })
  @ApiBadRequestResponse({ description: 'Invalid body, date span over the limit, or too many result rows.' })
  async getCostData(@CurrentPrincipal() principal: Principal, @Body() body: CostDataRequestDto): Promise<SuccessEnvelope<CostDataResult>> {
    return ok(await this.costs.getCostData({ organizationId: principal.organizationId }, body));
  }
}
