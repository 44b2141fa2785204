-- store-restore.restore-in-progress: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
-- parameters:
--   database = "cost_insights"
--   name = "store_restore"
SELECT count() AS found
FROM system.tables
WHERE (database = {database:String}) AND (name = {name:String});

-- statement 2 of 2, sent by query
SELECT
    backup,
    toString(state) AS state,
    toString(at) AS since
FROM cost_insights.store_restore
ORDER BY at DESC
LIMIT 1;
