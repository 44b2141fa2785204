-- budgets.alerts: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   since = "2026-10-01T00:00:00.000Z"
--   budget_ids = ["0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e"]
SELECT
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
WHERE (organization_id = {organization_id:UUID}) AND (at >= parseDateTime64BestEffort({since:String}, 3, 'UTC')) AND (budget_id IN ({budget_ids:Array(UUID)}))
ORDER BY
    at ASC,
    event_id ASC;
