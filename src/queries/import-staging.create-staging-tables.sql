-- import-staging.create-staging-tables: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by command
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b AS cost_insights.cost_line_items;

-- statement 2 of 2, sent by command
SYSTEM STOP MERGES cost_insights.focus_import_mwvps5c0_7f3e2a1b;
