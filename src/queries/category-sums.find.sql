-- category-sums.find: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   inputs = "digest"
--   max_age = 3600
SELECT
    toString(build_id) AS build_id,
    toUInt32(dateDiff('second', built_at, now64(6, 'UTC'))) AS age_seconds
FROM cost_insights.category_sum_builds
WHERE (organization_id = {organization_id:UUID}) AND (inputs = {inputs:String}) AND (built_at > (now64(6, 'UTC') - toIntervalSecond({max_age:UInt32})))
ORDER BY built_at DESC
LIMIT 1;
