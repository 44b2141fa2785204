-- publish-fence.fenced: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 3, sent by command
-- parameters:
--   name = "tag-keys 3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   state = "running"
--   lease = 60
--   error = ""
INSERT INTO cost_insights.backup_runs (name, state, started_at, lease_expires_at, updated_at, error) SELECT
    {name:String},
    {state:String},
    now64(6),
    now64(3) + toIntervalSecond({lease:UInt32}),
    now64(6),
    {error:String};

-- statement 2 of 3, sent by query
SELECT
    import_id,
    toUInt8(lease_expires_at < now64(3)) AS lease_expired
FROM cost_insights.import_journal
FINAL
WHERE state = 'swapping'
ORDER BY import_id ASC;

-- statement 3 of 3, sent by command
-- parameters:
--   names = ["tag-keys 3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"]
--   state = "failed"
--   lease = 0
--   error = "disk full"
INSERT INTO cost_insights.backup_runs SELECT * REPLACE (CAST({state:String}, 'Enum8(\'running\' = 1, \'created\' = 2, \'failed\' = 3)') AS state, now64(3) + toIntervalSecond({lease:UInt32}) AS lease_expires_at, now64(6) AS updated_at, {error:String} AS error)
FROM cost_insights.backup_runs
FINAL
WHERE name IN ({names:Array(String)});
