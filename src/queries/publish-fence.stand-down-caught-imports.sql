-- publish-fence.stand-down-caught-imports: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
SELECT
    import_id,
    toUInt8(lease_expires_at < now64(3)) AS lease_expired
FROM cost_insights.import_journal
FINAL
WHERE state = 'swapping'
ORDER BY import_id ASC;

-- statement 2 of 2, sent by command
-- parameters:
--   state = "rolled_back"
--   import_id = "focus_import_mwvps5c0_7f3e2a1b"
INSERT INTO cost_insights.import_journal SELECT * REPLACE (CAST({state:String}, 'Enum8(\'swapping\' = 1, \'committed\' = 2, \'rolled_back\' = 3)') AS state, now64(6) AS updated_at)
FROM cost_insights.import_journal
FINAL
WHERE import_id = {import_id:String};
