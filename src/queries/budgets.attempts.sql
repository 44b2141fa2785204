-- budgets.attempts: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   budget_id = "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e"
--   since = "2026-10-01T00:00:00.000Z"
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
WHERE (organization_id = {organization_id:UUID}) AND (budget_id = {budget_id:UUID}) AND (at >= parseDateTime64BestEffort({since:String}, 3, 'UTC'))
ORDER BY
    at ASC,
    event_id ASC,
    destination ASC,
    attempt ASC;
