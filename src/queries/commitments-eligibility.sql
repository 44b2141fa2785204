-- commitments-eligibility: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "2026-10-01"
--   p1 = "2026-10-01"
SELECT
    arraySort(groupUniqArray(1001)(service)) AS services,
    arraySort(groupUniqArrayIf(1001)(commitment_discount_type, commitment_discount_type != '')) AS program_types
FROM
(
    SELECT
        service,
        commitment_discount_type,
        count() AS line_items
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date})) AND (commitment_discount_id != '') AND (charge_category = 'Usage') AND (lower(commitment_discount_status) = 'used')
    GROUP BY
        service,
        commitment_discount_type
)
SETTINGS preferred_optimize_projection_name = 'monthly_commitment_sums'
