-- contract-applied-scoped: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "team"
--   p1 = ["payments"]
--   p2 = ["Oracle"]
--   p3 = "2025-12-01"
--   p4 = "2026-11-24"
--   p5 = ["CMT-SPEND-001","CMT-RI-002"]
SELECT
    toString(usage_date) AS day,
    contract_commitment_id,
    billing_currency,
    toString(ifNull(sum(applied_cost), toDecimal128(0, 10))) AS applied_cost,
    toString(sum(applied_quantity)) AS applied_quantity
FROM
(
    SELECT
        usage_date,
        billing_currency,
        if(JSONHas(element, 'ContractCommitmentId'), JSONExtractString(element, 'ContractCommitmentId'), JSONExtractString(element, 'ContractCommitmentID')) AS contract_commitment_id,
        toDecimal128OrNull(trimBoth(JSONExtractRaw(element, 'ContractCommitmentAppliedCost'), '"'), 10) AS applied_cost,
        toDecimal128OrNull(trimBoth(JSONExtractRaw(element, 'ContractCommitmentAppliedQuantity'), '"'), 10) AS applied_quantity
    FROM cost_insights.cost_line_items
    ARRAY JOIN JSONExtractArrayRaw(contract_applied, 'Elements') AS element
    WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND ((usage_date >= {p3:Date}) AND (usage_date <= {p4:Date})) AND (contract_applied != '')
)
WHERE contract_commitment_id IN ({p5:Array(String)})
GROUP BY
    day,
    contract_commitment_id,
    billing_currency
ORDER BY
    day ASC,
    contract_commitment_id ASC,
    billing_currency ASC
