-- data-freshness-scoped: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "team"
--   p1 = ["payments"]
--   p2 = ["Oracle"]
SELECT
    toString(maxOrNull(usage_date)) AS dataThrough,
    formatDateTime(maxOrNull(imported_at), '%Y-%m-%dT%H:%i:%SZ', 'UTC') AS importedAt
FROM cost_insights.cost_line_items
WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)})))
