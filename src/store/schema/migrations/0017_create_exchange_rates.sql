-- Exchange rates of each organisation, as loaded (`rates import`, POST /v1/admin/exchange-rates): 1 base = rate
-- quote on rate_date, from source. The conversion of an answer derives what it needs (inverse and cross rates, the
-- latest earlier rate within 7 days) from these rows (src/common/money/exchange-rates.ts). A rate loaded again for
-- the same date and pair replaces the earlier one (the latest load wins; readers use FINAL). Partitioned by
-- organisation: a load changes that organisation's data version, and so the answers it may have cached.
CREATE TABLE IF NOT EXISTS {{database}}.exchange_rates
(
    organization_id UUID,
    rate_date       Date,
    base_currency   LowCardinality(String),
    quote_currency  LowCardinality(String),
    rate            Decimal(38, 18),
    source          LowCardinality(String),
    loaded_at       DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree(loaded_at)
PARTITION BY organization_id
ORDER BY (organization_id, base_currency, quote_currency, rate_date)
