-- sources.all: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
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
WHERE removed = 0
ORDER BY
    organization_id ASC,
    created_at ASC,
    source_id ASC;
