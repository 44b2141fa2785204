-- compare-converted-by-tag: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   p0 = "team"
--   not_set = "(not set)"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p1 = "2026-09-01"
--   p2 = "2026-09-01"
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
--   p3 = "2026-10-01"
--   p4 = "2026-10-01"
--   p5 = 100003
SELECT
    side,
    bucket_start,
    dim_0,
    toUInt8(grouping(bucket_start)) AS all_buckets,
    toUInt8(grouping(dim_0)) AS all_values,
    toDecimal128(round(toDecimal128(sum(part_amortized_cost), 11), 10), 10) AS sum_amortized_cost,
    toDecimal128(round(toDecimal128(sum(part_billed_cost), 11), 10), 10) AS sum_billed_cost,
    toDecimal128(round(toDecimal128(sum(part_cash_cost), 11), 10), 10) AS sum_cash_cost,
    toDecimal128(round(toDecimal128(sum(part_on_demand_cost), 11), 10), 10) AS sum_on_demand_cost,
    toDecimal128(round(toDecimal128((((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)), 11), 10), 10) AS sum_total_savings,
    toDecimal128(round(toDecimal128(sum(part_enterprise_discount_savings), 11), 10), 10) AS sum_enterprise_discount_savings,
    toDecimal128(round(toDecimal128(sum(part_product_discount_savings), 11), 10), 10) AS sum_product_discount_savings,
    toDecimal128(round(toDecimal128(sum(part_partner_discount_savings), 11), 10), 10) AS sum_partner_discount_savings,
    toDecimal128(round(toDecimal128(sum(part_commitment_savings), 11), 10), 10) AS sum_commitment_savings,
    toDecimal128(round(toDecimal128(sum(part_spot_savings), 11), 10), 10) AS sum_spot_savings,
    toDecimal128(round(toDecimal128(sum(part_other_savings), 11), 10), 10) AS sum_other_savings
FROM
(
    SELECT
        0 AS side,
        toStartOfMonth(usage_date) AS bucket_start,
        if(empty(resource_tags[{p0:String}]), {not_set:String}, resource_tags[{p0:String}]) AS dim_0,
        toDecimal256(sum(amortized_cost), 10) AS part_amortized_cost,
        toDecimal256(sum(billed_cost), 10) AS part_billed_cost,
        toDecimal256(sum(cash_cost), 10) AS part_cash_cost,
        toDecimal256(sum(on_demand_cost), 10) AS part_on_demand_cost,
        toDecimal256(sum(enterprise_discount_savings), 10) AS part_enterprise_discount_savings,
        toDecimal256(sum(product_discount_savings), 10) AS part_product_discount_savings,
        toDecimal256(sum(partner_discount_savings), 10) AS part_partner_discount_savings,
        toDecimal256(sum(commitment_savings), 10) AS part_commitment_savings,
        toDecimal256(sum(spot_savings), 10) AS part_spot_savings,
        toDecimal256(sum(other_savings), 10) AS part_other_savings
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p1:Date}) AND (toStartOfMonth(usage_date) <= {p2:Date})) AND (billing_currency = {currency:String})
    GROUP BY
        bucket_start,
        dim_0
    UNION ALL
    SELECT
        0 AS side,
        toStartOfMonth(usage_date) AS bucket_start,
        if(empty(resource_tags[{p0:String}]), {not_set:String}, resource_tags[{p0:String}]) AS dim_0,
        toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS part_amortized_cost,
        toDecimal256(sum(billed_cost), 10) * group_rate AS part_billed_cost,
        toDecimal256(sum(cash_cost), 10) * group_rate AS part_cash_cost,
        toDecimal256(sum(on_demand_cost), 10) * group_rate AS part_on_demand_cost,
        toDecimal256(sum(enterprise_discount_savings), 10) * group_rate AS part_enterprise_discount_savings,
        toDecimal256(sum(product_discount_savings), 10) * group_rate AS part_product_discount_savings,
        toDecimal256(sum(partner_discount_savings), 10) * group_rate AS part_partner_discount_savings,
        toDecimal256(sum(commitment_savings), 10) * group_rate AS part_commitment_savings,
        toDecimal256(sum(spot_savings), 10) * group_rate AS part_spot_savings,
        toDecimal256(sum(other_savings), 10) * group_rate AS part_other_savings
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p1:Date}) AND (toStartOfMonth(usage_date) <= {p2:Date})) AND (billing_currency != {currency:String})
    GROUP BY
        bucket_start,
        dim_0,
        billing_currency,
        usage_date
    UNION ALL
    SELECT
        1 AS side,
        toStartOfMonth(usage_date) AS bucket_start,
        if(empty(resource_tags[{p0:String}]), {not_set:String}, resource_tags[{p0:String}]) AS dim_0,
        toDecimal256(sum(amortized_cost), 10) AS part_amortized_cost,
        toDecimal256(sum(billed_cost), 10) AS part_billed_cost,
        toDecimal256(sum(cash_cost), 10) AS part_cash_cost,
        toDecimal256(sum(on_demand_cost), 10) AS part_on_demand_cost,
        toDecimal256(sum(enterprise_discount_savings), 10) AS part_enterprise_discount_savings,
        toDecimal256(sum(product_discount_savings), 10) AS part_product_discount_savings,
        toDecimal256(sum(partner_discount_savings), 10) AS part_partner_discount_savings,
        toDecimal256(sum(commitment_savings), 10) AS part_commitment_savings,
        toDecimal256(sum(spot_savings), 10) AS part_spot_savings,
        toDecimal256(sum(other_savings), 10) AS part_other_savings
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p3:Date}) AND (toStartOfMonth(usage_date) <= {p4:Date})) AND (billing_currency = {currency:String})
    GROUP BY
        bucket_start,
        dim_0
    UNION ALL
    SELECT
        1 AS side,
        toStartOfMonth(usage_date) AS bucket_start,
        if(empty(resource_tags[{p0:String}]), {not_set:String}, resource_tags[{p0:String}]) AS dim_0,
        toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS part_amortized_cost,
        toDecimal256(sum(billed_cost), 10) * group_rate AS part_billed_cost,
        toDecimal256(sum(cash_cost), 10) * group_rate AS part_cash_cost,
        toDecimal256(sum(on_demand_cost), 10) * group_rate AS part_on_demand_cost,
        toDecimal256(sum(enterprise_discount_savings), 10) * group_rate AS part_enterprise_discount_savings,
        toDecimal256(sum(product_discount_savings), 10) * group_rate AS part_product_discount_savings,
        toDecimal256(sum(partner_discount_savings), 10) * group_rate AS part_partner_discount_savings,
        toDecimal256(sum(commitment_savings), 10) * group_rate AS part_commitment_savings,
        toDecimal256(sum(spot_savings), 10) * group_rate AS part_spot_savings,
        toDecimal256(sum(other_savings), 10) * group_rate AS part_other_savings
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p3:Date}) AND (toStartOfMonth(usage_date) <= {p4:Date})) AND (billing_currency != {currency:String})
    GROUP BY
        bucket_start,
        dim_0,
        billing_currency,
        usage_date
)
GROUP BY
    GROUPING SETS (
        (side, bucket_start, dim_0),
        (side, dim_0),
        (side))
LIMIT {p5:UInt64}
SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'
