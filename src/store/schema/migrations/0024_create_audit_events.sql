-- Audit trail (issue 36): every administrative change of an organisation (keys created and revoked, currency and
-- exchange-rate changes, data sources, sign-ins), one row per event, append-only: nothing updates or deletes a row
-- but the TTL. Written by src/infrastructure/audit-trail, read newest first by GET /v1/admin/audit-events, whose cursor is
-- the (at, event_id) of a page's last event: the sort key, so a page is a range of it.
-- The TTL here is the default retention (AUDIT_RETENTION_DAYS, 400 days); a migration cannot read the configuration,
-- so each start of the API sets the configured one with ALTER TABLE … MODIFY TTL when it differs
-- (src/infrastructure/audit-trail/audit-retention.ts).
CREATE TABLE IF NOT EXISTS {{database}}.audit_events
(
    at              DateTime64(3, 'UTC'),
    organization_id UUID,
    event_id        UUID,
    -- 'api-key' (actor_id: the admin key's id) or 'sso' (actor_id: the identity provider's subject, with its email).
    actor_kind      LowCardinality(String),
    actor_id        String,
    actor_email     String,
    action          LowCardinality(String),
    target          String,
    -- JSON object: what changed (a key's name, scopes and data scope; settings before → after). Never a key, token
    -- or secret.
    details         String,
    client_ip       String,
    request_id      String
)
ENGINE = MergeTree
-- By month: the TTL drops whole months of parts.
PARTITION BY toYYYYMM(at)
ORDER BY (organization_id, at, event_id)
TTL toDateTime(at) + INTERVAL 400 DAY;
