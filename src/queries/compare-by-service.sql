-- compare-by-service: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   not_set = "(not set)"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "2026-09-01"
--   p1 = "2026-09-01"
--   p2 = "2026-10-01"
--   p3 = "2026-10-01"
--   p4 = 100003
SELECT
    side,
    bucket_start,
    dim_0,
    toUInt8(grouping(bucket_start)) AS all_buckets,
    toUInt8(grouping(dim_0)) AS all_values,
    sum(part_amortized_cost) AS sum_amortized_cost,
    sum(part_billed_cost) AS sum_billed_cost,
    sum(part_cash_cost) AS sum_cash_cost,
    sum(part_on_demand_cost) AS sum_on_demand_cost,
    (((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)) AS sum_total_savings,
    sum(part_enterprise_discount_savings) AS sum_enterprise_discount_savings,
    sum(part_product_discount_savings) AS sum_product_discount_savings,
    sum(part_partner_discount_savings) AS sum_partner_discount_savings,
    sum(part_commitment_savings) AS sum_commitment_savings,
    sum(part_spot_savings) AS sum_spot_savings,
    sum(part_other_savings) AS sum_other_savings
FROM
(
    SELECT
        0 AS side,
        toStartOfMonth(usage_date) AS bucket_start,
        if(empty(service), {not_set:String}, service) AS dim_0,
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
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date}))
    GROUP BY
        bucket_start,
        dim_0
    UNION ALL
    SELECT
        1 AS side,
        toStartOfMonth(usage_date) AS bucket_start,
        if(empty(service), {not_set:String}, service) AS dim_0,
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
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p2:Date}) AND (toStartOfMonth(usage_date) <= {p3:Date}))
    GROUP BY
        bucket_start,
        dim_0
)
GROUP BY
    GROUPING SETS (
        (side, bucket_start, dim_0),
        (side, dim_0),
        (side))
LIMIT {p4:UInt64}
SETTINGS preferred_optimize_projection_name = 'monthly_dimension_sums'
