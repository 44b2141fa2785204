-- business-metrics.metrics: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   name = "orders"
SELECT
    name,
    argMax(unit, updated_at) AS last_unit,
    argMax(unit_scale, updated_at) AS last_unit_scale,
    argMax(dimension, updated_at) AS last_dimension,
    argMax(deleted, updated_at) AS last_deleted,
    max(updated_at) AS updated,
    argMax(updated_by, updated_at) AS last_updated_by
FROM cost_insights.business_metrics
WHERE (organization_id = {organization_id:UUID}) AND (name = {name:String})
GROUP BY name
ORDER BY name ASC;
