-- import-journal.journal-state: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by command
-- parameters:
--   state = "committed"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
INSERT INTO cost_insights.import_journal SELECT * REPLACE (CAST({state:String}, 'Enum8(\'swapping\' = 1, \'committed\' = 2, \'rolled_back\' = 3)') AS state, now64(6) AS updated_at)
FROM cost_insights.import_journal
FINAL
WHERE import_id = {import_id:String};
