-- anomalies.record-feedback: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.anomaly_feedback (organization_id, anomaly_id, dimension, dimension_value, start_date, end_date, reason, key_id, recorded_at) FORMAT JSONEachRow;
