-- currency.rate-book: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   quotes = ["USD","EUR"]
--   from = "2026-08-24"
--   to = "2027-01-01"
SELECT
    toString(rate_date) AS date,
    base_currency AS base,
    quote_currency AS quote,
    toString(rate) AS rate,
    source
FROM cost_insights.exchange_rates
FINAL
WHERE (organization_id = {organization_id:UUID}) AND (quote_currency IN ({quotes:Array(String)})) AND ((rate_date >= {from:Date}) AND (rate_date <= {to:Date}));
