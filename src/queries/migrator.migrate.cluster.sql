-- migrator.migrate.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 21, sent by query
-- parameters:
--   database = "cost_insights"
--   table = "cost_line_items"
SELECT engine
FROM system.tables
WHERE (database = {database:String}) AND (name = {table:String});

-- statement 2 of 21, sent by command to node s1r1
CREATE DATABASE IF NOT EXISTS cost_insights;

-- statement 3 of 21, sent by command to node s1r2
CREATE DATABASE IF NOT EXISTS cost_insights;

-- statement 4 of 21, sent by command to node s2r1
CREATE DATABASE IF NOT EXISTS cost_insights;

-- statement 5 of 21, sent by command to node s2r2
CREATE DATABASE IF NOT EXISTS cost_insights;

-- statement 6 of 21, sent by command to node s1r1
CREATE TABLE IF NOT EXISTS cost_insights.schema_migrations
(
    `version` UInt32,
    `name` String,
    `checksum` String,
    `applied_at` DateTime64(3, 'UTC')
)
ENGINE = MergeTree
ORDER BY version;

-- statement 7 of 21, sent by command to node s1r2
CREATE TABLE IF NOT EXISTS cost_insights.schema_migrations
(
    `version` UInt32,
    `name` String,
    `checksum` String,
    `applied_at` DateTime64(3, 'UTC')
)
ENGINE = MergeTree
ORDER BY version;

-- statement 8 of 21, sent by command to node s2r1
CREATE TABLE IF NOT EXISTS cost_insights.schema_migrations
(
    `version` UInt32,
    `name` String,
    `checksum` String,
    `applied_at` DateTime64(3, 'UTC')
)
ENGINE = MergeTree
ORDER BY version;

-- statement 9 of 21, sent by command to node s2r2
CREATE TABLE IF NOT EXISTS cost_insights.schema_migrations
(
    `version` UInt32,
    `name` String,
    `checksum` String,
    `applied_at` DateTime64(3, 'UTC')
)
ENGINE = MergeTree
ORDER BY version;

-- statement 10 of 21, sent by query to node s1r1
SELECT version
FROM cost_insights.schema_migrations;

-- statement 11 of 21, sent by query to node s1r2
SELECT version
FROM cost_insights.schema_migrations;

-- statement 12 of 21, sent by query to node s2r1
SELECT version
FROM cost_insights.schema_migrations;

-- statement 13 of 21, sent by query to node s2r2
SELECT version
FROM cost_insights.schema_migrations;

-- statement 14 of 21, sent by query to node s1r1
-- parameters:
--   database = "cost_insights"
--   tables = ["cost_line_items","api_keys","api_key_usage","shared_filters","import_journal","exchange_rates","organization_settings","ingest_sources","ingest_source_checks","converted_cost_sums","converted_sum_builds","category_value_sums","category_sum_builds","anomalies","anomaly_feedback","audit_events","backup_runs","tag_key_activations","installation_secrets","cost_category_versions","budget_versions","budget_alerts","budget_webhook_attempts","business_metrics","business_metric_values","business_metric_loads","contract_commitments","contract_commitment_loads","cost_line_items_distributed","api_keys_distributed","api_key_usage_distributed","shared_filters_distributed","import_journal_distributed","exchange_rates_distributed","organization_settings_distributed","ingest_sources_distributed","ingest_source_checks_distributed","converted_cost_sums_distributed","converted_sum_builds_distributed","category_value_sums_distributed","category_sum_builds_distributed","anomalies_distributed","anomaly_feedback_distributed","audit_events_distributed","backup_runs_distributed","tag_key_activations_distributed","installation_secrets_distributed","cost_category_versions_distributed","budget_versions_distributed","budget_alerts_distributed","budget_webhook_attempts_distributed","business_metrics_distributed","business_metric_values_distributed","business_metric_loads_distributed","contract_commitments_distributed","contract_commitment_loads_distributed"]
SELECT
    `table`,
    groupArray(concat(name, ' ', type)) AS columns
FROM
(
    SELECT
        `table`,
        name,
        type
    FROM system.columns
    WHERE (database = {database:String}) AND (`table` IN ({tables:Array(String)}))
    ORDER BY
        `table` ASC,
        position ASC
)
GROUP BY `table`;

-- statement 15 of 21, sent by query to node s1r2
-- parameters:
--   database = "cost_insights"
--   tables = ["cost_line_items","api_keys","api_key_usage","shared_filters","import_journal","exchange_rates","organization_settings","ingest_sources","ingest_source_checks","converted_cost_sums","converted_sum_builds","category_value_sums","category_sum_builds","anomalies","anomaly_feedback","audit_events","backup_runs","tag_key_activations","installation_secrets","cost_category_versions","budget_versions","budget_alerts","budget_webhook_attempts","business_metrics","business_metric_values","business_metric_loads","contract_commitments","contract_commitment_loads","cost_line_items_distributed","api_keys_distributed","api_key_usage_distributed","shared_filters_distributed","import_journal_distributed","exchange_rates_distributed","organization_settings_distributed","ingest_sources_distributed","ingest_source_checks_distributed","converted_cost_sums_distributed","converted_sum_builds_distributed","category_value_sums_distributed","category_sum_builds_distributed","anomalies_distributed","anomaly_feedback_distributed","audit_events_distributed","backup_runs_distributed","tag_key_activations_distributed","installation_secrets_distributed","cost_category_versions_distributed","budget_versions_distributed","budget_alerts_distributed","budget_webhook_attempts_distributed","business_metrics_distributed","business_metric_values_distributed","business_metric_loads_distributed","contract_commitments_distributed","contract_commitment_loads_distributed"]
SELECT
    `table`,
    groupArray(concat(name, ' ', type)) AS columns
