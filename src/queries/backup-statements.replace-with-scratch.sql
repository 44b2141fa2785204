-- backup-statements.replace-with-scratch: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 7, sent by query
-- parameters:
--   database = "cost_insights"
SELECT
    name,
    engine,
    total_rows AS rows,
    total_bytes AS bytes
FROM system.tables
WHERE database = {database:String}
ORDER BY name ASC;

-- statement 2 of 7, sent by command
-- settings:
--   check_table_dependencies = 0
DROP TABLE IF EXISTS cost_insights.api_keys SYNC;

-- statement 3 of 7, sent by command
-- settings:
--   check_table_dependencies = 0
DROP TABLE IF EXISTS cost_insights.cost_line_items SYNC;

-- statement 4 of 7, sent by query
-- parameters:
--   database = "cost_insights__restore"
SELECT
    name,
    engine,
    total_rows AS rows,
    total_bytes AS bytes
FROM system.tables
WHERE database = {database:String}
ORDER BY name ASC;

-- statement 5 of 7, sent by command
RENAME TABLE cost_insights__restore.api_keys TO cost_insights.api_keys, cost_insights__restore.cost_line_items TO cost_insights.cost_line_items;

-- statement 6 of 7, sent by query
-- parameters:
--   database = "cost_insights"
--   named = "'cost_insights__restore."
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

-- statement 7 of 7, sent by command
DROP DATABASE IF EXISTS cost_insights__restore;
