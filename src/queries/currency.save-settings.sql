-- currency.save-settings: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.organization_settings (organization_id, reporting_currency, conversion_policy, updated_at) FORMAT JSONEachRow;
