-- sources.record-check: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.ingest_source_checks (organization_id, source_id, checked_at, outcome, scope, delivery, delivery_order, fingerprint, delivered_at, billing_periods, rows, changes, message) FORMAT JSONEachRow;
