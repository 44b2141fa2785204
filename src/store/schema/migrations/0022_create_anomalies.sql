-- Anomalies (issue 32): the anomalies an organisation's scans reported, kept 90 days so feedback can name them, and
-- the feedback given. An anomaly's id is a digest of (organisation, monitored dimension, value, first day): the same
-- anomaly keeps its id while later scans extend it; each scan writes a newer row (the latest end wins, FINAL).
CREATE TABLE IF NOT EXISTS {{database}}.anomalies
(
    organization_id UUID,
    anomaly_id      String,
    dimension       String,
    dimension_value String,
    start_date      Date,
    end_date        Date,
    detected_at     DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree(detected_at)
ORDER BY (organization_id, anomaly_id)
TTL toDateTime(detected_at) + INTERVAL 90 DAY;

-- Feedback on an anomaly (the latest per anomaly wins, FINAL). Its days of reasons expected, seasonal and migration
-- are left out of later baselines of the same series; kept as long as the organisation's data (no TTL). Partitioned
-- by organisation, so feedback moves that organisation's data version (cached anomaly answers are recomputed).
CREATE TABLE IF NOT EXISTS {{database}}.anomaly_feedback
(
    organization_id UUID,
    anomaly_id      String,
    dimension       String,
    dimension_value String,
    start_date      Date,
    end_date        Date,
    reason          LowCardinality(String),
    key_id          String,
    recorded_at     DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
PARTITION BY organization_id
ORDER BY (organization_id, anomaly_id);
