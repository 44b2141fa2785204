-- backup-statements.back-up-database: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
BACKUP DATABASE cost_insights EXCEPT TABLES focus_import_new_00000000, store_restore TO File('20261126T060000Z-incremental/server') SETTINGS base_backup = File('full-20261125/server'), async = true;

-- statement 2 of 2, sent by query
-- parameters:
--   id = "b7c2"
SELECT
    toString(status) AS status,
    error
FROM system.backups
WHERE id = {id:String};
