-- Settings of an organisation: the currency its answers are reported in (ISO 4217; USD until set) and which day's
-- rate converts a cost (usage_date, or period_end: the last day of its billing period). A change is a newer row;
-- readers use FINAL. Partitioned by organisation, so a change moves that organisation's data version.
CREATE TABLE IF NOT EXISTS {{database}}.organization_settings
(
    organization_id    UUID,
    reporting_currency LowCardinality(String),
    conversion_policy  LowCardinality(String),
    updated_at         DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree(updated_at)
PARTITION BY organization_id
ORDER BY organization_id
