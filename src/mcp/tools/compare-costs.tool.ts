import { organizationScopeOf } from '../../cost-query/data-scope';
import { METRIC_TOTALS_KEYS } from '../../comparison/comparison-result';
import { CompareRequestDto } from '../../comparison/dto/compare-request.dto';
import { compactComparison } from '../compact-answers';
import { DIMENSIONS_TEXT, flag, integer, MONEY, ToolDefinition, ToolServices } from './tool-definition';

/** compare_costs: POST /v1/cost-insights/compare, its rows paged. */
export function compareCostsTool({ comparison }: ToolServices): ToolDefinition {
  return {
    name: 'compare_costs',
    title: 'Compare a metric between two periods',
    description: (config) =>
      'One metric between a baseline and a comparison period, per value of an optional dimension (POST /v1/cost-insights/compare). ' +
      `Answer: \`totals\` (the metric over each whole period and the delta), \`metric_totals\` (${METRIC_TOTALS_KEYS.join(', ')}, whatever the metric), ` +
      '`metadata` (periods and readable labels) and a page of `rows` ordered by |delta.absolute| descending (largest movers first). ' +
      'delta.absolute = comparison − baseline; delta.percentage is in percent (12.5 = +12.5 %; 100 when the baseline is 0 and the comparison is not); direction increase/decrease/unchanged. ' +
      `Rows carry period totals only unless includeByDate is true. Filters here must not contain dateRange or billingPeriods: the periods set the dates. Periods: both ends included, at most ${config.maxDateRangeDays} days each. ${DIMENSIONS_TEXT} ${MONEY}`,
    scope: 'cost:read',
    endpoint: { method: 'post', path: '/v1/cost-insights/compare' },
    dto: CompareRequestDto,
    controls: {
      limit: integer(1, 200, 25, 'Rows to return, at most 200.'),
      offset: integer(0, Number.MAX_SAFE_INTEGER, 0, 'Index of the first row to return, for the next page.'),
      includeByDate: flag(
        "Also return each row's per-bucket series (by_date, zero-filled, bucketed by groupBy.dateGrouping, default daily). Larger answers.",
      ),
    },
    run: async ({ body, controls, principal }) =>
      compactComparison(
        await comparison.compare(organizationScopeOf(principal), body as CompareRequestDto),
        (controls.offset as number | undefined) ?? 0,
        (controls.limit as number | undefined) ?? 25,
        (controls.includeByDate as boolean | undefined) ?? false,
      ),
  };
}
