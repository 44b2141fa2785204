-- cost-categories.versions: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   key = "BusinessUnit"
SELECT
    key,
    toString(created_at) AS created_at,
    effective_from,
    definition,
    deleted,
    created_by
FROM cost_insights.cost_category_versions
WHERE (organization_id = {organization_id:UUID}) AND (key = {key:String})
ORDER BY
    key ASC,
    created_at ASC,
    version_id ASC;
