-- data-page-daily-by-service-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
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
--   p2 = 100
--   p3 = 150
--   p4 = 10
SELECT
    kind,
    item_count,
    value_count,
    multiIf(kind = 2, formatRowNoNewline('JSONEachRow', bucket_start AS usage_date, dim_0 AS dimension_value, amortized_cost, billed_cost, cash_cost, on_demand_cost, total_savings, enterprise_discount_savings, product_discount_savings, partner_discount_savings, commitment_savings, spot_savings, other_savings), kind = 1, formatRowNoNewline('JSONEachRow', dim_0 AS dimension_value, amortized_cost, billed_cost), formatRowNoNewline('JSONEachRow', converted_currencies, amortized_cost, billed_cost, cash_cost, on_demand_cost, total_savings, enterprise_discount_savings, product_discount_savings, partner_discount_savings, commitment_savings, spot_savings, other_savings)) AS line
FROM
(
    SELECT
        *,
        countIf(kind = 2) OVER () AS item_count,
        countIf(kind = 1) OVER () AS value_count,
        row_number() OVER (PARTITION BY kind ORDER BY bucket_start ASC, dim_0 ASC) AS item_rank,
        row_number() OVER (PARTITION BY kind ORDER BY amortized_cost DESC, first_bucket ASC, dim_0 ASC) AS value_rank
    FROM
    (
        SELECT
            multiIf(grouping(bucket_start) = 0, 2, grouping(dim_0) = 0, 1, 0) AS kind,
            bucket_start,
            dim_0,
            toDecimal128(round(toDecimal128(sum(part_amortized_cost), 11), 10), 10) AS amortized_cost,
            toDecimal128(round(toDecimal128(sum(part_billed_cost), 11), 10), 10) AS billed_cost,
            toDecimal128(round(toDecimal128(sum(part_cash_cost), 11), 10), 10) AS cash_cost,
            toDecimal128(round(toDecimal128(sum(part_on_demand_cost), 11), 10), 10) AS on_demand_cost,
            toDecimal128(round(toDecimal128((((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)), 11), 10), 10) AS total_savings,
            toDecimal128(round(toDecimal128(sum(part_enterprise_discount_savings), 11), 10), 10) AS enterprise_discount_savings,
            toDecimal128(round(toDecimal128(sum(part_product_discount_savings), 11), 10), 10) AS product_discount_savings,
            toDecimal128(round(toDecimal128(sum(part_partner_discount_savings), 11), 10), 10) AS partner_discount_savings,
            toDecimal128(round(toDecimal128(sum(part_commitment_savings), 11), 10), 10) AS commitment_savings,
            toDecimal128(round(toDecimal128(sum(part_spot_savings), 11), 10), 10) AS spot_savings,
            toDecimal128(round(toDecimal128(sum(part_other_savings), 11), 10), 10) AS other_savings,
            arrayMap(bit -> ({converted_codes:Array(String)}[bit + 1]), bitPositionsToArray(groupBitOr(currency_bit))) AS converted_currencies,
            min(bucket_start) AS first_bucket
        FROM
        (
            SELECT
                usage_date AS bucket_start,
                if(empty(service), {not_set:String}, service) AS dim_0,
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
                if(empty(service), {not_set:String}, service) AS dim_0,
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
                (dim_0),
                ())
    )
)
WHERE (kind = 0) OR ((kind = 1) AND (value_rank <= {p4:UInt64})) OR ((kind = 2) AND (item_rank > {p2:UInt64}) AND (item_rank <= {p3:UInt64}))
ORDER BY
    kind ASC,
    if(kind = 1, value_rank, item_rank) ASC
SETTINGS preferred_optimize_projection_name = 'daily_dimension_sums'
