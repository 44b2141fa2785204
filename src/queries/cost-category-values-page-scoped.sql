-- cost-category-values-page-scoped: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "Business Unit"
--   p1 = "team"
--   p2 = ["payments"]
--   p3 = ["Oracle"]
--   search = "pay"
--   p4 = "Payments"
SELECT cost_categories[{p0:String}] AS map_value
FROM cost_insights.cost_line_items
WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p1:String}]) IN ({p2:Array(String)})) AND (NOT (cloud IN ({p3:Array(String)}))) AND (map_value != '') AND (positionCaseInsensitiveUTF8(map_value, {search:String}) > 0) AND (map_value > {p4:String})
GROUP BY map_value
ORDER BY map_value ASC
LIMIT 101
SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'
