-- migrator.migrate: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 3, sent by command
CREATE DATABASE IF NOT EXISTS cost_insights;

-- statement 2 of 3, sent by command
CREATE TABLE IF NOT EXISTS cost_insights.schema_migrations
(
    `version` UInt32,
    `name` String,
    `checksum` String,
    `applied_at` DateTime64(3, 'UTC')
)
ENGINE = MergeTree
ORDER BY version;

-- statement 3 of 3, sent by query
SELECT version
FROM cost_insights.schema_migrations;
