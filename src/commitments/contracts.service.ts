import { Injectable } from '@nestjs/common';
import { groupedBy } from '../common/collections/grouped-by';
import { addDays, todayUtc } from '../common/dates/calendar-date';
import { isoSecondsFromClickhouse } from '../common/dates/clickhouse-time';
import { AppliedDayRow, buildContractAppliedQuery, ContractCommitmentInForce } from '../cost-query/contracts.query';
import type { OrganizationScope } from '../cost-query/filters.types';
import { FORECAST_METHOD } from '../cost-query/forecast-model';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { contractCommitmentsInForce } from '../store/repositories/contract-commitments.repository';
import { CONTRACT_LIMITS } from './commitment-limits';
import { burnDown, commitmentDays } from './contract-burn-down';
import type { ContractDto, ContractsDto, ContractsRequestDto } from './dto/contracts.dto';

/**
 * Contract burn-down (FOCUS 1.3): each contract commitment of the Contract Commitment dataset, what the cost rows'
 * ContractApplied elements drew from it to date, and where that is heading at the period's end.
 */
@Injectable()
export class ContractsService {
  constructor(private readonly clickhouse: ClickhouseService) {}

  async burnDown(scope: OrganizationScope, request: ContractsRequestDto): Promise<ContractsDto> {
    const asOf = request.asOf ?? addDays(todayUtc(), -1);
    const level = request.level ?? CONTRACT_LIMITS.defaultLevel;
    const commitments = await this.inForce(scope.organizationId, request.contractIds);
    const applied = await this.applied(scope, commitments, asOf);
    const appliedTo = groupedBy(applied, (row) => row.contract_commitment_id);
    const contracts = new Map<string, ContractDto>();
    for (const commitment of commitments) {
      const contract = contracts.get(commitment.contract_id) ?? {
        contract_id: commitment.contract_id,
        period_start: isoSecondsFromClickhouse(commitment.contract_period_start),
        period_end: isoSecondsFromClickhouse(commitment.contract_period_end),
        commitments: [],
      };
      contract.commitments.push(burnDown(commitment, appliedTo.get(commitment.contract_commitment_id) ?? [], asOf, level));
      contracts.set(commitment.contract_id, contract);
    }
    return { as_of: asOf, level, method: FORECAST_METHOD, contracts: [...contracts.values()] };
  }

  private inForce(organizationId: string, contractIds?: readonly string[]): Promise<ContractCommitmentInForce[]> {
    return contractCommitmentsInForce(this.clickhouse, organizationId, contractIds);
  }

  /** The commitments' applied amounts per day, from the earliest period's first day to as_of (none before a period starts). */
  private async applied(
    scope: OrganizationScope,
    commitments: readonly ContractCommitmentInForce[],
    asOf: string,
  ): Promise<AppliedDayRow[]> {
    const started = commitments
      .map((commitment) => ({ id: commitment.contract_commitment_id, first: commitmentDays(commitment, asOf).first }))
      .filter(({ first }) => first <= asOf);
    if (started.length === 0) return [];
    const start = started.map(({ first }) => first).sort()[0];
    const { sql, params } = buildContractAppliedQuery(costRowsTable(this.clickhouse), {
      scope,
      window: { start, end: asOf },
      commitmentIds: [...new Set(started.map(({ id }) => id))],
    });
    return this.clickhouse.query<AppliedDayRow>(sql, params, scope);
  }
}
