-- backup-statements.failed-parts: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
CHECK TABLE cost_insights__restore.cost_line_items
SETTINGS check_query_single_value_result = 0;
