-- shared-filters.save: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   holder_key_ids = ["ci_key_0001"]
SELECT
    count() AS live_count,
    sum(bytes) AS live_bytes,
    countIf(held) AS held_count,
    sumIf(bytes, held) AS held_bytes
FROM
(
    SELECT
        filter_id,
        max(length(configuration)) AS bytes,
        max(deleted) AS gone,
        max(creator_key_id IN ({holder_key_ids:Array(String)})) AS held
    FROM cost_insights.shared_filters
    WHERE (organization_id = {organization_id:UUID}) AND (expires_at > now64(3))
    GROUP BY filter_id
    HAVING gone = 0
);

-- statement 2 of 2, sent by insert
INSERT INTO cost_insights.shared_filters (filter_id, organization_id, configuration, created_at, expires_at, creator_data_scope, creator_key_id) FORMAT JSONEachRow;
