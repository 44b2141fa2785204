import { compileWhere } from './filter-compiler';
import type { DateRange, OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';

/**
 * Contract commitments (FOCUS 1.3): the commitments in force, from the Contract Commitment dataset's loads, and what
 * the cost rows' ContractApplied elements drew from each of them.
 */

/** A commitment in force, as stored (decimal text; NULL where the dataset left an amount empty; times in UTC). */
export interface ContractCommitmentInForce {
  contract_id: string;
  contract_commitment_id: string;
  category: string;
  type: string;
  description: string;
  cost: string | null;
  quantity: string | null;
  unit: string;
  period_start: string;
  period_end: string;
  contract_period_start: string;
  contract_period_end: string;
  billing_currency: string;
}

/**
 * The organisation's contract commitments in force: each contract's rows of its latest complete load (a load cut
 * short is never read; a re-import replaces a contract whole), optionally of some contracts only.
 */
export function contractCommitmentsInForceSql(
  commitmentsTable: string,
  loadsTable: string,
  organizationId: string,
  contractIds?: readonly string[],
): CompiledSql {
  const params = new SqlParameters();
  const organization = params.named('organization_id', 'UUID', organizationId);
  const only = contractIds ? `AND contract_id IN ${params.add('Array(String)', [...contractIds])}` : '';
  const sql = [
    'SELECT contract_id, contract_commitment_id, category, type, description, toString(cost) AS cost,',
    '       toString(quantity) AS quantity, unit, toString(period_start) AS period_start, toString(period_end) AS period_end,',
    '       toString(contract_period_start) AS contract_period_start, toString(contract_period_end) AS contract_period_end,',
    '       billing_currency',
    `FROM ${commitmentsTable}`,
    `WHERE organization_id = ${organization} ${only}`,
    '  AND (contract_id, loaded_at) IN (',
    `    SELECT contract_id, max(loaded_at) FROM ${commitmentsTable}`,
    `    WHERE organization_id = ${organization} ${only}`,
    `      AND loaded_at IN (SELECT loaded_at FROM ${loadsTable} WHERE organization_id = ${organization} AND state = 'complete')`,
    '    GROUP BY contract_id)',
    'ORDER BY contract_id, contract_commitment_id',
  ].join('\n');
  return { sql, params: params.toObject() };
}

/** What the rows drew from one commitment on one day, in one billing currency (decimal text; quantity NULL when none was given). */
export interface AppliedDayRow {
  day: string;
  contract_commitment_id: string;
  billing_currency: string;
  applied_cost: string;
  applied_quantity: string | null;
}

export interface ContractAppliedQuery {
  /** The organisation and the key's data scope: a scoped key sees what its rows drew. */
  scope: OrganizationScope;
  window: DateRange;
  commitmentIds: readonly string[];
}

/**
 * Per day, commitment and billing currency: Σ ContractCommitmentAppliedCost and …AppliedQuantity of the ContractApplied
 * elements naming the commitment (`ContractCommitmentId`, or the `…ID` spelling of the 1.3 text), read exactly from
 * the JSON's number text (or a quoted number).
 */
export function buildContractAppliedQuery(table: string, query: ContractAppliedQuery): CompiledSql {
  const params = new SqlParameters();
  const where = compileWhere(query.scope, { inclusions: { dateRange: query.window } }, params, {
    today: query.window.end,
    defaultWindowDays: 1,
  });
  const decimal = (key: string) => `toDecimal128OrNull(trim(BOTH '"' FROM JSONExtractRaw(element, '${key}')), 10)`;
  const sql = [
    'SELECT toString(usage_date) AS day, contract_commitment_id, billing_currency,',
    '       toString(ifNull(sum(applied_cost), toDecimal128(0, 10))) AS applied_cost, toString(sum(applied_quantity)) AS applied_quantity',
    'FROM (',
    '  SELECT usage_date, billing_currency,',
    "         if(JSONHas(element, 'ContractCommitmentId'), JSONExtractString(element, 'ContractCommitmentId'),",
    "            JSONExtractString(element, 'ContractCommitmentID')) AS contract_commitment_id,",
    `         ${decimal('ContractCommitmentAppliedCost')} AS applied_cost, ${decimal('ContractCommitmentAppliedQuantity')} AS applied_quantity`,
    `  FROM ${table}`,
    "  ARRAY JOIN JSONExtractArrayRaw(contract_applied, 'Elements') AS element",
    `  WHERE ${where}`,
    "    AND contract_applied != ''",
    ')',
    `WHERE contract_commitment_id IN ${params.add('Array(String)', [...query.commitmentIds])}`,
    'GROUP BY day, contract_commitment_id, billing_currency',
    'ORDER BY day, contract_commitment_id, billing_currency',
  ].join('\n');
  return { sql, params: params.toObject() };
}
