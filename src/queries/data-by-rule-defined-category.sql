-- data-by-rule-defined-category: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   cat0 = "team"
--   cat1 = "Unowned"
--   cat2 = "2026-01"
--   cat3 = "Team"
--   cat4 = "2026-10"
--   cat5 = ["Amazon RDS"]
--   cat6 = "Data"
--   cat7 = "team"
--   cat8 = ["payments"]
--   cat9 = "Payments"
--   cat10 = "Team"
--   cat11 = ["Unowned"]
--   cat12 = "Team"
--   cat13 = "Unallocated"
--   cat14 = ["Amazon RDS"]
--   cat15 = "Data"
--   cat16 = "Unallocated"
--   cat17 = "2026-01"
--   cat18 = "BusinessUnit"
--   p0 = "BusinessUnit"
--   not_set = "(not set)"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p1 = "2026-10-01"
--   p2 = "2026-10-01"
--   p3 = "BusinessUnit"
--   p4 = ["Data"]
--   p5 = 50002
SELECT if(grouping(bucket_start) = 1, formatRowNoNewline('JSONEachRow', count() AS item_count, sum(part_amortized_cost) AS amortized_cost, sum(part_billed_cost) AS billed_cost, sum(part_cash_cost) AS cash_cost, sum(part_on_demand_cost) AS on_demand_cost, (((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)) AS total_savings, sum(part_enterprise_discount_savings) AS enterprise_discount_savings, sum(part_product_discount_savings) AS product_discount_savings, sum(part_partner_discount_savings) AS partner_discount_savings, sum(part_commitment_savings) AS commitment_savings, sum(part_spot_savings) AS spot_savings, sum(part_other_savings) AS other_savings), concat(',', formatRowNoNewline('JSONEachRow', bucket_start AS usage_date, dim_0 AS dimension_value, sum(part_amortized_cost) AS amortized_cost, sum(part_billed_cost) AS billed_cost, sum(part_cash_cost) AS cash_cost, sum(part_on_demand_cost) AS on_demand_cost, (((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)) AS total_savings, sum(part_enterprise_discount_savings) AS enterprise_discount_savings, sum(part_product_discount_savings) AS product_discount_savings, sum(part_partner_discount_savings) AS partner_discount_savings, sum(part_commitment_savings) AS commitment_savings, sum(part_spot_savings) AS spot_savings, sum(part_other_savings) AS other_savings))) AS line
FROM
(
    SELECT
        toStartOfMonth(usage_date) AS bucket_start,
        if(empty((arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p0:String}]), {not_set:String}, (arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p0:String}]) AS dim_0,
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
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p1:Date}) AND (toStartOfMonth(usage_date) <= {p2:Date})) AND (NOT (((arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p3:String}]) IN ({p4:Array(String)})))
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
LIMIT {p5:UInt64}
SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'
