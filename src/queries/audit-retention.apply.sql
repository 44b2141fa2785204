-- audit-retention.apply: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "audit_events"
SELECT engine_full
FROM system.tables
WHERE (database = {database:String}) AND (name = {table:String});

-- statement 2 of 2, sent by command
ALTER TABLE cost_insights.audit_events
    (MODIFY TTL toDateTime(at) + toIntervalDay(400));
