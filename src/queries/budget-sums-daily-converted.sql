-- budget-sums-daily-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   window_start = "2026-10-01"
--   window_end = "2026-10-31"
--   p0 = "team"
--   p1 = ["payments"]
--   p2 = ["Oracle"]
--   p3 = ["Amazon EC2"]
--   p4 = ["team"]
--   one_off_categories = ["Tax","Credit","Adjustment"]
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
SELECT
    budget,
    toString(date) AS date,
    one_off,
    toString(toDecimal128(round(toDecimal128(sum(part), 11), 10), 10)) AS amount
FROM
(
    SELECT
        budget,
        bucket AS date,
        one_off,
        toDecimal256(sum(line_sum), 10) AS part
    FROM
    (
        SELECT
            usage_date AS bucket,
            charge_category IN ({one_off_categories:Array(String)}) AS one_off,
            cloud,
            service,
            mapFilter((key, value) -> has({p4:Array(String)}, key), resource_tags) AS resource_tags,
            sum(amortized_cost) AS line_sum
        FROM cost_insights.cost_line_items
        WHERE (organization_id = {organization_id:UUID}) AND ((usage_date >= {window_start:Date}) AND (usage_date <= {window_end:Date})) AND (billing_currency = {currency:String})
        GROUP BY
            bucket,
            one_off,
            cloud,
            service,
            resource_tags
    )
    ARRAY JOIN arrayFilter(position -> (position != 0), [if(1, 1, 0), if(((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND (service IN ({p3:Array(String)})), 2, 0)]) AS budget
    GROUP BY
        budget,
        date,
        one_off
    UNION ALL
    SELECT
        budget,
        bucket AS date,
        one_off,
        toDecimal256(sum(line_sum), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS part
    FROM
    (
        SELECT
            usage_date AS bucket,
            charge_category IN ({one_off_categories:Array(String)}) AS one_off,
            billing_currency,
            usage_date,
            cloud,
            service,
            mapFilter((key, value) -> has({p4:Array(String)}, key), resource_tags) AS resource_tags,
            sum(amortized_cost) AS line_sum
        FROM cost_insights.cost_line_items
        WHERE (organization_id = {organization_id:UUID}) AND ((usage_date >= {window_start:Date}) AND (usage_date <= {window_end:Date})) AND (billing_currency != {currency:String})
        GROUP BY
            bucket,
            one_off,
            billing_currency,
            usage_date,
            cloud,
            service,
            resource_tags
    )
    ARRAY JOIN arrayFilter(position -> (position != 0), [if(1, 1, 0), if(((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND (service IN ({p3:Array(String)})), 2, 0)]) AS budget
    GROUP BY
        budget,
        date,
        one_off,
        billing_currency,
        usage_date
)
GROUP BY
    budget,
    date,
    one_off
ORDER BY
    budget ASC,
    date ASC,
    one_off ASC
SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'
