-- commitments-window-eligibility-found: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "2026-10-01"
--   p1 = "2026-10-01"
SELECT
    multiIf(grouping(service) = 0, 'service', (grouping(commitment_discount_id) = 1) AND (grouping(type) = 0), 'program_type', grouping(commitment_discount_id) = 1, 'total', 'commitment') AS kind,
    '' AS bucket_date,
    commitment_discount_id,
    name,
    type,
    category,
    provider,
    billing_account_id,
    service,
    toUInt8(max(applied)) AS applied,
    toString(sumIf(amortized, status = 'used')) AS used_cost,
    toString(sumIf(amortized, status = 'unused')) AS unused_cost,
    toString(sumIf(on_demand, status = 'used')) AS on_demand_equivalent,
    toString(sumIf(on_demand, eligible AND (commitment_discount_id != ''))) AS covered_list,
    toString(sumIf(on_demand, eligible)) AS eligible_list,
    toString(sumIf(quantity, status = 'used')) AS used_quantity,
    toString(sumIf(quantity, status = 'unused')) AS unused_quantity,
    anyIf(unit, unit != '') AS unit
FROM
(
    SELECT
        bucket,
        commitment_discount_id,
        commitment_discount_name AS name,
        commitment_discount_type AS type,
        commitment_discount_category AS category,
        cloud AS provider,
        billing_account_id,
        service,
        commitment_discount_unit AS unit,
        amortized,
        on_demand,
        quantity,
        lower(commitment_discount_status) AS status,
        (commitment_discount_id != '') AND (charge_category = 'Usage') AND (status = 'used') AS applied,
        groupUniqArrayIf(type, applied AND (type != '')) OVER () AS applied_types,
        (charge_category = 'Usage') AND (status != 'unused') AND if(commitment_program_eligibility != '', (commitment_discount_id != '') OR arrayExists(p -> has(applied_types, JSONExtractString(p, 'ProgramType')), JSONExtractArrayRaw(commitment_program_eligibility, 'CommitmentPrograms')), max(applied) OVER (PARTITION BY service) = 1) AS eligible
    FROM
    (
        SELECT
            toDate(0) AS bucket,
            commitment_discount_id,
            commitment_discount_name,
            commitment_discount_type,
            commitment_discount_category,
            commitment_discount_status,
            commitment_discount_unit,
            commitment_program_eligibility,
            charge_category,
            service,
            cloud,
            billing_account_id,
            sum(amortized_cost) AS amortized,
            sum(on_demand_cost) AS on_demand,
            sum(commitment_discount_quantity) AS quantity
        FROM cost_insights.cost_line_items
        WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date})) AND ((commitment_discount_id != '') OR (charge_category = 'Usage'))
        GROUP BY
            bucket,
            commitment_discount_id,
            commitment_discount_name,
            commitment_discount_type,
            commitment_discount_category,
            commitment_discount_status,
            commitment_discount_unit,
            commitment_program_eligibility,
            charge_category,
            service,
            cloud,
            billing_account_id
    )
)
GROUP BY
    GROUPING SETS (
        (),
        (commitment_discount_id, name, type, category, provider, billing_account_id),
        (service),
        (type))
ORDER BY
    kind ASC,
    commitment_discount_id ASC,
    name ASC,
    type ASC,
    category ASC,
    provider ASC,
    billing_account_id ASC,
    service ASC
SETTINGS preferred_optimize_projection_name = 'monthly_commitment_sums'
