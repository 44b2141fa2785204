-- anomalies.find: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   id = "a1"
SELECT
    dimension,
    dimension_value,
    toString(start_date) AS start,
    toString(end_date) AS end
FROM cost_insights.anomalies
FINAL
WHERE (organization_id = {organization_id:UUID}) AND (anomaly_id = {id:String})
LIMIT 1;
