-- import-staging.drop-abandoned-import-tables: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 4, sent by query
-- parameters:
--   database = "cost_insights"
--   prefix = "focus_import_"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {prefix:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 2 of 4, sent by query
-- parameters:
--   import_ids = ["focus_import_mwvps5c0_7f3e2a1b","focus_import_mwsuwg00_0badf00d"]
SELECT
    import_id,
    state
FROM cost_insights.import_journal
FINAL
WHERE import_id IN ({import_ids:Array(String)});

-- statement 3 of 4, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 4 of 4, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_new_00000000_input;
