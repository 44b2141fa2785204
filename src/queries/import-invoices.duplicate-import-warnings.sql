-- import-invoices.duplicate-import-warnings: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   periods = ["2026-10"]
--   accounts = ["111111111111"]
--   integrations = ["aws-main"]
SELECT
    billing_account_id,
    billing_period,
    arraySort(groupUniqArray(integration_id)) AS integrations
FROM cost_insights.cost_line_items
WHERE (organization_id = {organization_id:UUID}) AND (billing_period IN ({periods:Array(String)})) AND (billing_account_id IN ({accounts:Array(String)})) AND (integration_id NOT IN ({integrations:Array(String)}))
GROUP BY
    billing_account_id,
    billing_period
ORDER BY
    billing_account_id ASC,
    billing_period ASC
SETTINGS max_execution_time = 0;
