-- migrator.ensure-dictionaries: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by command
CREATE DATABASE IF NOT EXISTS cost_insights;

-- statement 2 of 2, sent by command
CREATE DICTIONARY IF NOT EXISTS cost_insights.activated_map_keys
(
    `organization_id` UUID,
    `tag_keys` Array(String),
    `category_keys` Array(String)
)
PRIMARY KEY organization_id
SOURCE(CLICKHOUSE(QUERY 'SELECT organization_id, groupArrayIf(key, kind = \'tag\') AS tag_keys, groupArrayIf(key, kind = \'costCategory\') AS category_keys FROM cost_insights.tag_key_activations FINAL WHERE state IN (\'backfilling\', \'active\') OR updated_at > now64() - INTERVAL 30 MINUTE GROUP BY organization_id'))
LIFETIME(MIN 30 MAX 60)
LAYOUT(HASHED());
