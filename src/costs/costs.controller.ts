import { organizationScopeOf } from '../cost-query/data-scope';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { AnswerFormat, ANSWER_MEDIA_TYPES, RequestedAnswerFormat } from '../answers/answer-format';
import { CsvText, csvRecord } from '../answers/csv-text';
import { METRIC_CSV_HEADERS, METRICS } from '../cost-query/metrics';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import { Authorized } from '../common/http/authorized.decorator';
import { CurrentPrincipal } from '../common/http/request-context';
import { SETTING_DEFAULTS } from '../config/settings';
import { NOT_SET } from '../cost-query/dimension-registry';
import { MAX_GROUPING_DIMENSIONS } from '../dto/grouping.dto';
import { CostDataResult, CostsService } from './costs.service';
import { CostDataRequestDto } from './dto/cost-data-request.dto';
import { CostDataResponseDto } from './dto/cost-data-response.dto';
import { DataAnswer, MONEY_ANSWER_HEADERS } from '../answers/data-answer.interceptor';
import type { Principal } from '../common/http/principal';

/** Swagger's CSV example: a header and one record of monthly data by service (the JSON item example's values). */
const CSV_EXAMPLE =
  csvRecord(['usage_date', 'service', ...METRIC_CSV_HEADERS]) +
  csvRecord(['2026-10-01', 'Amazon EC2', ...METRICS.map((metric) => metric.examples.item)]);

@ApiTags('Cost data')
@ApiExtraModels(CostDataResponseDto)
@Controller('cost-insights')
export class CostsController {
  constructor(private readonly costs: CostsService) {}

  @Post('data')
  @HttpCode(200)
  @Authorized('cost:read')
  @DataAnswer({ csv: true, money: true })
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
      '**CSV**: with `Accept: text/csv` the items come as RFC 4180 CSV (`text/csv; charset=utf-8`) for spreadsheets and BI tools: a header record `usage_date`, one column per grouping dimension named as in `groupBy` (e.g. `service`, `tag:team`), then the metrics in item order; one record per item, in item order, with the same exact decimal digits; CRLF line ends, text quoted. The summary is not repeated (it is the sum of the records). Same authentication, limits, cache and errors (errors stay JSON envelopes). Any other `Accept` gets JSON.',
    ].join('\n\n'),
  })
  @ApiOkResponse({
    description: 'The time series and the period totals (JSON), or the items as CSV under `Accept: text/csv`.',
    headers: MONEY_ANSWER_HEADERS,
    content: {
      [ANSWER_MEDIA_TYPES.json]: { schema: { $ref: getSchemaPath(CostDataResponseDto) } },
      [ANSWER_MEDIA_TYPES.csv]: {
        schema: { type: 'string' },
        example: CSV_EXAMPLE,
      },
    },
  })
  @ApiBadRequestResponse({ description: 'Invalid body, date span over the limit, or too many result rows.' })
  async getCostData(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CostDataRequestDto,
    @RequestedAnswerFormat() format: AnswerFormat,
  ): Promise<SuccessEnvelope<CostDataResult> | CsvText> {
    const scope = organizationScopeOf(principal);
    if (format === 'csv') return this.costs.getCostData(scope, body, 'csv');
    return ok(await this.costs.getCostData(scope, body));
  }
}
