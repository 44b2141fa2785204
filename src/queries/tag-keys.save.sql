-- tag-keys.save: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.tag_key_activations (organization_id, kind, key, state, updated_at) FORMAT JSONEachRow;
