-- filters-all-fields: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "2026-10-01"
--   p1 = "2026-10-01"
--   p2 = ["Amazon EC2"]
--   p3 = "2026-10-01"
--   p4 = "2026-10-01"
--   p5 = ["Amazon EC2"]
--   p6 = "2026-10-01"
--   p7 = "2026-10-01"
--   p8 = ["Amazon EC2"]
--   p9 = "2026-10-01"
--   p10 = "2026-10-01"
--   p11 = ["Amazon EC2"]
SELECT
    'accounts' AS field,
    toString(account_part) AS value,
    argMaxIf(name_part, day_part, name_part != '') AS name,
    sum(day_cost) AS sum_amortized_cost
FROM
(
    SELECT
        account_id AS account_part,
        usage_date AS day_part,
        account_name AS name_part,
        sum(amortized_cost) AS day_cost
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date})) AND (service IN ({p2:Array(String)}))
    GROUP BY
        account_part,
        day_part,
        name_part
)
GROUP BY value
ORDER BY
    sum_amortized_cost DESC,
    value ASC
LIMIT 10002
SETTINGS preferred_optimize_projection_name = 'daily_dimension_sums'
UNION ALL
SELECT
    'resourceTags' AS field,
    map_key AS value,
    '' AS name,
    sum(map_cost) AS sum_amortized_cost
FROM
(
    SELECT
        resource_tags AS map_part,
        sum(amortized_cost) AS map_cost
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p3:Date}) AND (toStartOfMonth(usage_date) <= {p4:Date})) AND (service IN ({p5:Array(String)}))
    GROUP BY resource_tags
)
ARRAY JOIN arrayFilter(map_key -> (map_key != ''), mapKeys(map_part)) AS map_key
GROUP BY value
ORDER BY
    sum_amortized_cost DESC,
    value ASC
LIMIT 10002
SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'
UNION ALL
SELECT
    'tagValues' AS field,
    tag_value AS value,
    tag_key AS name,
    sum(map_cost) AS sum_amortized_cost
FROM
(
    SELECT
        resource_tags AS map_part,
        sum(amortized_cost) AS map_cost
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p6:Date}) AND (toStartOfMonth(usage_date) <= {p7:Date})) AND (service IN ({p8:Array(String)}))
    GROUP BY resource_tags
)
ARRAY JOIN
    mapKeys(map_part) AS tag_key,
    mapValues(map_part) AS tag_value
WHERE (tag_value != '') AND (tag_key IN (
    SELECT top_key
    FROM
    (
        SELECT
            resource_tags AS map_part,
            sum(amortized_cost) AS map_cost
        FROM cost_insights.cost_line_items
        WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p6:Date}) AND (toStartOfMonth(usage_date) <= {p7:Date})) AND (service IN ({p8:Array(String)}))
        GROUP BY resource_tags
    )
    ARRAY JOIN arrayFilter(map_key -> (map_key != ''), mapKeys(map_part)) AS top_key
    GROUP BY top_key
    ORDER BY
        sum(map_cost) DESC,
        top_key ASC
    LIMIT 100
))
GROUP BY
    tag_key,
    tag_value
ORDER BY
    tag_key ASC,
    sum_amortized_cost DESC,
    tag_value ASC
LIMIT 101 BY tag_key
SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'
UNION ALL
SELECT
    option.1 AS field,
    option.2 AS value,
    '' AS name,
    sum(part) AS sum_amortized_cost
FROM
(
    SELECT
        service,
        billing_currency,
        sum(amortized_cost) AS part
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p9:Date}) AND (toStartOfMonth(usage_date) <= {p10:Date}))
    GROUP BY
        service,
        billing_currency
)
ARRAY JOIN arrayFilter(option -> (option.3), [('services', toString(service), 1), ('billingCurrencies', toString(billing_currency), (service IN ({p11:Array(String)})))]) AS option
GROUP BY
    field,
    value
ORDER BY
    field ASC,
    sum_amortized_cost DESC,
    value ASC
LIMIT 10002 BY field
SETTINGS preferred_optimize_projection_name = 'monthly_dimension_sums'
