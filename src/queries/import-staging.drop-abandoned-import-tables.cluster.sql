-- import-staging.drop-abandoned-import-tables.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 9, sent by query to node s1r1
-- parameters:
--   database = "cost_insights"
--   prefix = "focus_import_"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {prefix:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 2 of 9, sent by query to node s1r2
-- parameters:
--   database = "cost_insights"
--   prefix = "focus_import_"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {prefix:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 3 of 9, sent by query to node s2r1
-- parameters:
--   database = "cost_insights"
--   prefix = "focus_import_"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {prefix:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 4 of 9, sent by query to node s2r2
-- parameters:
--   database = "cost_insights"
--   prefix = "focus_import_"
SELECT name
FROM system.tables
WHERE (database = {database:String}) AND startsWith(name, {prefix:String})
ORDER BY
    engine IN ('MaterializedView', 'Distributed') DESC,
    name ASC;

-- statement 5 of 9, sent by query
-- parameters:
--   import_ids = ["focus_import_mwvps5c0_7f3e2a1b"]
SELECT
    import_id,
    state
FROM cost_insights.import_journal_distributed
FINAL
WHERE import_id IN ({import_ids:Array(String)});

-- statement 6 of 9, sent by command to node s1r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 7 of 9, sent by command to node s1r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 8 of 9, sent by command to node s2r1
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 9 of 9, sent by command to node s2r2
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b;
