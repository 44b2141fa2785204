-- cost-data-version.current: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   database = "cost_insights"
--   tables = ["cost_line_items","exchange_rates","organization_settings","anomaly_feedback","tag_key_activations","cost_category_versions","business_metrics","business_metric_values","business_metric_loads","contract_commitments","contract_commitment_loads"]
SELECT
    toString(toUUIDOrZero(extract(partition, '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'))) AS organization_id,
    concat(toString(groupBitXor(cityHash64(`table`, name))), '-', toString(count())) AS digest
FROM system.parts
WHERE (database = {database:String}) AND (`table` IN ({tables:Array(String)})) AND active
GROUP BY organization_id;
