-- data-converted-monthly-by-account-from-converted-sums: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   not_set = "(not set)"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "2026-10-01"
--   p1 = "2026-10-01"
--   build_id = "9d1c4f2a-5b6e-4a7d-8c9b-0e1f2a3b4c5d"
--   converted_codes = ["EUR"]
--   p2 = 50002
SELECT if(grouping(bucket_start) = 1, formatRowNoNewline('JSONEachRow', count() AS item_count, arrayMap(bit -> ({converted_codes:Array(String)}[bit + 1]), bitPositionsToArray(groupBitOr(currency_bit))) AS converted_currencies, toDecimal128(round(toDecimal128(sum(part_amortized_cost), 11), 10), 10) AS amortized_cost, toDecimal128(round(toDecimal128(sum(part_billed_cost), 11), 10), 10) AS billed_cost, toDecimal128(round(toDecimal128(sum(part_cash_cost), 11), 10), 10) AS cash_cost, toDecimal128(round(toDecimal128(sum(part_on_demand_cost), 11), 10), 10) AS on_demand_cost, toDecimal128(round(toDecimal128((((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)), 11), 10), 10) AS total_savings, toDecimal128(round(toDecimal128(sum(part_enterprise_discount_savings), 11), 10), 10) AS enterprise_discount_savings, toDecimal128(round(toDecimal128(sum(part_product_discount_savings), 11), 10), 10) AS product_discount_savings, toDecimal128(round(toDecimal128(sum(part_partner_discount_savings), 11), 10), 10) AS partner_discount_savings, toDecimal128(round(toDecimal128(sum(part_commitment_savings), 11), 10), 10) AS commitment_savings, toDecimal128(round(toDecimal128(sum(part_spot_savings), 11), 10), 10) AS spot_savings, toDecimal128(round(toDecimal128(sum(part_other_savings), 11), 10), 10) AS other_savings), concat(',', formatRowNoNewline('JSONEachRow', bucket_start AS usage_date, dim_0 AS dimension_value, toDecimal128(round(toDecimal128(sum(part_amortized_cost), 11), 10), 10) AS amortized_cost, toDecimal128(round(toDecimal128(sum(part_billed_cost), 11), 10), 10) AS billed_cost, toDecimal128(round(toDecimal128(sum(part_cash_cost), 11), 10), 10) AS cash_cost, toDecimal128(round(toDecimal128(sum(part_on_demand_cost), 11), 10), 10) AS on_demand_cost, toDecimal128(round(toDecimal128((((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)), 11), 10), 10) AS total_savings, toDecimal128(round(toDecimal128(sum(part_enterprise_discount_savings), 11), 10), 10) AS enterprise_discount_savings, toDecimal128(round(toDecimal128(sum(part_product_discount_savings), 11), 10), 10) AS product_discount_savings, toDecimal128(round(toDecimal128(sum(part_partner_discount_savings), 11), 10), 10) AS partner_discount_savings, toDecimal128(round(toDecimal128(sum(part_commitment_savings), 11), 10), 10) AS commitment_savings, toDecimal128(round(toDecimal128(sum(part_spot_savings), 11), 10), 10) AS spot_savings, toDecimal128(round(toDecimal128(sum(part_other_savings), 11), 10), 10) AS other_savings))) AS line
FROM
(
    SELECT
        toStartOfMonth(usage_date) AS bucket_start,
        if(empty(account_id), {not_set:String}, account_id) AS dim_0,
        groupBitOr(converted_bit) AS currency_bit,
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
    FROM cost_insights.converted_cost_sums
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date})) AND (build_id = {build_id:UUID})
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
LIMIT {p2:UInt64}
SETTINGS preferred_optimize_projection_name = 'monthly_dimension_sums'
