-- data-with-split-adjustments-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   cat0 = "team"
--   cat1 = "Shared"
--   cat2 = "2026-10"
--   cat3 = "Owner"
--   p0 = "Owner"
--   not_set = "(not set)"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p1 = "2026-10-01"
--   p2 = "2026-10-01"
--   p3 = "Owner"
--   p4 = ["data"]
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
--   p5 = ["2026-10-02","2026-10-02"]
--   p6 = ["",""]
--   p7 = ["EUR","EUR"]
--   p8 = ["Shared","data"]
--   p9 = ["Shared","data"]
--   p10 = ["Amazon EC2","Amazon EC2"]
--   p11 = ["-10","10"]
--   p12 = ["-10","10"]
--   p13 = ["-10","10"]
--   p14 = ["-10","10"]
--   p15 = ["-10","10"]
--   p16 = ["-10","10"]
--   p17 = ["-10","10"]
--   p18 = ["-10","10"]
--   p19 = ["-10","10"]
--   p20 = ["-10","10"]
--   p21 = ["0","10"]
--   p22 = ["10","0"]
--   p23 = 2
--   p24 = "Owner"
--   p25 = "Owner"
--   p26 = ["data"]
--   p27 = 50002
SELECT if(grouping(bucket_start) = 1, formatRowNoNewline('JSONEachRow', uniqExact(bucket_start, dim_0, dim_1) AS item_count, arrayMap(bit -> ({converted_codes:Array(String)}[bit + 1]), bitPositionsToArray(groupBitOr(currency_bit))) AS converted_currencies, toDecimal128(round(toDecimal128(sum(part_amortized_cost), 11), 10), 10) AS amortized_cost, toDecimal128(round(toDecimal128(sum(part_billed_cost), 11), 10), 10) AS billed_cost, toDecimal128(round(toDecimal128(sum(part_cash_cost), 11), 10), 10) AS cash_cost, toDecimal128(round(toDecimal128(sum(part_on_demand_cost), 11), 10), 10) AS on_demand_cost, toDecimal128(round(toDecimal128((((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)), 11), 10), 10) AS total_savings, toDecimal128(round(toDecimal128(sum(part_enterprise_discount_savings), 11), 10), 10) AS enterprise_discount_savings, toDecimal128(round(toDecimal128(sum(part_product_discount_savings), 11), 10), 10) AS product_discount_savings, toDecimal128(round(toDecimal128(sum(part_partner_discount_savings), 11), 10), 10) AS partner_discount_savings, toDecimal128(round(toDecimal128(sum(part_commitment_savings), 11), 10), 10) AS commitment_savings, toDecimal128(round(toDecimal128(sum(part_spot_savings), 11), 10), 10) AS spot_savings, toDecimal128(round(toDecimal128(sum(part_other_savings), 11), 10), 10) AS other_savings), concat(',', formatRowNoNewline('JSONEachRow', bucket_start AS usage_date, toDecimal128(round(toDecimal128(sum(part_amortized_cost), 11), 10), 10) AS amortized_cost, toDecimal128(round(toDecimal128(sum(part_billed_cost), 11), 10), 10) AS billed_cost, toDecimal128(round(toDecimal128(sum(part_cash_cost), 11), 10), 10) AS cash_cost, toDecimal128(round(toDecimal128(sum(part_on_demand_cost), 11), 10), 10) AS on_demand_cost, toDecimal128(round(toDecimal128((((((sum(part_enterprise_discount_savings) + sum(part_product_discount_savings)) + sum(part_partner_discount_savings)) + sum(part_commitment_savings)) + sum(part_spot_savings)) + sum(part_other_savings)), 11), 10), 10) AS total_savings, toDecimal128(round(toDecimal128(sum(part_enterprise_discount_savings), 11), 10), 10) AS enterprise_discount_savings, toDecimal128(round(toDecimal128(sum(part_product_discount_savings), 11), 10), 10) AS product_discount_savings, toDecimal128(round(toDecimal128(sum(part_partner_discount_savings), 11), 10), 10) AS partner_discount_savings, toDecimal128(round(toDecimal128(sum(part_commitment_savings), 11), 10), 10) AS commitment_savings, toDecimal128(round(toDecimal128(sum(part_spot_savings), 11), 10), 10) AS spot_savings, toDecimal128(round(toDecimal128(sum(part_other_savings), 11), 10), 10) AS other_savings, toDecimal128(round(toDecimal128(sum(part_split_in), 11), 10), 10) AS split_in, toDecimal128(round(toDecimal128(sum(part_split_out), 11), 10), 10) AS split_out))) AS line
FROM
(
    SELECT
        usage_date AS bucket_start,
        if(empty(mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p0:String}]), {not_set:String}, mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p0:String}]) AS dim_0,
        if(empty(service), {not_set:String}, service) AS dim_1,
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
        toDecimal256(sum(other_savings), 10) AS part_other_savings,
        toDecimal128(0, 10) AS part_split_in,
        toDecimal128(0, 10) AS part_split_out
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p1:Date}) AND (toStartOfMonth(usage_date) <= {p2:Date})) AND ((mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p3:String}]) IN ({p4:Array(String)})) AND (billing_currency = {currency:String})
    GROUP BY
        bucket_start,
        dim_0,
        dim_1
    UNION ALL
    SELECT
        usage_date AS bucket_start,
        if(empty(mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p0:String}]), {not_set:String}, mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p0:String}]) AS dim_0,
        if(empty(service), {not_set:String}, service) AS dim_1,
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
        toDecimal256(sum(other_savings), 10) * group_rate AS part_other_savings,
        toDecimal128(0, 10) AS part_split_in,
        toDecimal128(0, 10) AS part_split_out
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p1:Date}) AND (toStartOfMonth(usage_date) <= {p2:Date})) AND ((mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p3:String}]) IN ({p4:Array(String)})) AND (billing_currency != {currency:String})
    GROUP BY
        bucket_start,
        dim_0,
        dim_1,
        billing_currency,
        usage_date
    UNION ALL
    SELECT
        usage_date AS bucket_start,
        split_dim_0 AS dim_0,
        split_dim_1 AS dim_1,
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
        toDecimal256(sum(other_savings), 10) AS part_other_savings,
        toDecimal256(sum(split_in), 10) AS part_split_in,
        toDecimal256(sum(split_out), 10) AS part_split_out
    FROM
    (
        SELECT
            {p5:Array(Date)}[split_row] AS usage_date,
            {p6:Array(String)}[split_row] AS billing_period,
            {p7:Array(String)}[split_row] AS billing_currency,
            {p8:Array(String)}[split_row] AS split_value,
            {p9:Array(String)}[split_row] AS split_dim_0,
            {p10:Array(String)}[split_row] AS split_dim_1,
            toDecimal128({p11:Array(String)}[split_row], 10) AS amortized_cost,
            toDecimal128({p12:Array(String)}[split_row], 10) AS billed_cost,
            toDecimal128({p13:Array(String)}[split_row], 10) AS cash_cost,
            toDecimal128({p14:Array(String)}[split_row], 10) AS on_demand_cost,
            toDecimal128({p15:Array(String)}[split_row], 10) AS enterprise_discount_savings,
            toDecimal128({p16:Array(String)}[split_row], 10) AS product_discount_savings,
            toDecimal128({p17:Array(String)}[split_row], 10) AS partner_discount_savings,
            toDecimal128({p18:Array(String)}[split_row], 10) AS commitment_savings,
            toDecimal128({p19:Array(String)}[split_row], 10) AS spot_savings,
            toDecimal128({p20:Array(String)}[split_row], 10) AS other_savings,
            toDecimal128({p21:Array(String)}[split_row], 10) AS split_in,
            toDecimal128({p22:Array(String)}[split_row], 10) AS split_out
        FROM
        (
            SELECT arrayJoin(range(1, {p23:UInt64} + 1)) AS split_row
        )
    )
    WHERE ((map({p24:String}, split_value)[{p25:String}]) IN ({p26:Array(String)})) AND (billing_currency = {currency:String})
    GROUP BY
        bucket_start,
        dim_0,
        dim_1
    UNION ALL
    SELECT
        usage_date AS bucket_start,
        split_dim_0 AS dim_0,
        split_dim_1 AS dim_1,
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
        toDecimal256(sum(other_savings), 10) * group_rate AS part_other_savings,
        toDecimal256(sum(split_in), 10) * group_rate AS part_split_in,
        toDecimal256(sum(split_out), 10) * group_rate AS part_split_out
    FROM
    (
        SELECT
            {p5:Array(Date)}[split_row] AS usage_date,
            {p6:Array(String)}[split_row] AS billing_period,
            {p7:Array(String)}[split_row] AS billing_currency,
            {p8:Array(String)}[split_row] AS split_value,
            {p9:Array(String)}[split_row] AS split_dim_0,
            {p10:Array(String)}[split_row] AS split_dim_1,
            toDecimal128({p11:Array(String)}[split_row], 10) AS amortized_cost,
            toDecimal128({p12:Array(String)}[split_row], 10) AS billed_cost,
            toDecimal128({p13:Array(String)}[split_row], 10) AS cash_cost,
            toDecimal128({p14:Array(String)}[split_row], 10) AS on_demand_cost,
            toDecimal128({p15:Array(String)}[split_row], 10) AS enterprise_discount_savings,
            toDecimal128({p16:Array(String)}[split_row], 10) AS product_discount_savings,
            toDecimal128({p17:Array(String)}[split_row], 10) AS partner_discount_savings,
            toDecimal128({p18:Array(String)}[split_row], 10) AS commitment_savings,
            toDecimal128({p19:Array(String)}[split_row], 10) AS spot_savings,
            toDecimal128({p20:Array(String)}[split_row], 10) AS other_savings,
            toDecimal128({p21:Array(String)}[split_row], 10) AS split_in,
            toDecimal128({p22:Array(String)}[split_row], 10) AS split_out
        FROM
        (
            SELECT arrayJoin(range(1, {p23:UInt64} + 1)) AS split_row
        )
    )
    WHERE ((map({p24:String}, split_value)[{p25:String}]) IN ({p26:Array(String)})) AND (billing_currency != {currency:String})
    GROUP BY
        bucket_start,
        dim_0,
        dim_1,
        billing_currency,
        usage_date
)
GROUP BY
    GROUPING SETS (
        (bucket_start, dim_0, dim_1),
        ())
ORDER BY
    grouping(bucket_start) = 1 DESC,
    bucket_start ASC,
    dim_0 ASC,
    dim_1 ASC
LIMIT {p27:UInt64}
SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'
