-- data-converted-daily-by-billing-currency: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   not_set = "(not set)"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "2026-10-01"
--   p1 = "2026-10-01"
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
--   p2 = 50002
SELECT if(grouping(bucket_start) = 1, formatRowNoNewline('JSONEachRow', uniqExact(bucket_start, dim_0) AS item_count, arrayMap(bit -> ({converted_codes:Array(String)}[bit + 1]), bitPositionsToArray(groupBitOr(currency_bit))) AS converted_currencies, toDecimal128(round(toDecimal128(sum(part_amortized_cost), 11), 10), 10) AS amortized_cost, toDecimal128(round(toDecimal128(sum(part_billed_cost), 11), 10), 10) AS billed_cost, toDecimal128(round(toDecimal128(sum(part_cash_cost), 11), 10), 10) AS cash_cost, toDecimal128(round(toDecimal128(sum(part_on_demand_cost), 11), 10), 10) AS on_demand_cost, toDecimal128(round(toDecimal128((((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)), 11), 10), 10) AS total_savings, toDecimal128(round(toDecimal128(sum(part_enterprise_discount_savings), 11), 10), 10) AS enterprise_discount_savings, toDecimal128(round(toDecimal128(sum(part_product_discount_savings), 11), 10), 10) AS product_discount_savings, toDecimal128(round(toDecimal128(sum(part_partner_discount_savings), 11), 10), 10) AS partner_discount_savings, toDecimal128(round(toDecimal128(sum(part_commitment_savings), 11), 10), 10) AS commitment_savings, toDecimal128(round(toDecimal128(sum(part_spot_savings), 11), 10), 10) AS spot_savings, toDecimal128(round(toDecimal128(sum(part_other_savings), 11), 10), 10) AS other_savings), concat(',', formatRowNoNewline('JSONEachRow', bucket_start AS usage_date, dim_0 AS dimension_value, toDecimal128(round(toDecimal128(sum(part_amortized_cost), 11), 10), 10) AS amortized_cost, toDecimal128(round(toDecimal128(sum(part_billed_cost), 11), 10), 10) AS billed_cost, toDecimal128(round(toDecimal128(sum(part_cash_cost), 11), 10), 10) AS cash_cost, toDecimal128(round(toDecimal128(sum(part_on_demand_cost), 11), 10), 10) AS on_demand_cost, toDecimal128(round(toDecimal128((((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)), 11), 10), 10) AS total_savings, toDecimal128(round(toDecimal128(sum(part_enterprise_discount_savings), 11), 10), 10) AS enterprise_discount_savings, toDecimal128(round(toDecimal128(sum(part_product_discount_savings), 11), 10), 10) AS product_discount_savings, toDecimal128(round(toDecimal128(sum(part_partner_discount_savings), 11), 10), 10) AS partner_discount_savings, toDecimal128(round(toDecimal128(sum(part_commitment_savings), 11), 10), 10) AS commitment_savings, toDecimal128(round(toDecimal128(sum(part_spot_savings), 11), 10), 10) AS spot_savings, toDecimal128(round(toDecimal128(sum(part_other_savings), 11), 10), 10) AS other_savings))) AS line
FROM
(
    SELECT
        usage_date AS bucket_start,
        if(empty(billing_currency), {not_set:String}, billing_currency) AS dim_0,
        toUInt64(0) AS currency_bit,
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
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date})) AND (billing_currency = {currency:String})
    GROUP BY
        bucket_start,
        dim_0
    UNION ALL
    SELECT
        usage_date AS bucket_start,
        if(empty(billing_currency), {not_set:String}, billing_currency) AS dim_0,
        transform(billing_currency, {converted_codes:Array(String)}, {converted_bits:Array(UInt64)}, toUInt64(0)) AS currency_bit,
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
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date})) AND (billing_currency != {currency:String})
    GROUP BY
        bucket_start,
        dim_0,
        billing_currency,
        usage_date
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
SETTINGS preferred_optimize_projection_name = 'daily_dimension_sums'
