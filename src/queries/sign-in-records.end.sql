-- sign-in-records.end: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.sign_in_records (record_key, payload, written_at, expires_at, ended) FORMAT JSONEachRow;
