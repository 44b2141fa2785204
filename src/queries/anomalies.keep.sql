-- anomalies.keep: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.anomalies (organization_id, anomaly_id, dimension, dimension_value, start_date, end_date, detected_at) FORMAT JSONEachRow;
