-- tag-values-unpaged: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "team"
SELECT resource_tags[{p0:String}] AS map_value
FROM cost_insights.cost_line_items
WHERE (organization_id = {organization_id:UUID}) AND (map_value != '')
GROUP BY map_value
ORDER BY
    sum(amortized_cost) DESC,
    map_value ASC
LIMIT 10001
SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'
