-- cluster-nodes.replication: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
SELECT engine
FROM system.tables
WHERE (database = {database:String}) AND (name = {table:String});

-- statement 2 of 2, sent by query
SELECT count()
FROM system.zookeeper
WHERE path = '/';
