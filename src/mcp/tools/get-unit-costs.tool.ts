import { organizationScopeOf } from '../../cost-query/data-scope';
import { UnitCostsRequestDto } from '../../unit-costs/dto/unit-costs.dto';
import { MONEY, ToolDefinition, ToolServices } from './tool-definition';

/** get_unit_costs: POST /v1/cost-insights/unit-costs, as it answers. */
export function getUnitCostsTool({ unitCosts }: ToolServices): ToolDefinition {
  return {
    name: 'get_unit_costs',
    title: 'What a unit of the business costs',
    description: () =>
      'Cost per unit of a business metric the organisation loads (POST /v1/cost-insights/unit-costs; e.g. cost per order): per day, week or month ' +
      '(groupBy.dateGrouping) and per value of the metric’s own dimension (groupBy.dimension), cost, units, unit_cost = cost ÷ units × the metric’s ' +
      'unit_scale (exact decimal text; null where units are 0) and unit_cost_change against the bucket before; units_basis says which units were counted. ' +
      'Filters as get_cost_data. ' +
      MONEY,
    scope: 'cost:read',
    endpoint: { method: 'post', path: '/v1/cost-insights/unit-costs' },
    dto: UnitCostsRequestDto,
    controls: {},
    run: async ({ body, principal }) => unitCosts.unitCosts(organizationScopeOf(principal), body as UnitCostsRequestDto),
  };
}
