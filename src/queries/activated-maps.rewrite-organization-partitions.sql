-- activated-maps.rewrite-organization-partitions: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 9, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
SELECT DISTINCT partition_id
FROM system.parts
WHERE (database = {database:String}) AND (`table` = {table:String}) AND active AND startsWith(partition, concat('(\'', {organization_id:String}, '\''))
ORDER BY partition_id ASC;

-- statement 2 of 9, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
--   recomputed = ["activated_resource_tags","activated_cost_categories"]
SELECT name
FROM system.columns
WHERE (database = {database:String}) AND (`table` = {table:String}) AND (name NOT IN ({recomputed:Array(String)}))
ORDER BY position ASC;

-- statement 3 of 9, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
--   partitions = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f"]
SELECT
    partition_id AS partition,
    concat(toString(min(min_block_number)), ':', toString(max(max_block_number)), ':', toString(sum(rows)), ':', toString(max(if(data_version != min_block_number, data_version, 0)))) AS digest,
    toString(sum(rows)) AS row_count
FROM system.parts
WHERE (database = {database:String}) AND (`table` = {table:String}) AND (partition_id IN ({partitions:Array(String)})) AND active AND (rows > 0)
GROUP BY partition_id
ORDER BY partition_id ASC;

-- statement 4 of 9, sent by command
CREATE TABLE cost_insights.focus_import_new_00000000 AS cost_insights.cost_line_items;

-- statement 5 of 9, sent by command
SYSTEM STOP MERGES cost_insights.focus_import_new_00000000;

-- statement 6 of 9, sent by longCommand
-- parameters:
--   partitions = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f"]
INSERT INTO cost_insights.focus_import_new_00000000 (organization_id, usage_date, resource_tags)
SETTINGS max_execution_time = 0, min_insert_block_size_rows = 0, min_insert_block_size_bytes = 8388608, max_insert_threads = 2
SELECT
    organization_id,
    usage_date,
    resource_tags
FROM cost_insights.cost_line_items
WHERE _partition_id IN ({partitions:Array(String)})
SETTINGS max_execution_time = 0, min_insert_block_size_rows = 0, min_insert_block_size_bytes = 8388608, max_insert_threads = 2;

-- statement 7 of 9, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
--   partitions = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f"]
SELECT
    partition_id AS partition,
    concat(toString(min(min_block_number)), ':', toString(max(max_block_number)), ':', toString(sum(rows)), ':', toString(max(if(data_version != min_block_number, data_version, 0)))) AS digest,
    toString(sum(rows)) AS row_count
FROM system.parts
WHERE (database = {database:String}) AND (`table` = {table:String}) AND (partition_id IN ({partitions:Array(String)})) AND active AND (rows > 0)
GROUP BY partition_id
ORDER BY partition_id ASC;

-- statement 8 of 9, sent by command
ALTER TABLE cost_insights.cost_line_items
    (REPLACE PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f' FROM cost_insights.focus_import_new_00000000);

-- statement 9 of 9, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_new_00000000;
