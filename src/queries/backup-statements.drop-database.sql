-- backup-statements.drop-database: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by command
DROP DATABASE IF EXISTS cost_insights__restore;
