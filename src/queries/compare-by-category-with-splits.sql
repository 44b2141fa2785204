-- compare-by-category-with-splits: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   cat0 = "team"
--   cat1 = "Shared"
--   cat2 = "2026-10"
--   cat3 = "Owner"
--   p0 = "Owner"
--   not_set = "(not set)"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p1 = "2026-09-01"
--   p2 = "2026-09-01"
--   p3 = "2026-10-01"
--   p4 = "2026-10-01"
--   p5 = ["2026-10-02","2026-10-02"]
--   p6 = ["",""]
--   p7 = ["EUR","EUR"]
--   p8 = ["Shared","data"]
--   p9 = ["Shared","data"]
--   p10 = ["-10","10"]
--   p11 = ["-10","10"]
--   p12 = ["-10","10"]
--   p13 = ["-10","10"]
--   p14 = ["-10","10"]
--   p15 = ["-10","10"]
--   p16 = ["-10","10"]
--   p17 = ["-10","10"]
--   p18 = ["-10","10"]
--   p19 = ["-10","10"]
--   p20 = ["0","10"]
--   p21 = ["10","0"]
--   p22 = 2
--   p23 = "Owner"
--   p24 = 100003
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
        if(empty(mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p0:String}]), {not_set:String}, mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p0:String}]) AS dim_0,
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
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p1:Date}) AND (toStartOfMonth(usage_date) <= {p2:Date}))
    GROUP BY
        bucket_start,
        dim_0
    UNION ALL
    SELECT
        1 AS side,
        toStartOfMonth(usage_date) AS bucket_start,
        if(empty(mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p0:String}]), {not_set:String}, mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p0:String}]) AS dim_0,
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
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p3:Date}) AND (toStartOfMonth(usage_date) <= {p4:Date}))
    GROUP BY
        bucket_start,
        dim_0
    UNION ALL
    SELECT
        1 AS side,
        toStartOfMonth(usage_date) AS bucket_start,
        split_dim_0 AS dim_0,
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
    FROM
    (
        SELECT
            {p5:Array(Date)}[split_row] AS usage_date,
            {p6:Array(String)}[split_row] AS billing_period,
            {p7:Array(String)}[split_row] AS billing_currency,
            {p8:Array(String)}[split_row] AS split_value,
            {p9:Array(String)}[split_row] AS split_dim_0,
            toDecimal128({p10:Array(String)}[split_row], 10) AS amortized_cost,
            toDecimal128({p11:Array(String)}[split_row], 10) AS billed_cost,
            toDecimal128({p12:Array(String)}[split_row], 10) AS cash_cost,
            toDecimal128({p13:Array(String)}[split_row], 10) AS on_demand_cost,
            toDecimal128({p14:Array(String)}[split_row], 10) AS enterprise_discount_savings,
            toDecimal128({p15:Array(String)}[split_row], 10) AS product_discount_savings,
            toDecimal128({p16:Array(String)}[split_row], 10) AS partner_discount_savings,
            toDecimal128({p17:Array(String)}[split_row], 10) AS commitment_savings,
            toDecimal128({p18:Array(String)}[split_row], 10) AS spot_savings,
            toDecimal128({p19:Array(String)}[split_row], 10) AS other_savings,
            toDecimal128({p20:Array(String)}[split_row], 10) AS split_in,
            toDecimal128({p21:Array(String)}[split_row], 10) AS split_out
        FROM
        (
            SELECT arrayJoin(range(1, {p22:UInt64} + 1)) AS split_row
        )
    )
    WHERE 1
    GROUP BY
        bucket_start,
        dim_0
)
GROUP BY
    GROUPING SETS (
        (side, bucket_start, dim_0),
        (side, dim_0),
        (side))
LIMIT {p24:UInt64}
SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'