FROM
(
    SELECT
        `table`,
        name,
        type
    FROM system.columns
    WHERE (database = {database:String}) AND (`table` IN ({tables:Array(String)}))
    ORDER BY
        `table` ASC,
        position ASC
)
GROUP BY `table`;

-- statement 16 of 21, sent by query to node s2r1
-- parameters:
--   database = "cost_insights"
--   tables = ["cost_line_items","api_keys","api_key_usage","shared_filters","import_journal","exchange_rates","organization_settings","ingest_sources","ingest_source_checks","converted_cost_sums","converted_sum_builds","category_value_sums","category_sum_builds","anomalies","anomaly_feedback","audit_events","backup_runs","tag_key_activations","installation_secrets","cost_category_versions","budget_versions","budget_alerts","budget_webhook_attempts","business_metrics","business_metric_values","business_metric_loads","contract_commitments","contract_commitment_loads","cost_line_items_distributed","api_keys_distributed","api_key_usage_distributed","shared_filters_distributed","import_journal_distributed","exchange_rates_distributed","organization_settings_distributed","ingest_sources_distributed","ingest_source_checks_distributed","converted_cost_sums_distributed","converted_sum_builds_distributed","category_value_sums_distributed","category_sum_builds_distributed","anomalies_distributed","anomaly_feedback_distributed","audit_events_distributed","backup_runs_distributed","tag_key_activations_distributed","installation_secrets_distributed","cost_category_versions_distributed","budget_versions_distributed","budget_alerts_distributed","budget_webhook_attempts_distributed","business_metrics_distributed","business_metric_values_distributed","business_metric_loads_distributed","contract_commitments_distributed","contract_commitment_loads_distributed"]
SELECT
    `table`,
    groupArray(concat(name, ' ', type)) AS columns
FROM
(
    SELECT
        `table`,
        name,
        type
    FROM system.columns
    WHERE (database = {database:String}) AND (`table` IN ({tables:Array(String)}))
    ORDER BY
        `table` ASC,
        position ASC
)
GROUP BY `table`;

-- statement 17 of 21, sent by query to node s2r2
-- parameters:
--   database = "cost_insights"
--   tables = ["cost_line_items","api_keys","api_key_usage","shared_filters","import_journal","exchange_rates","organization_settings","ingest_sources","ingest_source_checks","converted_cost_sums","converted_sum_builds","category_value_sums","category_sum_builds","anomalies","anomaly_feedback","audit_events","backup_runs","tag_key_activations","installation_secrets","cost_category_versions","budget_versions","budget_alerts","budget_webhook_attempts","business_metrics","business_metric_values","business_metric_loads","contract_commitments","contract_commitment_loads","cost_line_items_distributed","api_keys_distributed","api_key_usage_distributed","shared_filters_distributed","import_journal_distributed","exchange_rates_distributed","organization_settings_distributed","ingest_sources_distributed","ingest_source_checks_distributed","converted_cost_sums_distributed","converted_sum_builds_distributed","category_value_sums_distributed","category_sum_builds_distributed","anomalies_distributed","anomaly_feedback_distributed","audit_events_distributed","backup_runs_distributed","tag_key_activations_distributed","installation_secrets_distributed","cost_category_versions_distributed","budget_versions_distributed","budget_alerts_distributed","budget_webhook_attempts_distributed","business_metrics_distributed","business_metric_values_distributed","business_metric_loads_distributed","contract_commitments_distributed","contract_commitment_loads_distributed"]
SELECT
    `table`,
    groupArray(concat(name, ' ', type)) AS columns
FROM
(
    SELECT
        `table`,
        name,
        type
    FROM system.columns
    WHERE (database = {database:String}) AND (`table` IN ({tables:Array(String)}))
    ORDER BY
        `table` ASC,
        position ASC
)
GROUP BY `table`;

-- statement 18 of 21, sent by query to node s1r1
-- parameters:
--   database = "cost_insights"
SELECT name
FROM system.dictionaries
WHERE database = {database:String};

-- statement 19 of 21, sent by query to node s1r2
-- parameters:
--   database = "cost_insights"
SELECT name
FROM system.dictionaries
WHERE database = {database:String};

-- statement 20 of 21, sent by query to node s2r1
-- parameters:
--   database = "cost_insights"
SELECT name
FROM system.dictionaries
WHERE database = {database:String};

-- statement 21 of 21, sent by query to node s2r2
-- parameters:
--   database = "cost_insights"
SELECT name
FROM system.dictionaries
WHERE database = {database:String};
