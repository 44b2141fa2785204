-- import-journal.read-import-state: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
SELECT state
FROM cost_insights.import_journal
FINAL
WHERE import_id = {import_id:String};
