-- sources.imported: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   source_id = "6a0d9c8b-1e2f-4a3b-8c4d-5e6f7a8b9c0d"
SELECT
    scope,
    argMax(delivery_order, checked_at) AS order,
    argMax(fingerprint, checked_at) AS fingerprint
FROM cost_insights.ingest_source_checks
WHERE (organization_id = {organization_id:UUID}) AND (source_id = {source_id:UUID}) AND (outcome = 'imported')
GROUP BY scope;
