-- api-keys.active-key-ids: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
SELECT key_id
FROM cost_insights.api_keys
FINAL
WHERE revoked_at IS NULL;
