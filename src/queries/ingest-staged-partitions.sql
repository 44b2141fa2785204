-- ingest-staged-partitions: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
SELECT
    _partition_id AS partition_id,
    integration_id,
    billing_period,
    toString(count()) AS row_count,
    toString(sum(billed_cost)) AS billed_cost,
    toString(sum(amortized_cost)) AS effective_cost
FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b
GROUP BY
    partition_id,
    integration_id,
    billing_period
ORDER BY
    billing_period ASC,
    integration_id ASC
SETTINGS max_execution_time = 0
