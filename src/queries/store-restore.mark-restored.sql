-- store-restore.mark-restored: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by command
-- parameters:
--   backup = "full-20261125"
--   state = "restored"
INSERT INTO cost_insights.store_restore (backup, state, at) SELECT
    {backup:String},
    {state:String},
    now64(6);
