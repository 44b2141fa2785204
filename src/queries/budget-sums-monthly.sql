-- budget-sums-monthly: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   window_start = "2025-11-01"
--   window_end = "2026-10-31"
--   p0 = ["Tax"]
SELECT
    budget,
    toString(date) AS date,
    one_off,
    toString(sum(part)) AS amount
FROM
(
    SELECT
        budget,
        bucket AS date,
        one_off,
        sum(line_sum) AS part
    FROM
    (
        SELECT
            toStartOfMonth(usage_date) AS bucket,
            0 AS one_off,
            cost_type,
            sum(billed_cost) AS line_sum
        FROM cost_insights.cost_line_items
        WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {window_start:Date}) AND (toStartOfMonth(usage_date) <= {window_end:Date}))
        GROUP BY
            bucket,
            one_off,
            cost_type
    )
    ARRAY JOIN arrayFilter(position -> (position != 0), [if(NOT (cost_type IN ({p0:Array(String)})), 1, 0)]) AS budget
    GROUP BY
        budget,
        date,
        one_off
)
GROUP BY
    budget,
    date,
    one_off
ORDER BY
    budget ASC,
    date ASC,
    one_off ASC
SETTINGS preferred_optimize_projection_name = 'monthly_dimension_sums'
