import { clickhouseTimestamp } from '../../common/dates/clickhouse-time';
import { contractCommitmentsInForceSql, ContractCommitmentInForce } from '../../cost-query/contracts.query';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

/** The columns of one contract commitment (migration 0035) but the organisation and the load's time, as text or null. */
export type ContractCommitmentColumns = Readonly<Record<string, string | null>>;

/** The organisation's contract commitments in force: those of its latest complete load of each contract (all, or `contractIds`). */
export function contractCommitmentsInForce(
  clickhouse: ClickhouseService,
  organizationId: string,
  contractIds?: readonly string[],
): Promise<ContractCommitmentInForce[]> {
  const { sql, params } = contractCommitmentsInForceSql(
    clickhouse.table('contract_commitments'),
    clickhouse.table('contract_commitment_loads'),
    organizationId,
    contractIds?.length ? contractIds : undefined,
  );
  return clickhouse.query<ContractCommitmentInForce>(sql, params, { organizationId });
}

/**
 * Writes one load of contract commitments between a `started` and a `complete` mark, so a load cut short is never
 * read: each contract it names is replaced whole by its rows, the others are kept.
 */
export async function writeContractCommitmentLoad(
  clickhouse: ClickhouseService,
  organizationId: string,
  rows: readonly ContractCommitmentColumns[],
): Promise<void> {
  const loadedAt = clickhouseTimestamp(new Date());
  const mark = (state: 'started' | 'complete') =>
    clickhouse.insert('contract_commitment_loads', [{ organization_id: organizationId, loaded_at: loadedAt, state }]);
  await mark('started');
  await clickhouse.insert(
    'contract_commitments',
    rows.map((row) => ({ organization_id: organizationId, loaded_at: loadedAt, ...row })),
  );
  await mark('complete');
}
