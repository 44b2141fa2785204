-- sources.latest: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   source_id = "6a0d9c8b-1e2f-4a3b-8c4d-5e6f7a8b9c0d"
--   problems = ["refused","unreadable","failed"]
SELECT
    'last' AS role,
    organization_id,
    source_id,
    toString(checked_at) AS checked_at,
    outcome,
    scope,
    delivery,
    delivery_order,
    fingerprint,
    if(isNull(delivered_at), NULL, toString(delivered_at)) AS delivered_at,
    billing_periods,
    rows,
    changes,
    message
FROM cost_insights.ingest_source_checks
WHERE (organization_id = {organization_id:UUID}) AND (source_id = {source_id:UUID})
ORDER BY checked_at DESC
LIMIT 1 BY source_id
UNION ALL
SELECT
    'import' AS role,
    organization_id,
    source_id,
    toString(checked_at) AS checked_at,
    outcome,
    scope,
    delivery,
    delivery_order,
    fingerprint,
    if(isNull(delivered_at), NULL, toString(delivered_at)) AS delivered_at,
    billing_periods,
    rows,
    changes,
    message
FROM cost_insights.ingest_source_checks
WHERE (organization_id = {organization_id:UUID}) AND (source_id = {source_id:UUID}) AND (outcome = 'imported')
ORDER BY checked_at DESC
LIMIT 1 BY source_id
UNION ALL
SELECT
    'problem' AS role,
    organization_id,
    source_id,
    toString(checked_at) AS checked_at,
    outcome,
    scope,
    delivery,
    delivery_order,
    fingerprint,
    if(isNull(delivered_at), NULL, toString(delivered_at)) AS delivered_at,
    billing_periods,
    rows,
    changes,
    message
FROM cost_insights.ingest_source_checks
WHERE (organization_id = {organization_id:UUID}) AND (source_id = {source_id:UUID}) AND (outcome IN ({problems:Array(String)}))
ORDER BY checked_at DESC
LIMIT 1 BY source_id;
