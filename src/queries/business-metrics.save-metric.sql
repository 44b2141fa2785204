-- business-metrics.save-metric: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.business_metrics (organization_id, name, updated_at, unit, unit_scale, dimension, deleted, updated_by) FORMAT JSONEachRow;
