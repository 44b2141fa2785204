-- budgets.record-alerts: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.budget_alerts (organization_id, budget_id, period_start, period_end, threshold_kind, threshold_percent, event, at, event_id, payload, notify) FORMAT JSONEachRow;
