-- backup-statements.schema-version: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
SELECT max(version) AS version
FROM cost_insights.schema_migrations;
