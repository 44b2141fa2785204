-- activated-maps.reload-activated-keys: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by command
SYSTEM RELOAD DICTIONARY cost_insights.activated_map_keys;
