-- tag-keys.activations: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   kinds = ["tag","costCategory"]
SELECT
    kind,
    key,
    toString(state) AS state,
    toString(updated_at) AS updated_at
FROM cost_insights.tag_key_activations
FINAL
WHERE (organization_id = {organization_id:UUID}) AND (state != 'inactive') AND (kind IN ({kinds:Array(String)}))
ORDER BY
    kind DESC,
    key ASC;
