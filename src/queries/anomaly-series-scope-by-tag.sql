-- anomaly-series-scope-by-tag: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "team"
--   p1 = ["payments"]
--   p2 = ["Oracle"]
--   p3 = "2026-11-20"
--   p4 = "2026-11-21"
--   p5 = "team"
--   not_set = "(not set)"
--   value = "payments"
--   left_out_categories = ["Tax","Credit","Adjustment","Purchase"]
SELECT
    toUInt8(countIf(value = {value:String}) > 0) AS has_value,
    uniqExact(value) AS value_count
FROM
(
    SELECT if(empty(resource_tags[{p5:String}]), {not_set:String}, resource_tags[{p5:String}]) AS value
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND ((usage_date >= {p3:Date}) AND (usage_date <= {p4:Date})) AND (charge_category NOT IN ({left_out_categories:Array(String)}))
    GROUP BY value
)
