-- compare-values-probe: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   not_set = "(not set)"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "2026-09-01"
--   p1 = "2026-09-01"
--   p2 = "2026-10-01"
--   p3 = "2026-10-01"
--   p4 = 46
SELECT DISTINCT dim_0
FROM
(
    SELECT if(empty(service), {not_set:String}, service) AS dim_0
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date}))
    UNION ALL
    SELECT if(empty(service), {not_set:String}, service) AS dim_0
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p2:Date}) AND (toStartOfMonth(usage_date) <= {p3:Date}))
)
LIMIT {p4:UInt64}
