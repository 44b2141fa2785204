-- When each API key was last used, approximately: every instance keeps the times in memory and writes
-- those of the keys used since its last write once a minute (ApiKeysService), one small insert, never
-- one per request. Several instances' rows for a key merge to the latest (ReplacingMergeTree by time).
CREATE TABLE IF NOT EXISTS {{database}}.api_key_usage
(
    key_id       String,
    last_used_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(last_used_at)
ORDER BY key_id
