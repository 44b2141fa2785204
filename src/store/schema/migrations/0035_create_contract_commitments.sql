-- Contract burn-down (issue 57): the FOCUS 1.3 Contract Commitment dataset, one row per contract commitment of each
-- load. An import replaces the contracts it names whole: a contract reads the rows of its latest complete load only
-- (a commitment missing from a re-import is gone from it), and contracts the import does not name are kept.
CREATE TABLE IF NOT EXISTS {{database}}.contract_commitments
(
    organization_id        UUID,
    contract_id            String,
    loaded_at              DateTime64(6, 'UTC'),
    contract_commitment_id String,
    category               LowCardinality(String),
    type                   String,
    description            String,
    -- Cost in the billing currency; quantity in `unit` (Usage commitments). NULL where the dataset leaves it empty.
    cost                   Nullable(Decimal(38, 10)),
    quantity               Nullable(Decimal(38, 10)),
    unit                   String,
    period_start           DateTime('UTC'),
    period_end             DateTime('UTC'),
    contract_period_start  DateTime('UTC'),
    contract_period_end    DateTime('UTC'),
    billing_currency       LowCardinality(String)
)
ENGINE = MergeTree
ORDER BY (organization_id, contract_id, loaded_at, contract_commitment_id);

-- A load in one piece, as business_metric_loads: `started` before its rows, `complete` after them; a load started and
-- never completed (cut short) is never read.
CREATE TABLE IF NOT EXISTS {{database}}.contract_commitment_loads
(
    organization_id UUID,
    loaded_at       DateTime64(6, 'UTC'),
    state           LowCardinality(String)
)
ENGINE = MergeTree
ORDER BY (organization_id, loaded_at);
