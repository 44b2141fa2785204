-- import-journal.roll-back-import.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 19, sent by query to node s1r1
-- parameters:
--   database = "cost_insights"
--   name = "focus_import_mwvps5c0_7f3e2a1b_backup"
SELECT count() AS found
FROM system.tables
WHERE (database = {database:String}) AND (name = {name:String});

-- statement 2 of 19, sent by query to node s1r2
-- parameters:
--   database = "cost_insights"
--   name = "focus_import_mwvps5c0_7f3e2a1b_backup"
SELECT count() AS found
FROM system.tables
WHERE (database = {database:String}) AND (name = {name:String});

-- statement 3 of 19, sent by command to node s1r1
ALTER TABLE cost_insights.cost_line_items
    (REPLACE PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f' FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup);

-- statement 4 of 19, sent by command to node s1r2
ALTER TABLE cost_insights.cost_line_items
    (REPLACE PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f' FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup);

-- statement 5 of 19, sent by command to node s2r1
ALTER TABLE cost_insights.cost_line_items
    (DROP PARTITION ID '6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a');

-- statement 6 of 19, sent by command to node s2r2
ALTER TABLE cost_insights.cost_line_items
    (DROP PARTITION ID '6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a');

-- statement 7 of 19, sent by command
-- parameters:
--   state = "rolled_back"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
INSERT INTO cost_insights.import_journal_distributed SELECT * REPLACE (CAST({state:String}, 'Enum8(\'swapping\' = 1, \'committed\' = 2, \'rolled_back\' = 3)') AS state, now64(6) AS updated_at)
FROM cost_insights.import_journal_distributed
FINAL
WHERE import_id = {import_id:String};

-- statement 8 of 19, sent by query to node s1r1
-- parameters:
--   database = "cost_insights"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {import_id:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 9 of 19, sent by command to node s1r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 10 of 19, sent by command to node s1r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;

-- statement 11 of 19, sent by query to node s1r2
-- parameters:
--   database = "cost_insights"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {import_id:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 12 of 19, sent by command to node s1r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 13 of 19, sent by command to node s1r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;

-- statement 14 of 19, sent by query to node s2r1
-- parameters:
--   database = "cost_insights"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {import_id:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 15 of 19, sent by command to node s2r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 16 of 19, sent by command to node s2r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;

-- statement 17 of 19, sent by query to node s2r2
-- parameters:
--   database = "cost_insights"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {import_id:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 18 of 19, sent by command to node s2r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 19 of 19, sent by command to node s2r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;
