-- sources.period-totals: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   integration_id = "aws-main"
--   billing_periods = ["2026-10","2026-11"]
SELECT
    billing_period,
    billing_currency AS currency,
    toString(sum(billed_cost)) AS billed,
    toString(sum(amortized_cost)) AS amortized
FROM cost_insights.cost_line_items
WHERE (organization_id = {organization_id:UUID}) AND (integration_id = {integration_id:String}) AND (billing_period IN ({billing_periods:Array(String)}))
GROUP BY
    billing_period,
    currency
ORDER BY
    billing_period ASC,
    currency ASC;
