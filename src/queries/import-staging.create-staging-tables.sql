-- import-staging.create-staging-tables: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 4, sent by command
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b AS cost_insights.cost_line_items;

-- statement 2 of 4, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.projections
WHERE (database = {database:String}) AND (`table` = {table:String})
ORDER BY name ASC;

-- statement 3 of 4, sent by command
ALTER TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b
    (DROP PROJECTION daily_dimension_sums),
    (DROP PROJECTION daily_tag_sums);

-- statement 4 of 4, sent by command
SYSTEM STOP MERGES cost_insights.focus_import_mwvps5c0_7f3e2a1b;
