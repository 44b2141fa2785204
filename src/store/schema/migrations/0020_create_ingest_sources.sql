-- Data sources (issue 31): where an organisation's FOCUS exports are delivered, checked by the worker
-- (src/sources). A change or removal is a newer row; readers use FINAL and skip removed sources.
CREATE TABLE IF NOT EXISTS {{database}}.ingest_sources
(
    organization_id UUID,
    source_id       UUID,
    integration_id  String,
    kind            LowCardinality(String),
    location        String,
    -- JSON: endpoint, region, path style, and the NAMES of the environment variables holding credentials (never values).
    options         String DEFAULT '{}',
    created_at      DateTime64(6, 'UTC'),
    updated_at      DateTime64(6, 'UTC'),
    removed         UInt8 DEFAULT 0
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY (organization_id, source_id);

-- What each check of a source found and did: one row per check. `imported` rows carry the delivery's fingerprint
-- (a delivery is imported once) and, per billing period and currency, the totals before → after (JSON).
-- Checks that found nothing new are kept 30 days; everything else stays.
CREATE TABLE IF NOT EXISTS {{database}}.ingest_source_checks
(
    organization_id UUID,
    source_id       UUID,
    checked_at      DateTime64(6, 'UTC'),
    outcome         LowCardinality(String),
    scope           String,
    delivery        String,
    delivery_order  String,
    fingerprint     String,
    delivered_at    Nullable(DateTime64(6, 'UTC')),
    billing_periods Array(String),
    rows            UInt64,
    changes         String,
    message         String
)
ENGINE = MergeTree
ORDER BY (organization_id, source_id, checked_at)
TTL toDateTime(checked_at) + INTERVAL 30 DAY DELETE WHERE outcome = 'unchanged';
