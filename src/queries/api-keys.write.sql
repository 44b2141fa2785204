-- api-keys.write: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.api_keys (key_id, organization_id, name, key_hash, scopes, data_scope, created_at, revoked_at, version) FORMAT JSONEachRow;
