-- import-journal.table-exists: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   database = "cost_insights"
--   name = "focus_import_mwvps5c0_7f3e2a1b_backup"
SELECT count() AS found
FROM system.tables
WHERE (database = {database:String}) AND (name = {name:String});
