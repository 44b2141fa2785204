-- import-input-table.clear-report: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by command
TRUNCATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b_report;
