-- audit-events.insert-all: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.audit_events (event_id, at, organization_id, actor_kind, actor_id, actor_email, action, target, details, client_ip, request_id) FORMAT JSONEachRow;
