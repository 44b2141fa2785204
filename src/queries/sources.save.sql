-- sources.save: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.ingest_sources (organization_id, source_id, integration_id, kind, location, options, created_at, updated_at, removed) FORMAT JSONEachRow;
