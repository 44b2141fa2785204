-- partition-publish.publish-partitions.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 23, sent by query to node s1r1
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
--   partition_ids = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f"]
SELECT DISTINCT partition_id
FROM system.parts
WHERE (database = {database:String}) AND (`table` = {table:String}) AND active AND (partition_id IN ({partition_ids:Array(String)}));

-- statement 2 of 23, sent by command to node s1r1
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup AS cost_insights.cost_line_items;

-- statement 3 of 23, sent by command to node s1r1
ALTER TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup
    (REPLACE PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f' FROM cost_insights.cost_line_items);

-- statement 4 of 23, sent by query to node s1r2
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
--   partition_ids = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f"]
SELECT DISTINCT partition_id
FROM system.parts
WHERE (database = {database:String}) AND (`table` = {table:String}) AND active AND (partition_id IN ({partition_ids:Array(String)}));

-- statement 5 of 23, sent by command to node s1r2
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup AS cost_insights.cost_line_items;

-- statement 6 of 23, sent by command to node s1r2
ALTER TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup
    (REPLACE PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f' FROM cost_insights.cost_line_items);

-- statement 7 of 23, sent by query to node s2r1
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
--   partition_ids = ["6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a"]
SELECT DISTINCT partition_id
FROM system.parts
WHERE (database = {database:String}) AND (`table` = {table:String}) AND active AND (partition_id IN ({partition_ids:Array(String)}));

-- statement 8 of 23, sent by command to node s2r1
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup AS cost_insights.cost_line_items;

-- statement 9 of 23, sent by query to node s2r2
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
--   partition_ids = ["6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a"]
SELECT DISTINCT partition_id
FROM system.parts
WHERE (database = {database:String}) AND (`table` = {table:String}) AND active AND (partition_id IN ({partition_ids:Array(String)}));

-- statement 10 of 23, sent by command to node s2r2
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup AS cost_insights.cost_line_items;

-- statement 11 of 23, sent by query
SELECT name
FROM cost_insights.backup_runs_distributed
FINAL
WHERE (state = 'running') AND (lease_expires_at > now64(3))
ORDER BY name ASC;

-- statement 12 of 23, sent by command
-- parameters:
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   integration_ids = ["aws-main"]
--   partition_ids = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f","6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a"]
--   backed_up_partition_ids = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f"]
--   backup_table = "focus_import_mwvps5c0_7f3e2a1b_backup"
--   staging_table = "focus_import_mwvps5c0_7f3e2a1b"
--   lease_seconds = 120
--   step_hosts = ["s1r1","s1r2","s2r1","s2r2"]
--   step_partitions = ["5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f","5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f","6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a","6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a"]
--   step_backed_up = [1,1,0,0]
INSERT INTO cost_insights.import_journal_distributed (import_id, organization_id, integration_ids, partition_ids, backed_up_partition_ids, backup_table, staging_table, state, lease_expires_at, updated_at, steps) SELECT
    {import_id:String},
    {organization_id:UUID},
    {integration_ids:Array(String)},
    {partition_ids:Array(String)},
    {backed_up_partition_ids:Array(String)},
    {backup_table:String},
    {staging_table:String},
    'swapping',
    now64(3) + toIntervalSecond({lease_seconds:UInt32}),
    now64(6),
    arrayZip({step_hosts:Array(String)}, {step_partitions:Array(String)}, {step_backed_up:Array(UInt8)});

-- statement 13 of 23, sent by query
SELECT name
FROM cost_insights.backup_runs_distributed
FINAL
WHERE (state = 'running') AND (lease_expires_at > now64(3))
ORDER BY name ASC;

-- statement 14 of 23, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   since = 1795586400000
--   kinds = ["tag","costCategory"]
--   in_force_kinds = []
--   in_force_keys = []
SELECT toUInt8(count() > 0) AS changed
FROM cost_insights.tag_key_activations_distributed
WHERE (organization_id = {organization_id:UUID}) AND (kind IN ({kinds:Array(String)})) AND (updated_at >= (fromUnixTimestamp64Milli({since:Int64}) - toIntervalSecond(120))) AND (NOT (arrayExists((k, n) -> ((k = kind) AND (n = key)), {in_force_kinds:Array(String)}, {in_force_keys:Array(String)}) AND (state IN ('backfilling', 'active'))));

-- statement 15 of 23, sent by command to node s1r1
ALTER TABLE cost_insights.cost_line_items
    (REPLACE PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f' FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b);

-- statement 16 of 23, sent by command to node s1r2
ALTER TABLE cost_insights.cost_line_items
    (REPLACE PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f' FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b);

-- statement 17 of 23, sent by command to node s2r1
ALTER TABLE cost_insights.cost_line_items
    (REPLACE PARTITION ID '6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a' FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b);

-- statement 18 of 23, sent by command to node s2r2
ALTER TABLE cost_insights.cost_line_items
    (REPLACE PARTITION ID '6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a' FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b);

-- statement 19 of 23, sent by command
-- parameters:
--   state = "committed"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
INSERT INTO cost_insights.import_journal_distributed SELECT * REPLACE (CAST({state:String}, 'Enum8(\'swapping\' = 1, \'committed\' = 2, \'rolled_back\' = 3)') AS state, now64(6) AS updated_at)
FROM cost_insights.import_journal_distributed
FINAL
WHERE import_id = {import_id:String};

-- statement 20 of 23, sent by command to node s1r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;

-- statement 21 of 23, sent by command to node s1r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;

-- statement 22 of 23, sent by command to node s2r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;

-- statement 23 of 23, sent by command to node s2r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;
