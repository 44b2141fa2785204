-- contract-commitments.write-contract-commitment-load: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 3, sent by insert
INSERT INTO cost_insights.contract_commitment_loads (organization_id, loaded_at, state) FORMAT JSONEachRow;

-- statement 2 of 3, sent by insert
INSERT INTO cost_insights.contract_commitments (organization_id, loaded_at, contract_id, contract_commitment_id, category, type, description, cost, quantity, unit, period_start, period_end, contract_period_start, contract_period_end, billing_currency) FORMAT JSONEachRow;

-- statement 3 of 3, sent by insert
INSERT INTO cost_insights.contract_commitment_loads (organization_id, loaded_at, state) FORMAT JSONEachRow;
