-- import-journal.renew-lease: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by command
-- parameters:
--   lease_seconds = 120
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
INSERT INTO cost_insights.import_journal SELECT * REPLACE (now64(3) + toIntervalSecond({lease_seconds:UInt32}) AS lease_expires_at, now64(6) AS updated_at)
FROM cost_insights.import_journal
FINAL
WHERE import_id = {import_id:String};
