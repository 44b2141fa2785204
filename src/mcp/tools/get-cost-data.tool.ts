import { organizationScopeOf } from '../../cost-query/data-scope';
import { METRIC_NAMES, METRIC_SUMMARY_NAMES } from '../../cost-query/metrics';
import { CostDataRequestDto } from '../../costs/dto/cost-data-request.dto';
import { compactCostData, CostItem, TOP_VALUES, TopValue } from '../compact-answers';
import { DIMENSIONS_TEXT, integer, MONEY, ToolDefinition, ToolServices, windowText } from './tool-definition';

/** get_cost_data: POST /v1/cost-insights/data, its page and top values cut in the statement. */
export function getCostDataTool({ costs }: ToolServices): ToolDefinition {
  return {
    name: 'get_cost_data',
    title: 'Cost data (time series and totals)',
    description: (config) =>
      'Cloud cost of the organisation as a time series with totals (POST /v1/cost-insights/data). ' +
      `Answer: \`summary\` (totals over the whole window: ${[...METRIC_SUMMARY_NAMES, 'effective_savings_rate'].join(', ')}; total_savings is the sum of the six savings sources), ` +
      `\`topValues\` (the ${TOP_VALUES} dimension values with the highest amortized cost over the whole window, when grouped), and a page of \`items\` ` +
      `(one per date bucket × dimension value, ordered by date then value; usage_date is the bucket's first day; metrics ${METRIC_NAMES.join(', ')}). ` +
      'Items are paged (limit, offset) and `page.remaining` says how many were left out: for "what costs most" read topValues and summary instead of paging; ' +
      `prefer monthly or weekly buckets to daily ones. ${windowText(config)} ${DIMENSIONS_TEXT} ${MONEY}`,
    scope: 'cost:read',
    endpoint: { method: 'post', path: '/v1/cost-insights/data' },
    dto: CostDataRequestDto,
    controls: {
      limit: integer(1, 500, 100, 'Items to return (a page), at most 500.'),
      offset: integer(0, Number.MAX_SAFE_INTEGER, 0, 'Index of the first item to return, for the next page.'),
    },
    // The page is cut in the statement (issue 35 §1): a limit of 1 reads back one item and the top values, not the window.
    run: async ({ body, controls, principal }) => {
      const offset = (controls.offset as number | undefined) ?? 0;
      const limit = (controls.limit as number | undefined) ?? 100;
      const result = await costs.getCostDataPage(organizationScopeOf(principal), body as CostDataRequestDto, {
        offset,
        limit,
        topValues: TOP_VALUES,
      });
      return compactCostData(
        { ...result, items: result.items as CostItem[], topValues: result.topValues as unknown as TopValue[] },
        offset,
        limit,
      );
    },
  };
}
