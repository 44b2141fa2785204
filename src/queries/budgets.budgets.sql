-- budgets.budgets: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   budget_ids = ["0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e"]
SELECT
    budget_id,
    created_at,
    definition,
    data_scope,
    signing_secret,
    deleted,
    created_by
FROM cost_insights.budget_versions
WHERE (organization_id = {organization_id:UUID}) AND (budget_id IN ({budget_ids:Array(UUID)}))
ORDER BY
    budget_id ASC,
    created_at ASC,
    version_id ASC;
