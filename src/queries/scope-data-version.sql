-- scope-data-version: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "team"
--   p1 = ["payments"]
--   p2 = ["Oracle"]
SELECT
    toString(count()) AS row_count,
    toString(toUInt32(max(imported_at))) AS latest,
    toString(sum(toUInt64(toUInt32(imported_at)))) AS written
FROM cost_insights.cost_line_items
WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)})))
