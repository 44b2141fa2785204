-- contract-commitments.contract-commitments-in-force: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = ["C-1"]
SELECT
    contract_id,
    contract_commitment_id,
    category,
    type,
    description,
    toString(cost) AS cost,
    toString(quantity) AS quantity,
    unit,
    toString(period_start) AS period_start,
    toString(period_end) AS period_end,
    toString(contract_period_start) AS contract_period_start,
    toString(contract_period_end) AS contract_period_end,
    billing_currency
FROM cost_insights.contract_commitments
WHERE (organization_id = {organization_id:UUID}) AND (contract_id IN ({p0:Array(String)})) AND ((contract_id, loaded_at) IN (
    SELECT
        contract_id,
        max(loaded_at)
    FROM cost_insights.contract_commitments
    WHERE (organization_id = {organization_id:UUID}) AND (contract_id IN ({p0:Array(String)})) AND (loaded_at IN (
        SELECT loaded_at
        FROM cost_insights.contract_commitment_loads
        WHERE (organization_id = {organization_id:UUID}) AND (state = 'complete')
    ))
    GROUP BY contract_id
))
ORDER BY
    contract_id ASC,
    contract_commitment_id ASC;
