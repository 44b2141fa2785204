-- Secrets of this installation (src/infrastructure/installation-secrets): random keys the service makes once, at first
-- use, and every replica of the API reads back, e.g. the key of the anomaly ids' HMAC. In the store, not in a setting,
-- so every replica computes the same values and a backup restores them (ids stable across a restore). Never returned
-- by an endpoint nor logged. Created by an insert carrying a deduplication token per name: two replicas racing to
-- create one store one row (the window keeps the tokens of plain MergeTree; Replicated tables keep theirs in Keeper).
CREATE TABLE IF NOT EXISTS {{database}}.installation_secrets
(
    name       String,
    secret     String,
    created_at DateTime64(6, 'UTC')
)
ENGINE = MergeTree
ORDER BY (name, created_at)
SETTINGS non_replicated_deduplication_window = 1000;
