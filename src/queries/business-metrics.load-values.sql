-- business-metrics.load-values: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 3, sent by insert
INSERT INTO cost_insights.business_metric_loads (organization_id, name, loaded_at, state) FORMAT JSONEachRow;

-- statement 2 of 3, sent by insert
INSERT INTO cost_insights.business_metric_values (organization_id, name, date, dimension_value, value, loaded_at) FORMAT JSONEachRow;

-- statement 3 of 3, sent by insert
INSERT INTO cost_insights.business_metric_loads (organization_id, name, loaded_at, state) FORMAT JSONEachRow;
