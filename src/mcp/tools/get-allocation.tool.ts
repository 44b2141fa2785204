import { ALLOCATION_LIMITS } from '../../allocation/allocation-limits';
import { AllocationRequestDto } from '../../allocation/dto/allocation.dto';
import { organizationScopeOf } from '../../cost-query/data-scope';
import { MONEY, ToolDefinition, ToolServices } from './tool-definition';

/** get_allocation: POST /v1/cost-insights/allocation, as it answers. */
export function getAllocationTool({ allocation }: ToolServices): ToolDefinition {
  return {
    name: 'get_allocation',
    title: 'How much of the cost has an owner',
    description: () =>
      'The allocation KPI of one cost category (POST /v1/cost-insights/allocation): for category (one defined by rules or imported from the clouds) ' +
      `and dateRange (usage days; default from the first day of the month ${ALLOCATION_LIMITS.defaultPastMonths} months ago to today), the amortized cost, ` +
      'the part with an owner (allocated_cost: a value other than the default) and without (unallocated_cost: no value, or the default, default_value), ' +
      `allocated_share (a fraction, 0.9 = 90 %), per usage month and in total; the ${ALLOCATION_LIMITS.largest} services and accounts with the most ` +
      `unallocated cost (where a rule is worth writing next). ${MONEY}`,
    scope: 'cost:read',
    endpoint: { method: 'post', path: '/v1/cost-insights/allocation' },
    dto: AllocationRequestDto,
    controls: {},
    run: async ({ body, principal }) => allocation.measure(organizationScopeOf(principal), body as AllocationRequestDto),
  };
}
