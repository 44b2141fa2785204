-- projection-completion.partitions-lacking-projections: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
SELECT DISTINCT partition_id
FROM system.parts
WHERE (database = {database:String}) AND (`table` = {table:String}) AND active AND (rows > 0) AND (({organization_id:String} = '') OR startsWith(partition, concat('(\'', {organization_id:String}, '\''))) AND (NOT hasAll(projections, (
    SELECT groupArray(name)
    FROM system.projections
    WHERE (database = {database:String}) AND (`table` = {table:String})
)))
ORDER BY partition_id ASC;
