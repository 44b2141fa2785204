-- backup-statements.defaults-naming: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   database = "cost_insights_restore"
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
