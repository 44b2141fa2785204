-- Unit costs (issue 60): an organisation's business metrics (orders, active customers, GB served), each a daily series,
-- optionally per value of one dimension (a tag, a cost category, a column such as service). The definition's latest
-- row wins (argMax by updated_at); deleted = 1 ends a metric.
CREATE TABLE IF NOT EXISTS {{database}}.business_metrics
(
    organization_id UUID,
    name            String,
    updated_at      DateTime64(6, 'UTC'),
    unit            String,
    unit_scale      UInt32,
    -- '' (one series) or a dimension as /data names it: `tag:team`, `costCategory:BusinessUnit`, `service`.
    dimension       String,
    deleted         UInt8,
    updated_by      String
)
ENGINE = MergeTree
ORDER BY (organization_id, name, updated_at);

-- A metric's daily values. A load replaces whole days: every row of one load carries its loaded_at, and a day reads
-- the rows of its latest load only (so a dimension value missing from a re-load is gone from that day).
CREATE TABLE IF NOT EXISTS {{database}}.business_metric_values
(
    organization_id UUID,
    name            String,
    date            Date,
    dimension_value String,
    value           Decimal(38, 10),
    loaded_at       DateTime64(6, 'UTC')
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(date)
ORDER BY (organization_id, name, date, loaded_at, dimension_value);
