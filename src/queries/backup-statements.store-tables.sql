-- backup-statements.store-tables: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
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
