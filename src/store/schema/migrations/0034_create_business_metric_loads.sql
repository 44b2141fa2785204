-- Unit costs (issue 60): a load of a metric's values in one piece. A load writes `started` before its values and
-- `complete` after them; a load started and never completed (cut short by a crash) is never read, so no day reads half
-- of a load spanning several months. Loads without rows here (written before this table) are read as they were.
CREATE TABLE IF NOT EXISTS {{database}}.business_metric_loads
(
    organization_id UUID,
    name            String,
    loaded_at       DateTime64(6, 'UTC'),
    state           LowCardinality(String)
)
ENGINE = MergeTree
ORDER BY (organization_id, name, loaded_at);
