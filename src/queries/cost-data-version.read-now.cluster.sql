-- cost-data-version.read-now.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   database = "cost_insights"
--   tables = ["cost_line_items"]
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   no_organization = "00000000-0000-0000-0000-000000000000"
SELECT
    organization_id,
    toString(sum(partition_digest)) AS digest
FROM
(
    SELECT
        toString(toUUIDOrZero(extract(any(partition), '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'))) AS organization_id,
        cityHash64(`table`, partition_id, min(min_block_number), max(max_block_number), max(if(data_version > max_block_number, toInt64(data_version), 0)), sum(rows)) AS partition_digest
    FROM clusterAllReplicas('cost_insights', system.parts)
    WHERE (database = {database:String}) AND (`table` IN ({tables:Array(String)})) AND active AND (toUUIDOrZero(extract(partition, '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}')) IN ({organization_id:UUID}, {no_organization:UUID}))
    GROUP BY
        `table`,
        partition_id
)
GROUP BY organization_id
SETTINGS skip_unavailable_shards = 1;
