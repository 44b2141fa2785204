-- API keys, stored only as SHA-256 hashes. A revocation is a newer version of the same key_id row;
-- readers use FINAL so they always see the latest version.
CREATE TABLE IF NOT EXISTS {{database}}.api_keys
(
    key_id          String,
    organization_id UUID,
    name            String,
    key_hash        String COMMENT 'hex SHA-256 of the full key',
    scopes          Array(LowCardinality(String)),
    created_at      DateTime64(3, 'UTC'),
    revoked_at      Nullable(DateTime64(3, 'UTC')),
    version         UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY key_id
