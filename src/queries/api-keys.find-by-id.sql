-- api-keys.find-by-id: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   key_id = "ci_key_0001"
SELECT *
FROM cost_insights.api_keys
FINAL
WHERE key_id = {key_id:String}
LIMIT 1;
