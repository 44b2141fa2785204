-- Budgets (issue 58): every version of an organisation's budgets, append-only like the cost categories' (the latest
-- version of a budget is in force; a deletion ends it). A budget made with a key that has a data scope keeps that scope
-- for ever: every evaluation ANDs it, so widening the budget's filters never widens what it reads.
CREATE TABLE IF NOT EXISTS {{database}}.budget_versions
(
    organization_id UUID,
    budget_id       UUID,
    created_at      DateTime64(6, 'UTC'),
    version_id      UUID,
    -- JSON: {name, filters, metric, currency, period, amounts, thresholds, notify}; '' for a deletion.
    definition      String,
    -- The canonical JSON data scope of the key that made the budget ('' for none), fixed at creation.
    data_scope      String,
    -- The webhook signing secret, sealed with SECRETS_ENCRYPTION_KEY when the operator sets one (common/crypto/secret-box.ts).
    signing_secret  String,
    deleted         UInt8,
    -- The admin API key's id, or the email of the person signed in to the Settings pages.
    created_by      String
)
ENGINE = MergeTree
ORDER BY (organization_id, budget_id, created_at, version_id);

-- A threshold's alerts: fired or withdrawn (a restated actual, a forecast whose upper bound fell back), one row each,
-- append-only, kept 13 months. The latest row of a (budget, period, threshold) is its state; a forecast threshold
-- that fired once in a period never fires again in it. `notify` is the destinations as they were when it happened.
CREATE TABLE IF NOT EXISTS {{database}}.budget_alerts
(
    organization_id   UUID,
    budget_id         UUID,
    period_start      Date,
    period_end        Date,
    threshold_kind    LowCardinality(String),
    threshold_percent UInt16,
    event             LowCardinality(String),
    at                DateTime64(3, 'UTC'),
    event_id          UUID,
    -- JSON: the webhook event (amount, actual, forecast, currency: exact decimal text).
    payload           String,
    -- JSON: [{url, format}] to deliver to.
    notify            String
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(at)
ORDER BY (organization_id, budget_id, at, event_id)
TTL toDateTime(at) + INTERVAL 13 MONTH;

-- Each webhook delivery attempt of an alert to one destination (its index in `notify`): the status code (0: no
-- response), never the response body; `outcome` delivered, retry (with the next attempt's time) or dead.
CREATE TABLE IF NOT EXISTS {{database}}.budget_webhook_attempts
(
    organization_id UUID,
    budget_id       UUID,
    event_id        UUID,
    destination     UInt16,
    attempt         UInt16,
    at              DateTime64(3, 'UTC'),
    status_code     UInt16,
    error           String,
    outcome         LowCardinality(String),
    next_attempt_at DateTime64(3, 'UTC')
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(at)
ORDER BY (organization_id, event_id, destination, attempt)
TTL toDateTime(at) + INTERVAL 13 MONTH;
