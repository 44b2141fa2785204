-- cost-partitions.write-cost-rows: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.cost_line_items (organization_id, usage_date, billed_cost) FORMAT JSONEachRow;
