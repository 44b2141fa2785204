-- currency.loaded-pairs: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
SELECT
    base_currency AS base,
    quote_currency AS quote,
    toUInt32(count()) AS rates,
    toString(min(rate_date)) AS firstDate,
    toString(max(rate_date)) AS lastDate,
    arraySort(groupUniqArray(source)) AS sources
FROM cost_insights.exchange_rates
FINAL
WHERE organization_id = {organization_id:UUID}
GROUP BY
    base,
    quote
ORDER BY
    base ASC,
    quote ASC;
