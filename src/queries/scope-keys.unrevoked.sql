-- scope-keys.unrevoked: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   data_scope = "{\"inclusions\":{\"resourceTag\":\"team\",\"resourceTagValues\":[\"payments\"]}}"
SELECT key_id
FROM cost_insights.api_keys
FINAL
WHERE (organization_id = {organization_id:UUID}) AND (data_scope = {data_scope:String}) AND (revoked_at IS NULL);
