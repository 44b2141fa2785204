-- budgets.deliveries: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
-- parameters:
--   since = "2026-10-01T00:00:00.000Z"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
SELECT
    organization_id,
    budget_id,
    period_start,
    period_end,
    threshold_kind,
    threshold_percent,
    event,
    at AS at_text,
    event_id,
    payload,
    notify
FROM cost_insights.budget_alerts
WHERE (at >= parseDateTime64BestEffort({since:String}, 3, 'UTC')) AND (notify != '[]') AND (organization_id = {organization_id:UUID})
ORDER BY
    at ASC,
    event_id ASC;

-- statement 2 of 2, sent by query
-- parameters:
--   event_ids = ["e1d2c3b4-a5f6-4e7d-8c9b-0a1b2c3d4e5f"]
SELECT
    event_id,
    budget_id,
    destination,
    attempt,
    at AS at_text,
    status_code,
    error,
    outcome,
    next_attempt_at AS next_attempt_text
FROM cost_insights.budget_webhook_attempts
WHERE event_id IN ({event_ids:Array(UUID)})
ORDER BY
    event_id ASC,
    destination ASC,
    attempt ASC;
