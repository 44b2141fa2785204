-- activated-maps.activations-changed-since: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   since = 1795586400000
--   kinds = ["tag","costCategory"]
--   in_force_kinds = ["tag"]
--   in_force_keys = ["team"]
SELECT toUInt8(count() > 0) AS changed
FROM cost_insights.tag_key_activations
WHERE (organization_id = {organization_id:UUID}) AND (kind IN ({kinds:Array(String)})) AND (updated_at >= (fromUnixTimestamp64Milli({since:Int64}) - toIntervalSecond(120))) AND (NOT (arrayExists((k, n) -> ((k = kind) AND (n = key)), {in_force_kinds:Array(String)}, {in_force_keys:Array(String)}) AND (state IN ('backfilling', 'active'))));
