-- api-keys.write-last-used: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.api_key_usage (key_id, last_used_at) FORMAT JSONEachRow;
