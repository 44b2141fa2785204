-- sign-in-records.get: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   key = "session:d0fff5a7f91aabe14e13483bdfc6e477a6115e95e813c2c13b47ff96f84cdc64"
SELECT
    argMax(payload, written_at) AS payload,
    max(ended) AS ended,
    toString(toUnixTimestamp64Milli(argMax(expires_at, written_at))) AS expires_ms
FROM cost_insights.sign_in_records
WHERE record_key = {key:String};
