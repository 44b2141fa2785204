-- budget-sums-daily-by-tag: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   window_start = "2026-10-01"
--   window_end = "2026-10-31"
--   p0 = "team"
--   p1 = ["payments"]
--   p2 = "env"
--   p3 = ["dev"]
--   p4 = ["team","env"]
--   one_off_categories = ["Tax","Credit","Adjustment"]
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
            usage_date AS bucket,
            charge_category IN ({one_off_categories:Array(String)}) AS one_off,
            mapFilter((key, value) -> has({p4:Array(String)}, key), resource_tags) AS resource_tags,
            sum(amortized_cost) AS line_sum
        FROM cost_insights.cost_line_items
        WHERE (organization_id = {organization_id:UUID}) AND ((usage_date >= {window_start:Date}) AND (usage_date <= {window_end:Date}))
        GROUP BY
            bucket,
            one_off,
            resource_tags
    )
    ARRAY JOIN arrayFilter(position -> (position != 0), [if(((resource_tags[{p0:String}]) IN ({p1:Array(String)})), 1, 0), if(NOT ((resource_tags[{p2:String}]) IN ({p3:Array(String)})), 2, 0)]) AS budget
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
SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'
