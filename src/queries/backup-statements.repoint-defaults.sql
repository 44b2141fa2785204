-- backup-statements.repoint-defaults: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
-- parameters:
--   database = "cost_insights"
--   named = "'cost_insights_restore."
SELECT
    `table`,
    name,
    default_kind AS kind,
    default_expression AS expression
FROM system.columns
WHERE (database = {database:String}) AND (position(default_expression, {named:String}) > 0)
ORDER BY
    `table` ASC,
    name ASC;

-- statement 2 of 2, sent by command
ALTER TABLE cost_insights.cost_line_items
    (MODIFY COLUMN `resource_tags_activated` DEFAULT mapFilter((k, v) -> dictHas('cost_insights.activated_map_keys', (organization_id, 'tag', k)), resource_tags));
