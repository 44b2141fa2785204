-- audit-events.page: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   from_ms = 1761955200000
--   before_ms = 1764547200000
--   actor = "alice@example.com"
--   action = "api-key.revoked"
--   after_ms = 1764050400000
--   after_id = "e1d2c3b4-a5f6-4e7d-8c9b-0a1b2c3d4e5f"
--   limit = 100
SELECT
    event_id,
    at,
    organization_id,
    actor_kind,
    actor_id,
    actor_email,
    action,
    target,
    details,
    client_ip,
    request_id
FROM cost_insights.audit_events
WHERE (organization_id = {organization_id:UUID}) AND (at >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC')) AND (at < fromUnixTimestamp64Milli({before_ms:Int64}, 'UTC')) AND ((actor_id = {actor:String}) OR (lower(actor_email) = lower({actor:String}))) AND (action = {action:String}) AND ((at, event_id) < (fromUnixTimestamp64Milli({after_ms:Int64}, 'UTC'), {after_id:UUID}))
ORDER BY
    at DESC,
    event_id DESC
LIMIT {limit:UInt32};
