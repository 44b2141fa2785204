-- partition-hosts.existing-partitions: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
--   partition_ids = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f","6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a"]
SELECT DISTINCT partition_id
FROM system.parts
WHERE (database = {database:String}) AND (`table` = {table:String}) AND active AND (partition_id IN ({partition_ids:Array(String)}));
