-- projection-completion.complete-projections: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 13, sent by query
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

-- statement 2 of 13, sent by command
-- parameters:
--   name = "projections 3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   state = "running"
--   lease = 60
--   error = ""
INSERT INTO cost_insights.backup_runs (name, state, started_at, lease_expires_at, updated_at, error) SELECT
    {name:String},
    {state:String},
    now64(6),
    now64(3) + toIntervalSecond({lease:UInt32}),
    now64(6),
    {error:String};

-- statement 3 of 13, sent by query
SELECT
    import_id,
    toUInt8(lease_expires_at < now64(3)) AS lease_expired
FROM cost_insights.import_journal
FINAL
WHERE state = 'swapping'
ORDER BY import_id ASC;

-- statement 4 of 13, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
--   recomputed = []
SELECT name
FROM system.columns
WHERE (database = {database:String}) AND (`table` = {table:String}) AND (name NOT IN ({recomputed:Array(String)}))
ORDER BY position ASC;

-- statement 5 of 13, sent by query
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

-- statement 6 of 13, sent by query
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

-- statement 7 of 13, sent by command
CREATE TABLE cost_insights.focus_import_new_00000000 AS cost_insights.cost_line_items;

-- statement 8 of 13, sent by command
SYSTEM STOP MERGES cost_insights.focus_import_new_00000000;

-- statement 9 of 13, sent by longCommand
-- parameters:
--   partitions = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f"]
INSERT INTO cost_insights.focus_import_new_00000000 (organization_id, usage_date)
SETTINGS max_execution_time = 0, min_insert_block_size_rows = 0, min_insert_block_size_bytes = 8388608, max_insert_threads = 2
SELECT
    organization_id,
    usage_date
FROM cost_insights.cost_line_items
WHERE _partition_id IN ({partitions:Array(String)})
SETTINGS max_execution_time = 0, min_insert_block_size_rows = 0, min_insert_block_size_bytes = 8388608, max_insert_threads = 2;

-- statement 10 of 13, sent by query
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

-- statement 11 of 13, sent by command
ALTER TABLE cost_insights.cost_line_items
    (REPLACE PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f' FROM cost_insights.focus_import_new_00000000);

-- statement 12 of 13, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_new_00000000;

-- statement 13 of 13, sent by command
-- parameters:
--   names = ["projections 3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"]
--   state = "created"
--   lease = 0
--   error = ""
INSERT INTO cost_insights.backup_runs SELECT * REPLACE (CAST({state:String}, 'Enum8(\'running\' = 1, \'created\' = 2, \'failed\' = 3)') AS state, now64(3) + toIntervalSecond({lease:UInt32}) AS lease_expires_at, now64(6) AS updated_at, {error:String} AS error)
FROM cost_insights.backup_runs
FINAL
WHERE name IN ({names:Array(String)});
