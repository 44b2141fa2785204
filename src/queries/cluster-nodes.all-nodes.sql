-- cluster-nodes.all-nodes: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
-- parameters:
--   cluster = "cost_insights"
SELECT
    shard_num,
    replica_num,
    host_name,
    port
FROM system.clusters
WHERE cluster = {cluster:String}
ORDER BY
    shard_num ASC,
    replica_num ASC;

-- statement 2 of 2, sent by query
-- parameters:
--   cluster = "cost_insights"
SELECT
    shard_num,
    replica_num,
    host_name,
    port
FROM system.clusters
WHERE (cluster = {cluster:String}) AND is_local;
