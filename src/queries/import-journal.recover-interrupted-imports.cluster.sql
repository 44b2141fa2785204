-- import-journal.recover-interrupted-imports.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 21, sent by query
-- parameters:
--   database = "cost_insights"
--   name = "import_journal"
SELECT count() AS found
FROM system.tables
WHERE (database = {database:String}) AND (name = {name:String});

-- statement 2 of 21, sent by query
SELECT
    import_id,
    toString(organization_id) AS organization,
    integration_ids,
    partition_ids,
    backed_up_partition_ids,
    arrayMap(step -> tupleElement(step, 1), steps) AS step_hosts,
    arrayMap(step -> tupleElement(step, 2), steps) AS step_partitions,
    arrayMap(step -> tupleElement(step, 3), steps) AS step_backed_up,
    backup_table,
    staging_table,
    toString(lease_expires_at) AS lease_until,
    lease_expires_at < now64(3) AS lease_expired
FROM cost_insights.import_journal_distributed
FINAL
WHERE state = 'swapping'
ORDER BY import_id ASC;

-- statement 3 of 21, sent by query to node s1r1
-- parameters:
--   database = "cost_insights"
--   name = "focus_import_mwvps5c0_7f3e2a1b_backup"
SELECT count() AS found
FROM system.tables
WHERE (database = {database:String}) AND (name = {name:String});

-- statement 4 of 21, sent by query to node s1r2
-- parameters:
--   database = "cost_insights"
--   name = "focus_import_mwvps5c0_7f3e2a1b_backup"
SELECT count() AS found
FROM system.tables
WHERE (database = {database:String}) AND (name = {name:String});

-- statement 5 of 21, sent by command to node s1r1
ALTER TABLE cost_insights.cost_line_items
    (REPLACE PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f' FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup);

-- statement 6 of 21, sent by command to node s1r2
ALTER TABLE cost_insights.cost_line_items
    (REPLACE PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f' FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup);

-- statement 7 of 21, sent by command to node s2r1
ALTER TABLE cost_insights.cost_line_items
    (DROP PARTITION ID '6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a');

-- statement 8 of 21, sent by command to node s2r2
ALTER TABLE cost_insights.cost_line_items
    (DROP PARTITION ID '6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a');

-- statement 9 of 21, sent by command
-- parameters:
--   state = "rolled_back"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
INSERT INTO cost_insights.import_journal_distributed SELECT * REPLACE (CAST({state:String}, 'Enum8(\'swapping\' = 1, \'committed\' = 2, \'rolled_back\' = 3)') AS state, now64(6) AS updated_at)
FROM cost_insights.import_journal_distributed
FINAL
WHERE import_id = {import_id:String};

-- statement 10 of 21, sent by query to node s1r1
-- parameters:
--   database = "cost_insights"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {import_id:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 11 of 21, sent by command to node s1r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 12 of 21, sent by command to node s1r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;

-- statement 13 of 21, sent by query to node s1r2
-- parameters:
--   database = "cost_insights"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {import_id:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 14 of 21, sent by command to node s1r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 15 of 21, sent by command to node s1r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;

-- statement 16 of 21, sent by query to node s2r1
-- parameters:
--   database = "cost_insights"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {import_id:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 17 of 21, sent by command to node s2r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 18 of 21, sent by command to node s2r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;

-- statement 19 of 21, sent by query to node s2r2
-- parameters:
--   database = "cost_insights"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {import_id:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 20 of 21, sent by command to node s2r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 21 of 21, sent by command to node s2r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;
