-- import-staging.staged-on-host: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
SELECT
    _partition_id AS partition_id,
    toString(count()) AS row_count
FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b
GROUP BY partition_id;
