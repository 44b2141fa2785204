-- import-input.drop-import-input: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 4, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_to_staging;

-- statement 2 of 4, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_to_report;

-- statement 3 of 4, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_report;

-- statement 4 of 4, sent by command
DROP TABLE IF EXISTS cost_insights.focus_import_mwvps5c0_7f3e2a1b_input;
