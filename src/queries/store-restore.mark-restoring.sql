-- store-restore.mark-restoring: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 3, sent by command
CREATE DATABASE IF NOT EXISTS cost_insights;

-- statement 2 of 3, sent by command
CREATE TABLE IF NOT EXISTS cost_insights.store_restore
(
    `backup` String,
    `state` Enum8('restoring' = 1, 'restored' = 2),
    `at` DateTime64(6, 'UTC')
)
ENGINE = MergeTree
ORDER BY at;

-- statement 3 of 3, sent by command
-- parameters:
--   backup = "full-20261125"
--   state = "restoring"
INSERT INTO cost_insights.store_restore (backup, state, at) SELECT
    {backup:String},
    {state:String},
    now64(6);
