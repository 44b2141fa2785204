-- converted-sums.register: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.converted_sum_builds (organization_id, inputs, target_currency, conversion_policy, build_id, converted_currencies, row_count, built_at) FORMAT JSONEachRow;
