-- unit-cost-sums-daily-by-tag-scoped-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "team"
--   p1 = ["payments"]
--   p2 = ["Oracle"]
--   p3 = "2026-10-01"
--   p4 = "2026-10-01"
--   p5 = "team"
--   not_set = "(not set)"
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
SELECT
    toString(bucket) AS date,
    value AS dimension_value,
    toString(toDecimal128(round(toDecimal128(sum(part), 11), 10), 10)) AS cost
FROM
(
    SELECT
        usage_date AS bucket,
        if(empty(resource_tags[{p5:String}]), {not_set:String}, resource_tags[{p5:String}]) AS value,
        toDecimal256(sum(amortized_cost), 10) AS part
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND ((toStartOfMonth(usage_date) >= {p3:Date}) AND (toStartOfMonth(usage_date) <= {p4:Date})) AND (billing_currency = {currency:String})
    GROUP BY
        bucket,
        value
    UNION ALL
    SELECT
        usage_date AS bucket,
        if(empty(resource_tags[{p5:String}]), {not_set:String}, resource_tags[{p5:String}]) AS value,
        toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS part
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND ((toStartOfMonth(usage_date) >= {p3:Date}) AND (toStartOfMonth(usage_date) <= {p4:Date})) AND (billing_currency != {currency:String})
    GROUP BY
        bucket,
        value,
        billing_currency,
        usage_date
)
GROUP BY
    bucket,
    value
ORDER BY
    bucket ASC,
    value ASC
SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'
