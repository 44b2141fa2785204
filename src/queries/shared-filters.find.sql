-- shared-filters.find: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   filter_id = "Xc2f9a7b1"
SELECT
    organization_id,
    configuration,
    created_at,
    expires_at,
    creator_data_scope,
    creator_key_id,
    deleted
FROM cost_insights.shared_filters
WHERE (filter_id = {filter_id:String}) AND (expires_at > now64(3))
LIMIT 2;
