-- forecast-series-by-service-scoped-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   not_set = "(not set)"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "team"
--   p1 = ["payments"]
--   p2 = ["Oracle"]
--   p3 = "2026-07-29"
--   p4 = "2026-11-24"
--   p5 = ["AWS"]
--   one_off_categories = ["Tax","Credit","Adjustment"]
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
--   top_values = 5
--   other_label = "(other)"
SELECT
    series,
    one_off,
    arrayMap(pair -> (pair.1), pairs) AS days,
    arrayMap(pair -> (pair.2), pairs) AS amounts
FROM
(
    SELECT
        series,
        one_off,
        arraySort(groupArray((toUInt32(day), amount))) AS pairs
    FROM
    (
        SELECT
            series,
            day,
            one_off,
            toString(toDecimal128(round(toDecimal128(sum(part), 11), 10), 10)) AS amount
        FROM
        (
            SELECT
                if(dense_rank() OVER (ORDER BY value_total DESC, value ASC) <= {top_values:UInt64}, value, {other_label:String}) AS series,
                one_off,
                days,
                parts
            FROM
            (
                SELECT
                    value,
                    one_off,
                    groupArray(day) AS days,
                    groupArray(part) AS parts,
                    sum(sum(if(one_off, 0, part))) OVER (PARTITION BY value) AS value_total
                FROM
                (
                    SELECT
                        usage_date AS day,
                        if(empty(service), {not_set:String}, service) AS value,
                        charge_category IN ({one_off_categories:Array(String)}) AS one_off,
                        toDecimal256(sum(amortized_cost), 10) AS part
                    FROM cost_insights.cost_line_items
                    WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND ((usage_date >= {p3:Date}) AND (usage_date <= {p4:Date})) AND (cloud IN ({p5:Array(String)})) AND (billing_currency = {currency:String})
                    GROUP BY
                        day,
                        value,
                        one_off
                    UNION ALL
                    SELECT
                        usage_date AS day,
                        if(empty(service), {not_set:String}, service) AS value,
                        charge_category IN ({one_off_categories:Array(String)}) AS one_off,
                        toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS part
                    FROM cost_insights.cost_line_items
                    WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND ((usage_date >= {p3:Date}) AND (usage_date <= {p4:Date})) AND (cloud IN ({p5:Array(String)})) AND (billing_currency != {currency:String})
                    GROUP BY
                        day,
                        value,
                        one_off,
                        billing_currency,
                        usage_date
                )
                GROUP BY
                    value,
                    one_off
            )
        )
        ARRAY JOIN
            days AS day,
            parts AS part
        GROUP BY
            series,
            day,
            one_off
    )
    GROUP BY
        series,
        one_off
)
ORDER BY
    series ASC,
    one_off ASC
SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'
