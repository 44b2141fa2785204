-- import-journal.drop-import-tables: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 3, sent by query
-- parameters:
--   database = "cost_insights"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {import_id:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 2 of 3, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 3 of 3, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_backup;
