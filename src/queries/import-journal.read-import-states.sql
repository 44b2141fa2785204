-- import-journal.read-import-states: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   import_ids = ["focus_import_mwvps5c0_7f3e2a1b"]
SELECT
    import_id,
    state
FROM cost_insights.import_journal
FINAL
WHERE import_id IN ({import_ids:Array(String)});
