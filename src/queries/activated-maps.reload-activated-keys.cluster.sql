-- activated-maps.reload-activated-keys.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 4, sent by command to node s1r1
SYSTEM RELOAD DICTIONARY cost_insights.activated_map_keys;

-- statement 2 of 4, sent by command to node s1r2
SYSTEM RELOAD DICTIONARY cost_insights.activated_map_keys;

-- statement 3 of 4, sent by command to node s2r1
SYSTEM RELOAD DICTIONARY cost_insights.activated_map_keys;

-- statement 4 of 4, sent by command to node s2r2
SYSTEM RELOAD DICTIONARY cost_insights.activated_map_keys;
