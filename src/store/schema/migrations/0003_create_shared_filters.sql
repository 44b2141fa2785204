-- Shared filters for deployments without Redis (embedded mode). Readers also check expires_at,
-- because TTL deletion happens only at merge time.
CREATE TABLE IF NOT EXISTS {{database}}.shared_filters
(
    filter_id       String,
    organization_id UUID,
    configuration   String COMMENT 'JSON of the normalised filter configuration',
    created_at      DateTime64(3, 'UTC'),
    expires_at      DateTime64(3, 'UTC')
)
ENGINE = MergeTree
ORDER BY filter_id
TTL toDateTime(expires_at) DELETE
