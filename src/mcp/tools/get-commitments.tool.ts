import { COMMITMENT_LIMITS } from '../../commitments/commitment-limits';
import { CommitmentsRequestDto } from '../../commitments/dto/commitments.dto';
import { organizationScopeOf } from '../../cost-query/data-scope';
import { MONEY, ToolDefinition, ToolServices } from './tool-definition';

/** get_commitments: POST /v1/cost-insights/commitments, as it answers. */
export function getCommitmentsTool({ commitments }: ToolServices): ToolDefinition {
  return {
    name: 'get_commitments',
    title: 'Are the commitments used',
    description: () =>
      'Commitment discounts (Savings Plans, reservations, committed-use discounts) over a window (POST /v1/cost-insights/commitments; filters as get_cost_data, ' +
      `default window from the first day of the month ${COMMITMENT_LIMITS.defaultPastMonths} months ago to today): per commitment and in total, used_cost and unused_cost, ` +
      'utilization (used ÷ (used + unused), a fraction), on_demand_equivalent, savings (on-demand equivalent − used − unused) and effective_savings_rate; ' +
      'coverage in total (covered ÷ eligible usage list cost, over eligible_services or eligibleServices, or by FOCUS 1.4 CommitmentProgramEligibilityDetails where a row carries it); with dateGrouping a series per bucket. ' +
      MONEY,
    scope: 'cost:read',
    endpoint: { method: 'post', path: '/v1/cost-insights/commitments' },
    dto: CommitmentsRequestDto,
    controls: {},
    run: async ({ body, principal }) => commitments.measure(organizationScopeOf(principal), body as CommitmentsRequestDto),
  };
}
