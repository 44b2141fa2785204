-- activated-maps.rewrite-activated-maps: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 6, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "focus_import_mwvps5c0_7f3e2a1b"
--   columns = ["activated_resource_tags","activated_cost_categories"]
SELECT
    name,
    default_expression
FROM system.columns
WHERE (database = {database:String}) AND (`table` = {table:String}) AND (name IN ({columns:Array(String)}))
ORDER BY name ASC;

-- statement 2 of 6, sent by command
ALTER TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b
    (UPDATE activated_resource_tags = activated(activated_resource_tags), activated_cost_categories = activated(activated_cost_categories) WHERE 1)
SETTINGS mutations_sync = 0;

-- statement 3 of 6, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "focus_import_mwvps5c0_7f3e2a1b"
SELECT
    mutation_id,
    latest_fail_reason
FROM system.mutations
WHERE (database = {database:String}) AND (`table` = {table:String}) AND (NOT is_done);

-- statement 4 of 6, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "focus_import_mwvps5c0_7f3e2a1b"
--   wanted = ["daily_activated_tag_sums","monthly_activated_tag_sums"]
SELECT DISTINCT
    partition_id,
    arrayJoin({wanted:Array(String)}) AS projection
FROM system.parts
WHERE (database = {database:String}) AND (`table` = {table:String}) AND active AND (NOT has(projections, projection)) AND (projection IN (
    SELECT name
    FROM system.projections
    WHERE (database = {database:String}) AND (`table` = {table:String})
))
ORDER BY
    partition_id ASC,
    projection ASC;

-- statement 5 of 6, sent by command
ALTER TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b
    (MATERIALIZE PROJECTION daily_tag_sums IN PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f')
SETTINGS mutations_sync = 0;

-- statement 6 of 6, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "focus_import_mwvps5c0_7f3e2a1b"
SELECT
    mutation_id,
    latest_fail_reason
FROM system.mutations
WHERE (database = {database:String}) AND (`table` = {table:String}) AND (NOT is_done);
