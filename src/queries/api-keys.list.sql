-- api-keys.list: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   after_ms = 1764057600000
--   after_key = "ci_key_0001"
--   limit = 50
SELECT
    keys.*,
    usage.last_used_at AS last_used_at
FROM
(
    SELECT *
    FROM cost_insights.api_keys
    FINAL
    WHERE (organization_id = {organization_id:UUID}) AND ((toUnixTimestamp64Milli(created_at), key_id) > ({after_ms:Int64}, {after_key:String}))
    ORDER BY
        created_at ASC,
        key_id ASC
    LIMIT {limit:UInt64}
) AS keys
LEFT JOIN
(
    SELECT
        key_id,
        max(last_used_at) AS last_used_at
    FROM cost_insights.api_key_usage
    GROUP BY key_id
) AS usage ON usage.key_id = keys.key_id
ORDER BY
    keys.created_at ASC,
    keys.key_id ASC
SETTINGS join_use_nulls = 1;
