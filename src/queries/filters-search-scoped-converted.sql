-- filters-search-scoped-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   search = "ec2"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "team"
--   p1 = ["payments"]
--   p2 = ["Oracle"]
--   p3 = "2026-10-01"
--   p4 = "2026-10-01"
--   not_set = "(not set)"
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
--   p5 = "team"
--   p6 = ["payments"]
--   p7 = ["Oracle"]
--   p8 = "2026-10-01"
--   p9 = "2026-10-01"
SELECT
    'services' AS field,
    value,
    '' AS name,
    toDecimal128(round(toDecimal128(sum(part), 11), 10), 10) AS sum_amortized_cost
FROM
(
    SELECT
        toString(service) AS value,
        toDecimal256(sum(amortized_cost), 10) AS part
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND ((toStartOfMonth(usage_date) >= {p3:Date}) AND (toStartOfMonth(usage_date) <= {p4:Date})) AND (positionCaseInsensitiveUTF8(if(value = '', {not_set:String}, value), {search:String}) > 0) AND (billing_currency = {currency:String})
    GROUP BY value
    UNION ALL
    SELECT
        toString(service) AS value,
        toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS part
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND ((toStartOfMonth(usage_date) >= {p3:Date}) AND (toStartOfMonth(usage_date) <= {p4:Date})) AND (positionCaseInsensitiveUTF8(if(value = '', {not_set:String}, value), {search:String}) > 0) AND (billing_currency != {currency:String})
    GROUP BY
        value,
        billing_currency,
        usage_date
)
GROUP BY value
ORDER BY
    sum_amortized_cost DESC,
    value ASC
LIMIT 10002
SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'
UNION ALL
SELECT
    'costCategories' AS field,
    map_key AS value,
    '' AS name,
    toDecimal128(round(toDecimal128(sum(map_cost), 11), 10), 10) AS sum_amortized_cost
FROM
(
    SELECT
        cost_categories AS map_part,
        toDecimal256(sum(amortized_cost), 10) AS map_cost
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p5:String}]) IN ({p6:Array(String)})) AND (NOT (cloud IN ({p7:Array(String)}))) AND ((toStartOfMonth(usage_date) >= {p8:Date}) AND (toStartOfMonth(usage_date) <= {p9:Date})) AND (billing_currency = {currency:String})
    GROUP BY cost_categories
    UNION ALL
    SELECT
        cost_categories AS map_part,
        toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS map_cost
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p5:String}]) IN ({p6:Array(String)})) AND (NOT (cloud IN ({p7:Array(String)}))) AND ((toStartOfMonth(usage_date) >= {p8:Date}) AND (toStartOfMonth(usage_date) <= {p9:Date})) AND (billing_currency != {currency:String})
    GROUP BY
        cost_categories,
        billing_currency,
        usage_date
)
ARRAY JOIN arrayFilter(map_key -> ((map_key != '') AND (positionCaseInsensitiveUTF8(map_key, {search:String}) > 0)), mapKeys(map_part)) AS map_key
GROUP BY value
ORDER BY
    sum_amortized_cost DESC,
    value ASC
LIMIT 10002
SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'
