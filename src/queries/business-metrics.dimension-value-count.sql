-- business-metrics.dimension-value-count: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   name = "orders"
--   adding = ["payments","search"]
SELECT toString(length(arrayDistinct(arrayConcat(groupUniqArray(dimension_value), {adding:Array(String)})))) AS value_count
FROM cost_insights.business_metric_values
WHERE (organization_id = {organization_id:UUID}) AND (name = {name:String});
