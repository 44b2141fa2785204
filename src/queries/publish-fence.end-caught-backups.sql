-- publish-fence.end-caught-backups: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 3, sent by query
SELECT name
FROM cost_insights.backup_runs
FINAL
WHERE state = 'running'
ORDER BY name ASC;

-- statement 2 of 3, sent by command
-- parameters:
--   names = ["full-20261125"]
--   state = "created"
--   lease = 0
--   error = ""
INSERT INTO cost_insights.backup_runs SELECT * REPLACE (CAST({state:String}, 'Enum8(\'running\' = 1, \'created\' = 2, \'failed\' = 3)') AS state, now64(3) + toIntervalSecond({lease:UInt32}) AS lease_expires_at, now64(6) AS updated_at, {error:String} AS error)
FROM cost_insights.backup_runs
FINAL
WHERE name IN ({names:Array(String)});

-- statement 3 of 3, sent by command
-- parameters:
--   names = ["full-20261124"]
--   state = "failed"
--   lease = 0
--   error = "running on the store backup full-20261125 was taken from; its end is not in this store"
INSERT INTO cost_insights.backup_runs SELECT * REPLACE (CAST({state:String}, 'Enum8(\'running\' = 1, \'created\' = 2, \'failed\' = 3)') AS state, now64(3) + toIntervalSecond({lease:UInt32}) AS lease_expires_at, now64(6) AS updated_at, {error:String} AS error)
FROM cost_insights.backup_runs
FINAL
WHERE name IN ({names:Array(String)});
