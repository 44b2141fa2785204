-- category-sums.register: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.category_sum_builds (organization_id, inputs, build_id, row_count, built_at) FORMAT JSONEachRow;
