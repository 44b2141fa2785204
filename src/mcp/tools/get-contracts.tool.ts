import { CONTRACT_LIMITS } from '../../commitments/commitment-limits';
import { ContractsRequestDto } from '../../commitments/dto/contracts.dto';
import { organizationScopeOf } from '../../cost-query/data-scope';
import { ToolDefinition, ToolServices } from './tool-definition';

/** get_contracts: POST /v1/cost-insights/contracts, as it answers. */
export function getContractsTool({ contracts }: ToolServices): ToolDefinition {
  return {
    name: 'get_contracts',
    title: 'Are the contracts on track',
    description: () =>
      'Contract commitments (FOCUS 1.3 Contract Commitment dataset: enterprise spend pools, usage commitments) burned down (POST /v1/cost-insights/contracts): ' +
      'per contract and commitment, committed_cost / committed_quantity, applied_cost / applied_quantity to as_of (default yesterday) from the rows’ ContractApplied elements, ' +
      'burned (applied ÷ committed, a fraction, in burn_measure), days_elapsed, days_left, and projected (applied at the period’s end: mean, lower, upper at ' +
      `level, default ${CONTRACT_LIMITS.defaultLevel} %, and burned) or projection_note. Each commitment's amounts are in its own currency.`,
    scope: 'cost:read',
    endpoint: { method: 'post', path: '/v1/cost-insights/contracts' },
    dto: ContractsRequestDto,
    controls: {},
    run: async ({ body, principal }) => contracts.burnDown(organizationScopeOf(principal), body as ContractsRequestDto),
  };
}
