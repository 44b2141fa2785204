-- business-metrics.units: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   name = "orders"
--   start = "2026-10-01"
--   end = "2026-10-31"
--   include = ["payments"]
--   exclude = ["search"]
SELECT
    toString(date) AS bucket,
    dimension_value AS value_key,
    toString(sum(value)) AS units
FROM cost_insights.business_metric_values
WHERE (organization_id = {organization_id:UUID}) AND (name = {name:String}) AND ((date >= {start:Date}) AND (date <= {end:Date})) AND (dimension_value IN ({include:Array(String)})) AND (dimension_value NOT IN ({exclude:Array(String)})) AND ((date, loaded_at) IN (
    SELECT
        date,
        max(loaded_at)
    FROM cost_insights.business_metric_values
    WHERE (organization_id = {organization_id:UUID}) AND (name = {name:String}) AND ((date >= {start:Date}) AND (date <= {end:Date})) AND (loaded_at NOT IN (
        SELECT loaded_at
        FROM cost_insights.business_metric_loads
        WHERE (organization_id = {organization_id:UUID}) AND (name = {name:String})
        GROUP BY loaded_at
        HAVING countIf(state = 'complete') = 0
    ))
    GROUP BY date
))
GROUP BY
    bucket,
    value_key
ORDER BY
    bucket ASC,
    value_key ASC;
