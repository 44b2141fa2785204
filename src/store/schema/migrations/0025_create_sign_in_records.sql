-- Sign-in to the Settings pages (issue 36), for deployments without Redis (with Redis, the same records live there
-- with a native TTL): pending sign-ins (state, nonce and PKCE verifier between the redirect to the identity provider
-- and its callback) and signed-in sessions. Keyed by the SHA-256 of the browser's random cookie value: the cookie
-- itself is never stored. Append-only, as every table the API writes through a Distributed table on a cluster: a
-- session's activity is a newer row, its end a row with ended = 1; readers take the newest row of a key and check
-- expires_at (the TTL deletes only at merges).
CREATE TABLE IF NOT EXISTS {{database}}.sign_in_records
(
    record_key  String COMMENT 'kind:sha256-hex of the cookie value',
    payload     String COMMENT 'JSON: the pending sign-in or the session (organisation, subject, email, permissions)',
    written_at  DateTime64(3, 'UTC'),
    expires_at  DateTime64(3, 'UTC'),
    ended       UInt8 DEFAULT 0
)
ENGINE = MergeTree
ORDER BY (record_key, written_at)
TTL toDateTime(expires_at) + INTERVAL 1 DAY DELETE;
