-- sources.list: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
SELECT
    organization_id,
    source_id,
    integration_id,
    kind,
    location,
    options,
    toString(created_at) AS created_at,
    removed
FROM cost_insights.ingest_sources
FINAL
WHERE (organization_id = {organization_id:UUID}) AND (removed = 0)
ORDER BY
    created_at ASC,
    source_id ASC;
