import { organizationScopeOf } from '../cost-query/data-scope';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { AnswerFormat, ANSWER_MEDIA_TYPES, RequestedAnswerFormat } from '../answers/answer-format';
import { CsvText, csvRecord } from '../answers/csv-text';
import { COMPARISON_CSV_COLUMNS, comparisonCsv } from './comparison-csv';
import { ok, SuccessEnvelope } from '../common/http/envelope';
import { Authorized } from '../common/http/authorized.decorator';
import { CurrentPrincipal } from '../common/http/request-context';
import { SETTING_DEFAULTS } from '../config/settings';
import { NOT_SET } from '../cost-query/dimension-registry';
import { ComparisonResult, TOTAL_DIMENSION_VALUE } from './comparison-result';
import { ComparisonService } from './comparison.service';
import { CompareRequestDto, DEFAULT_COMPARE_DATE_GROUPING } from './dto/compare-request.dto';
import { ComparisonResponseDto } from './dto/compare-response.dto';
import { DataAnswer, MONEY_ANSWER_HEADERS } from '../answers/data-answer.interceptor';
import type { Principal } from '../common/http/principal';

/** Swagger's CSV example: a header and the first records of a comparison by service. */
const CSV_EXAMPLE =
  csvRecord(COMPARISON_CSV_COLUMNS) +
  csvRecord(['Amazon EC2', 'baseline', '2026-09-01', 203.1, 6500, 812.5, 12.5, 'increase']) +
  csvRecord(['Amazon EC2', 'comparison', '2026-10-01', 230.25, 7312.5, 812.5, 12.5, 'increase']);

@ApiTags('Comparison')
@ApiExtraModels(ComparisonResponseDto)
@Controller('cost-insights')
export class ComparisonController {
  constructor(private readonly comparison: ComparisonService) {}

  @Post('compare')
  @HttpCode(200)
  @Authorized('cost:read')
  @DataAnswer({ csv: true, money: true })
  @ApiOperation({
    operationId: 'compareCosts',
    summary: 'Compare one metric between two periods, per dimension value',
    description: [
      "Requires scope `cost:read`. Both periods use the API key's organisation and the same filters.",
      `**Required**: \`baselinePeriod\`, \`comparisonPeriod\` (real dates, start ≤ end, at most MAX_DATE_RANGE_DAYS days each, default ${SETTING_DEFAULTS.MAX_DATE_RANGE_DAYS}) and \`metric\`. Periods may overlap; a day in both counts in both.`,
      `**comparisons**: one row per value of \`groupBy.dimension\` present in either period (a value missing from one period has zeros there; rows without a value form \`${NOT_SET}\`); without a dimension, exactly one row \`${TOTAL_DIMENSION_VALUE}\`. \`by_date\` lists every bucket of the period (\`groupBy.dateGrouping\`, default \`${DEFAULT_COMPARE_DATE_GROUPING}\`; weeks start on Monday), zero-filled. Rows are ordered by |delta.absolute| descending, then dimension_value ascending.`,
      '**Metric values** come from exact sums; `effective_savings_rate` = total savings / on-demand cost of the bucket or period, 0 without on-demand cost.',
      '**delta**: `absolute` = comparison − baseline (rounded to 10 decimals); `percentage` = absolute / |baseline| × 100, and at a zero baseline 0 when the comparison is 0, else 100 (−100 for a negative comparison); `direction` = increase | decrease | unchanged. Never NaN or Infinity.',
      '**totals**: the compared metric over the whole periods; **metric_totals**: amortized_cost, on_demand_cost, total_savings and effective_savings_rate over the whole periods.',
      '**metadata**: the periods, the metric and readable labels such as `October 2026`, `1–15 Oct 2026`, `28 Sep – 4 Oct 2026`.',
      `**Limits**: more than MAX_RESULT_ROWS (default ${SETTING_DEFAULTS.MAX_RESULT_ROWS}) by_date points in total (values × buckets of both periods) is refused with 400. \`filters\` must not contain \`dateRange\` or \`billingPeriods\` (400).`,
      `**CSV**: with \`Accept: text/csv\` the comparison comes as RFC 4180 CSV (\`text/csv; charset=utf-8\`), long form for pivot tables: a header record (${COMPARISON_CSV_COLUMNS.map((column) => `\`${column}\``).join(', ')}), then for each row in the JSON order its \`baseline\` buckets and its \`comparison\` buckets, one record each, with the period total and the row's delta repeated; the same numbers as the JSON; CRLF line ends, text quoted. Totals and metadata are not repeated. Same authentication, limits, cache and errors (errors stay JSON envelopes). Any other \`Accept\` gets JSON.`,
    ].join('\n\n'),
  })
  @ApiOkResponse({
    description: 'Per-value comparisons, totals and metadata (JSON), or the comparison as CSV under `Accept: text/csv`.',
    headers: MONEY_ANSWER_HEADERS,
    content: {
      [ANSWER_MEDIA_TYPES.json]: { schema: { $ref: getSchemaPath(ComparisonResponseDto) } },
      [ANSWER_MEDIA_TYPES.csv]: { schema: { type: 'string' }, example: CSV_EXAMPLE },
    },
  })
  @ApiBadRequestResponse({ description: 'Invalid body, period span over the limit, dates in filters, or too many points.' })
  async compare(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CompareRequestDto,
    @RequestedAnswerFormat() format: AnswerFormat,
  ): Promise<SuccessEnvelope<ComparisonResult> | CsvText> {
    const comparison = await this.comparison.compare(organizationScopeOf(principal), body);
    return format === 'csv' ? comparisonCsv(comparison) : ok(comparison);
  }
}
