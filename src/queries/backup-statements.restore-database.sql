-- backup-statements.restore-database: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
RESTORE DATABASE cost_insights AS cost_insights__restore FROM File('full-20261125/server') SETTINGS async = true;

-- statement 2 of 2, sent by query
-- parameters:
--   id = "r5d1"
SELECT
    toString(status) AS status,
    error
FROM system.backups
WHERE id = {id:String};
