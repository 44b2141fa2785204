-- data-by-rule-defined-category-from-category-sums: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   p0 = "BusinessUnit"
--   not_set = "(not set)"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   category_build_id = "4b7e2d1c-9a8f-4e6d-b5c4-3a2b1c0d9e8f"
--   p1 = "2026-10-01"
--   p2 = "2026-10-01"
--   p3 = 50002
SELECT if(grouping(bucket_start) = 1, formatRowNoNewline('JSONEachRow', count() AS item_count, sum(part_amortized_cost) AS amortized_cost, sum(part_billed_cost) AS billed_cost, sum(part_cash_cost) AS cash_cost, sum(part_on_demand_cost) AS on_demand_cost, (((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)) AS total_savings, sum(part_enterprise_discount_savings) AS enterprise_discount_savings, sum(part_product_discount_savings) AS product_discount_savings, sum(part_partner_discount_savings) AS partner_discount_savings, sum(part_commitment_savings) AS commitment_savings, sum(part_spot_savings) AS spot_savings, sum(part_other_savings) AS other_savings), concat(',', formatRowNoNewline('JSONEachRow', bucket_start AS usage_date, dim_0 AS dimension_value, sum(part_amortized_cost) AS amortized_cost, sum(part_billed_cost) AS billed_cost, sum(part_cash_cost) AS cash_cost, sum(part_on_demand_cost) AS on_demand_cost, (((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)) AS total_savings, sum(part_enterprise_discount_savings) AS enterprise_discount_savings, sum(part_product_discount_savings) AS product_discount_savings, sum(part_partner_discount_savings) AS partner_discount_savings, sum(part_commitment_savings) AS commitment_savings, sum(part_spot_savings) AS spot_savings, sum(part_other_savings) AS other_savings))) AS line
FROM
(
    SELECT
        usage_date AS bucket_start,
        if(empty(cost_categories[{p0:String}]), {not_set:String}, cost_categories[{p0:String}]) AS dim_0,
        sum(amortized_cost) AS part_amortized_cost,
        sum(billed_cost) AS part_billed_cost,
        sum(cash_cost) AS part_cash_cost,
        sum(on_demand_cost) AS part_on_demand_cost,
        sum(enterprise_discount_savings) AS part_enterprise_discount_savings,
        sum(product_discount_savings) AS part_product_discount_savings,
        sum(partner_discount_savings) AS part_partner_discount_savings,
        sum(commitment_savings) AS part_commitment_savings,
        sum(spot_savings) AS part_spot_savings,
        sum(other_savings) AS part_other_savings
    FROM cost_insights.category_value_sums
    WHERE (organization_id = {organization_id:UUID}) AND (build_id = {category_build_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p1:Date}) AND (toStartOfMonth(usage_date) <= {p2:Date}))
    GROUP BY
        bucket_start,
        dim_0
)
GROUP BY
    GROUPING SETS (
        (bucket_start, dim_0),
        ())
ORDER BY
    grouping(bucket_start) = 1 DESC,
    bucket_start ASC,
    dim_0 ASC
LIMIT {p3:UInt64}
SETTINGS preferred_optimize_projection_name = 'daily_category_sums'
