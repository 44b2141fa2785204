-- backup-statements.await-operation: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
BACKUP DATABASE cost_insights TO File('full-20261125') SETTINGS async = true;

-- statement 2 of 2, sent by query
-- parameters:
--   id = "b7c1"
SELECT
    toString(status) AS status,
    error
FROM system.backups
WHERE id = {id:String};
