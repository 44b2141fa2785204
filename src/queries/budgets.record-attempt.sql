-- budgets.record-attempt: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.budget_webhook_attempts (organization_id, budget_id, event_id, destination, attempt, at, status_code, error, outcome, next_attempt_at) FORMAT JSONEachRow;
