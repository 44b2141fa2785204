-- cost-categories.save: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.cost_category_versions (organization_id, key, created_at, version_id, effective_from, definition, deleted, created_by) FORMAT JSONEachRow;
