-- budgets.save: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.budget_versions (organization_id, budget_id, created_at, version_id, definition, data_scope, signing_secret, deleted, created_by) FORMAT JSONEachRow;
