import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { contractCommitmentsInForce, writeContractCommitmentLoad } from '../store/repositories/contract-commitments.repository';
import { checkedAcrossFiles, ParsedCommitment } from './contract-commitment-dataset';

/** What an import of Contract Commitment files replaced: the contracts it named, and their commitments now. */
export interface ImportedContracts {
  contracts: string[];
  commitments: number;
}

type DatasetFiles = ReadonlyArray<{ name: string; commitments: readonly ParsedCommitment[] }>;

/**
 * Checks the Contract Commitment files of an import against each other and against the commitments in force (a
 * commitment keeps its currency across contracts): what the importer asks before it writes anything, cost rows too.
 */
export async function checkContractCommitments(clickhouse: ClickhouseService, organizationId: string, files: DatasetFiles): Promise<void> {
  const inForce = await contractCommitmentsInForce(clickhouse, organizationId);
  checkedAcrossFiles(
    files,
    new Map(inForce.map((row) => [row.contract_commitment_id, { currency: row.billing_currency, contractId: row.contract_id }])),
  );
}

/**
 * Loads the Contract Commitment files of an import as one load (writeContractCommitmentLoad), checked first
 * (checkContractCommitments, again: another import may have loaded since).
 */
export async function loadContractCommitments(
  clickhouse: ClickhouseService,
  organizationId: string,
  files: DatasetFiles,
): Promise<ImportedContracts> {
  await checkContractCommitments(clickhouse, organizationId, files);
  const rows = files.flatMap((file) => file.commitments.map(({ row }) => row));
  await writeContractCommitmentLoad(clickhouse, organizationId, rows);
  return { contracts: [...new Set(rows.map((row) => row.contract_id))].sort(), commitments: rows.length };
}

/** What an import's Contract Commitment dataset replaced, in a line for the operator. */
export function describeImportedContracts(contracts: ImportedContracts): string {
  return (
    `Contract Commitment dataset: ${contracts.commitments} commitment(s) of ${contracts.contracts.length} contract(s) ` +
    `(${contracts.contracts.join(', ') || 'none'}), each contract's earlier commitments replaced.`
  );
}
