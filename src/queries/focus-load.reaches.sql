-- focus-load.reaches: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   probe = "http://10.0.0.5:41234/probe-7f3e2a1b"
SELECT any(raw) AS answer
FROM url({probe:String}, RawBLOB, 'raw String');
