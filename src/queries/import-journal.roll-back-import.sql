-- import-journal.roll-back-import: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 7, sent by query
-- parameters:
--   database = "cost_insights"
--   name = "focus_import_mwvps5c0_7f3e2a1b_backup"
SELECT count() AS found
FROM system.tables
WHERE (database = {database:String}) AND (name = {name:String});

-- statement 2 of 7, sent by command
ALTER TABLE cost_insights.cost_line_items
    (REPLACE PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f' FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup);

-- statement 3 of 7, sent by command
ALTER TABLE cost_insights.cost_line_items
    (DROP PARTITION ID '6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a');

-- statement 4 of 7, sent by command
-- parameters:
--   state = "rolled_back"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
INSERT INTO cost_insights.import_journal SELECT * REPLACE (CAST({state:String}, 'Enum8(\'swapping\' = 1, \'committed\' = 2, \'rolled_back\' = 3)') AS state, now64(6) AS updated_at)
FROM cost_insights.import_journal
FINAL
WHERE import_id = {import_id:String};

-- statement 5 of 7, sent by query
-- parameters:
--   database = "cost_insights"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {import_id:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 6 of 7, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 7 of 7, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;
