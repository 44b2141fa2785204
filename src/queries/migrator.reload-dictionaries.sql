-- migrator.reload-dictionaries: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by query
-- parameters:
--   database = "cost_insights"
SELECT name
FROM system.dictionaries
WHERE database = {database:String};

-- statement 2 of 2, sent by command
SYSTEM RELOAD DICTIONARY cost_insights.activated_map_keys;
