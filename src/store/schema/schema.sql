-- The schema of an empty store after every migration: written by `npm run schema:baseline`, never by hand.
-- A new store is created from it (src/store/schema/schema-baseline.ts); older stores migrate step by step.
-- covers migrations 1..38, checksums hash d8f9a24c608fd1526dcb92abc6dd0fc3903834bacb5c8fa9836cb0ec4ca2c1a3

CREATE DICTIONARY IF NOT EXISTS {{database}}.activated_map_keys
(
    `organization_id` UUID,
    `tag_keys` Array(String),
    `category_keys` Array(String)
)
PRIMARY KEY organization_id
SOURCE(CLICKHOUSE(QUERY 'SELECT organization_id, groupArrayIf(key, kind = \'tag\') AS tag_keys, groupArrayIf(key, kind = \'costCategory\') AS category_keys FROM {{serving:tag_key_activations}} FINAL WHERE state IN (\'backfilling\', \'active\') OR updated_at > now64() - INTERVAL 30 MINUTE GROUP BY organization_id'))
LIFETIME(MIN 30 MAX 60)
LAYOUT(COMPLEX_KEY_HASHED())
;

CREATE TABLE IF NOT EXISTS {{database}}.cost_line_items
(
    `organization_id` UUID,
    `usage_date` Date,
    `billing_period` LowCardinality(String) COMMENT 'yyyy-MM of the invoice the charge belongs to',
    `billing_currency` LowCardinality(String) DEFAULT 'USD',
    `cost_layer` LowCardinality(String),
    `cloud` LowCardinality(String),
    `service` LowCardinality(String),
    `resource_family` LowCardinality(String),
    `region` LowCardinality(String),
    `instance_type` LowCardinality(String),
    `usage_type` LowCardinality(String),
    `cost_type` LowCardinality(String),
    `account_id` String,
    `account_name` String,
    `integration_id` LowCardinality(String),
    `allocated_method_id` LowCardinality(String) DEFAULT '',
    `allocated_method_details` String DEFAULT '',
    `allocated_resource_id` String DEFAULT '',
    `allocated_resource_name` String DEFAULT '',
    `resource_tags` Map(String, String),
    `cost_categories` Map(String, String),
    `amortized_cost` Decimal(38, 10),
    `billed_cost` Decimal(38, 10),
    `cash_cost` Decimal(38, 10),
    `on_demand_cost` Decimal(38, 10),
    `enterprise_discount_savings` Decimal(38, 10),
    `product_discount_savings` Decimal(38, 10),
    `partner_discount_savings` Decimal(38, 10),
    `commitment_savings` Decimal(38, 10),
    `spot_savings` Decimal(38, 10),
    `other_savings` Decimal(38, 10),
    `imported_at` DateTime('UTC') DEFAULT now(),
    `billing_account_id` String DEFAULT '',
    `invoice_id` String DEFAULT '',
    `invoice_issuer` LowCardinality(String) DEFAULT '',
    `charge_category` LowCardinality(String) DEFAULT if((replaceOne(cost_type, ' (Correction)', '') IN ('Committed Usage', 'Spot Usage', 'Unused Commitment')), 'Usage', replaceOne(cost_type, ' (Correction)', '')),
    `charge_class` LowCardinality(String) DEFAULT if(endsWith(cost_type, ' (Correction)'), 'Correction', ''),
    `activated_resource_tags` Map(String, String) DEFAULT mapFilter((k, v) -> has(dictGetOrDefault('{{database}}.activated_map_keys', 'tag_keys', organization_id, CAST([], 'Array(String)')), k), resource_tags),
    `activated_cost_categories` Map(String, String) DEFAULT mapFilter((k, v) -> has(dictGetOrDefault('{{database}}.activated_map_keys', 'category_keys', organization_id, CAST([], 'Array(String)')), k), cost_categories),
    `pricing_category` LowCardinality(String) DEFAULT '',
    `commitment_discount_id` String DEFAULT '',
    `commitment_discount_name` String DEFAULT '',
    `commitment_discount_type` LowCardinality(String) DEFAULT '',
    `commitment_discount_category` LowCardinality(String) DEFAULT '',
    `commitment_discount_status` LowCardinality(String) DEFAULT '',
    `commitment_discount_quantity` Decimal(38, 10) DEFAULT 0,
    `commitment_discount_unit` LowCardinality(String) DEFAULT '',
    `capacity_reservation_id` String DEFAULT '',
    `capacity_reservation_status` LowCardinality(String) DEFAULT '',
    `contract_applied` String DEFAULT '',
    `resource_id` String DEFAULT '',
    `commitment_program_eligibility` String DEFAULT '',
    PROJECTION daily_activated_tag_sums
    (
        SELECT
            organization_id,
            usage_date,
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            activated_resource_tags,
            activated_cost_categories,
            sum(amortized_cost),
            sum(billed_cost),
            sum(cash_cost),
            sum(on_demand_cost),
            sum(enterprise_discount_savings),
            sum(product_discount_savings),
            sum(partner_discount_savings),
            sum(commitment_savings),
            sum(spot_savings),
            sum(other_savings),
            count()
        GROUP BY
            organization_id,
            usage_date,
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            activated_resource_tags,
            activated_cost_categories
    ),
    PROJECTION monthly_activated_tag_sums
    (
        SELECT
            organization_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            activated_resource_tags,
            activated_cost_categories,
            sum(amortized_cost),
            sum(billed_cost),
            sum(cash_cost),
            sum(on_demand_cost),
            sum(enterprise_discount_savings),
            sum(product_discount_savings),
            sum(partner_discount_savings),
            sum(commitment_savings),
            sum(spot_savings),
            sum(other_savings),
            count()
        GROUP BY
            organization_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            activated_resource_tags,
            activated_cost_categories
    ),
    PROJECTION daily_dimension_sums
    (
        SELECT
            organization_id,
            usage_date,
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            allocated_method_id,
            sum(amortized_cost),
            sum(billed_cost),
            sum(cash_cost),
            sum(on_demand_cost),
            sum(enterprise_discount_savings),
            sum(product_discount_savings),
            sum(partner_discount_savings),
            sum(commitment_savings),
            sum(spot_savings),
            sum(other_savings),
            count()
        GROUP BY
            organization_id,
            usage_date,
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            allocated_method_id
    ),
    PROJECTION monthly_dimension_sums
    (
        SELECT
            organization_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            allocated_method_id,
            sum(amortized_cost),
            sum(billed_cost),
            sum(cash_cost),
            sum(on_demand_cost),
            sum(enterprise_discount_savings),
            sum(product_discount_savings),
            sum(partner_discount_savings),
            sum(commitment_savings),
            sum(spot_savings),
            sum(other_savings),
            count()
        GROUP BY
            organization_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            allocated_method_id
    ),
    PROJECTION daily_tag_sums
    (
        SELECT
            organization_id,
            usage_date,
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            allocated_method_id,
            resource_tags,
            cost_categories,
            sum(amortized_cost),
            sum(billed_cost),
            sum(cash_cost),
            sum(on_demand_cost),
            sum(enterprise_discount_savings),
            sum(product_discount_savings),
            sum(partner_discount_savings),
            sum(commitment_savings),
            sum(spot_savings),
            sum(other_savings),
            count()
        GROUP BY
            organization_id,
            usage_date,
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            allocated_method_id,
            resource_tags,
            cost_categories
    ),
    PROJECTION monthly_tag_sums
    (
        SELECT
            organization_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            allocated_method_id,
            resource_tags,
            cost_categories,
            sum(amortized_cost),
            sum(billed_cost),
            sum(cash_cost),
            sum(on_demand_cost),
            sum(enterprise_discount_savings),
            sum(product_discount_savings),
            sum(partner_discount_savings),
            sum(commitment_savings),
            sum(spot_savings),
            sum(other_savings),
            count()
        GROUP BY
            organization_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            charge_category,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            account_name,
            integration_id,
            allocated_method_id,
            resource_tags,
            cost_categories
    ),
    PROJECTION daily_commitment_sums
    (
        SELECT
            organization_id,
            usage_date,
            billing_period,
            billing_currency,
            charge_category,
            cloud,
            service,
            account_id,
            billing_account_id,
            commitment_discount_id,
            commitment_discount_name,
            commitment_discount_type,
            commitment_discount_category,
            commitment_discount_status,
            commitment_discount_unit,
            commitment_program_eligibility,
            sum(amortized_cost),
            sum(on_demand_cost),
            sum(commitment_discount_quantity),
            count()
        GROUP BY
            organization_id,
            usage_date,
            billing_period,
            billing_currency,
            charge_category,
            cloud,
            service,
            account_id,
            billing_account_id,
            commitment_discount_id,
            commitment_discount_name,
            commitment_discount_type,
            commitment_discount_category,
            commitment_discount_status,
            commitment_discount_unit,
            commitment_program_eligibility
    ),
    PROJECTION monthly_commitment_sums
    (
        SELECT
            organization_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            charge_category,
            cloud,
            service,
            account_id,
            billing_account_id,
            commitment_discount_id,
            commitment_discount_name,
            commitment_discount_type,
            commitment_discount_category,
            commitment_discount_status,
            commitment_discount_unit,
            commitment_program_eligibility,
            sum(amortized_cost),
            sum(on_demand_cost),
            sum(commitment_discount_quantity),
            count()
        GROUP BY
            organization_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            charge_category,
            cloud,
            service,
            account_id,
            billing_account_id,
            commitment_discount_id,
            commitment_discount_name,
            commitment_discount_type,
            commitment_discount_category,
            commitment_discount_status,
            commitment_discount_unit,
            commitment_program_eligibility
    )
)
ENGINE = MergeTree
PARTITION BY (organization_id, integration_id, billing_period)
ORDER BY (organization_id, usage_date, cloud, service, account_id, region)
SETTINGS index_granularity = 8192, map_serialization_version = 'basic', map_serialization_version_for_zero_level_parts = 'basic', map_buckets_strategy = 'linear', map_buckets_coefficient = 2, map_buckets_min_avg_size = 1, auto_statistics_types = ''
;

CREATE TABLE IF NOT EXISTS {{database}}.api_keys
(
    `key_id` String,
    `organization_id` UUID,
    `name` String,
    `key_hash` String COMMENT 'hex SHA-256 of the full key',
    `scopes` Array(LowCardinality(String)),
    `created_at` DateTime64(3, 'UTC'),
    `revoked_at` Nullable(DateTime64(3, 'UTC')),
    `version` UInt64,
    `data_scope` String DEFAULT ''
)
ENGINE = ReplacingMergeTree(version)
ORDER BY key_id
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.shared_filters
(
    `filter_id` String,
    `organization_id` UUID,
    `configuration` String COMMENT 'JSON of the normalised filter configuration',
    `created_at` DateTime64(3, 'UTC'),
    `expires_at` DateTime64(3, 'UTC'),
    `creator_data_scope` String DEFAULT '',
    `creator_key_id` String DEFAULT '',
    `deleted` UInt8 DEFAULT 0
)
ENGINE = MergeTree
ORDER BY filter_id
TTL toDateTime(expires_at)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.import_journal
(
    `import_id` String COMMENT 'focus_import_<start, ms in base 36>_<random>',
    `organization_id` UUID,
    `integration_ids` Array(String),
    `partition_ids` Array(String) COMMENT 'cost_line_items partitions the import replaces',
    `backed_up_partition_ids` Array(String) COMMENT 'those of them that existed before: copied to backup_table',
    `backup_table` String,
    `staging_table` String,
    `state` Enum8('swapping' = 1, 'committed' = 2, 'rolled_back' = 3),
    `lease_expires_at` DateTime64(3, 'UTC') COMMENT 'a swapping import is presumed alive until then',
    `updated_at` DateTime64(6, 'UTC'),
    `steps` Array(Tuple(
        host String,
        partition_id String,
        backed_up UInt8)) DEFAULT []
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY import_id
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.api_key_usage
(
    `key_id` String,
    `last_used_at` DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(last_used_at)
ORDER BY key_id
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.exchange_rates
(
    `organization_id` UUID,
    `rate_date` Date,
    `base_currency` LowCardinality(String),
    `quote_currency` LowCardinality(String),
    `rate` Decimal(38, 18),
    `source` LowCardinality(String),
    `loaded_at` DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree(loaded_at)
PARTITION BY organization_id
ORDER BY (organization_id, base_currency, quote_currency, rate_date)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.organization_settings
(
    `organization_id` UUID,
    `reporting_currency` LowCardinality(String),
    `conversion_policy` LowCardinality(String),
    `updated_at` DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree(updated_at)
PARTITION BY organization_id
ORDER BY organization_id
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.ingest_sources
(
    `organization_id` UUID,
    `source_id` UUID,
    `integration_id` String,
    `kind` LowCardinality(String),
    `location` String,
    `options` String DEFAULT '{}',
    `created_at` DateTime64(6, 'UTC'),
    `updated_at` DateTime64(6, 'UTC'),
    `removed` UInt8 DEFAULT 0
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY (organization_id, source_id)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.ingest_source_checks
(
    `organization_id` UUID,
    `source_id` UUID,
    `checked_at` DateTime64(6, 'UTC'),
    `outcome` LowCardinality(String),
    `scope` String,
    `delivery` String,
    `delivery_order` String,
    `fingerprint` String,
    `delivered_at` Nullable(DateTime64(6, 'UTC')),
    `billing_periods` Array(String),
    `rows` UInt64,
    `changes` String,
    `message` String
)
ENGINE = MergeTree
ORDER BY (organization_id, source_id, checked_at)
TTL toDateTime(checked_at) + toIntervalDay(30) WHERE outcome = 'unchanged'
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.converted_cost_sums
(
    `organization_id` UUID,
    `build_id` UUID,
    `built_on` Date DEFAULT today(),
    `usage_date` Date,
    `billing_period` LowCardinality(String),
    `billing_currency` LowCardinality(String),
    `cost_layer` LowCardinality(String),
    `cloud` LowCardinality(String),
    `service` LowCardinality(String),
    `resource_family` LowCardinality(String),
    `region` LowCardinality(String),
    `instance_type` LowCardinality(String),
    `usage_type` LowCardinality(String),
    `cost_type` LowCardinality(String),
    `account_id` String,
    `integration_id` LowCardinality(String),
    `allocated_method_id` LowCardinality(String) DEFAULT '',
    `converted_bit` UInt64,
    `amortized_cost` Decimal(38, 18),
    `billed_cost` Decimal(38, 18),
    `cash_cost` Decimal(38, 18),
    `on_demand_cost` Decimal(38, 18),
    `enterprise_discount_savings` Decimal(38, 18),
    `product_discount_savings` Decimal(38, 18),
    `partner_discount_savings` Decimal(38, 18),
    `commitment_savings` Decimal(38, 18),
    `spot_savings` Decimal(38, 18),
    `other_savings` Decimal(38, 18),
    PROJECTION monthly_converted_sums
    (
        SELECT
            organization_id,
            build_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            integration_id,
            allocated_method_id,
            sum(amortized_cost),
            sum(billed_cost),
            sum(cash_cost),
            sum(on_demand_cost),
            sum(enterprise_discount_savings),
            sum(product_discount_savings),
            sum(partner_discount_savings),
            sum(commitment_savings),
            sum(spot_savings),
            sum(other_savings),
            groupBitOr(converted_bit)
        GROUP BY
            organization_id,
            build_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            integration_id,
            allocated_method_id
    )
)
ENGINE = MergeTree
PARTITION BY built_on
ORDER BY (organization_id, build_id, usage_date, cloud, service, account_id, region)
TTL built_on + toIntervalDay(3)
SETTINGS ttl_only_drop_parts = 1, index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.converted_sum_builds
(
    `organization_id` UUID,
    `inputs` String,
    `target_currency` LowCardinality(String),
    `conversion_policy` LowCardinality(String),
    `build_id` UUID,
    `converted_currencies` Array(LowCardinality(String)),
    `row_count` UInt64,
    `built_at` DateTime64(6, 'UTC')
)
ENGINE = MergeTree
ORDER BY (organization_id, inputs, target_currency)
TTL toDateTime(built_at) + toIntervalDay(3)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.anomalies
(
    `organization_id` UUID,
    `anomaly_id` String,
    `dimension` String,
    `dimension_value` String,
    `start_date` Date,
    `end_date` Date,
    `detected_at` DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree(detected_at)
ORDER BY (organization_id, anomaly_id)
TTL toDateTime(detected_at) + toIntervalDay(90)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.anomaly_feedback
(
    `organization_id` UUID,
    `anomaly_id` String,
    `dimension` String,
    `dimension_value` String,
    `start_date` Date,
    `end_date` Date,
    `reason` LowCardinality(String),
    `key_id` String,
    `recorded_at` DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
PARTITION BY organization_id
ORDER BY (organization_id, anomaly_id)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.audit_events
(
    `at` DateTime64(3, 'UTC'),
    `organization_id` UUID,
    `event_id` UUID,
    `actor_kind` LowCardinality(String),
    `actor_id` String,
    `actor_email` String,
    `action` LowCardinality(String),
    `target` String,
    `details` String,
    `client_ip` String,
    `request_id` String
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(at)
ORDER BY (organization_id, at, event_id)
TTL toDateTime(at) + toIntervalDay(400)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.sign_in_records
(
    `record_key` String COMMENT 'kind:sha256-hex of the cookie value',
    `payload` String COMMENT 'JSON: the pending sign-in or the session (organisation, subject, email, permissions)',
    `written_at` DateTime64(3, 'UTC'),
    `expires_at` DateTime64(3, 'UTC'),
    `ended` UInt8 DEFAULT 0
)
ENGINE = MergeTree
ORDER BY (record_key, written_at)
TTL toDateTime(expires_at) + toIntervalDay(1)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.backup_runs
(
    `name` String,
    `state` Enum8('running' = 1, 'created' = 2, 'failed' = 3),
    `started_at` DateTime64(6, 'UTC'),
    `lease_expires_at` DateTime64(3, 'UTC'),
    `updated_at` DateTime64(6, 'UTC'),
    `error` String DEFAULT ''
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY name
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.tag_key_activations
(
    `organization_id` UUID,
    `kind` LowCardinality(String) COMMENT 'tag or costCategory',
    `key` String,
    `state` Enum8('backfilling' = 1, 'active' = 2, 'inactive' = 3),
    `updated_at` DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree(updated_at)
PARTITION BY organization_id
ORDER BY (organization_id, kind, key)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.installation_secrets
(
    `name` String,
    `secret` String,
    `created_at` DateTime64(6, 'UTC')
)
ENGINE = MergeTree
ORDER BY (name, created_at)
SETTINGS non_replicated_deduplication_window = 1000, index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.cost_category_versions
(
    `organization_id` UUID,
    `key` String,
    `created_at` DateTime64(6, 'UTC'),
    `version_id` UUID,
    `effective_from` LowCardinality(String) COMMENT 'yyyy-MM: the first billing month the version is in effect for',
    `definition` String,
    `deleted` UInt8,
    `created_by` String
)
ENGINE = MergeTree
PARTITION BY organization_id
ORDER BY (organization_id, key, created_at, version_id)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.budget_versions
(
    `organization_id` UUID,
    `budget_id` UUID,
    `created_at` DateTime64(6, 'UTC'),
    `version_id` UUID,
    `definition` String,
    `data_scope` String,
    `signing_secret` String,
    `deleted` UInt8,
    `created_by` String
)
ENGINE = MergeTree
ORDER BY (organization_id, budget_id, created_at, version_id)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.budget_alerts
(
    `organization_id` UUID,
    `budget_id` UUID,
    `period_start` Date,
    `period_end` Date,
    `threshold_kind` LowCardinality(String),
    `threshold_percent` UInt16,
    `event` LowCardinality(String),
    `at` DateTime64(3, 'UTC'),
    `event_id` UUID,
    `payload` String,
    `notify` String
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(at)
ORDER BY (organization_id, budget_id, at, event_id)
TTL toDateTime(at) + toIntervalMonth(13)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.budget_webhook_attempts
(
    `organization_id` UUID,
    `budget_id` UUID,
    `event_id` UUID,
    `destination` UInt16,
    `attempt` UInt16,
    `at` DateTime64(3, 'UTC'),
    `status_code` UInt16,
    `error` String,
    `outcome` LowCardinality(String),
    `next_attempt_at` DateTime64(3, 'UTC')
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(at)
ORDER BY (organization_id, event_id, destination, attempt)
TTL toDateTime(at) + toIntervalMonth(13)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.business_metrics
(
    `organization_id` UUID,
    `name` String,
    `updated_at` DateTime64(6, 'UTC'),
    `unit` String,
    `unit_scale` UInt32,
    `dimension` String,
    `deleted` UInt8,
    `updated_by` String
)
ENGINE = MergeTree
ORDER BY (organization_id, name, updated_at)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.business_metric_values
(
    `organization_id` UUID,
    `name` String,
    `date` Date,
    `dimension_value` String,
    `value` Decimal(38, 10),
    `loaded_at` DateTime64(6, 'UTC')
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(date)
ORDER BY (organization_id, name, date, loaded_at, dimension_value)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.business_metric_loads
(
    `organization_id` UUID,
    `name` String,
    `loaded_at` DateTime64(6, 'UTC'),
    `state` LowCardinality(String)
)
ENGINE = MergeTree
ORDER BY (organization_id, name, loaded_at)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.contract_commitments
(
    `organization_id` UUID,
    `contract_id` String,
    `loaded_at` DateTime64(6, 'UTC'),
    `contract_commitment_id` String,
    `category` LowCardinality(String),
    `type` String,
    `description` String,
    `cost` Nullable(Decimal(38, 10)),
    `quantity` Nullable(Decimal(38, 10)),
    `unit` String,
    `period_start` DateTime('UTC'),
    `period_end` DateTime('UTC'),
    `contract_period_start` DateTime('UTC'),
    `contract_period_end` DateTime('UTC'),
    `billing_currency` LowCardinality(String)
)
ENGINE = MergeTree
ORDER BY (organization_id, contract_id, loaded_at, contract_commitment_id)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.contract_commitment_loads
(
    `organization_id` UUID,
    `loaded_at` DateTime64(6, 'UTC'),
    `state` LowCardinality(String)
)
ENGINE = MergeTree
ORDER BY (organization_id, loaded_at)
SETTINGS index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.category_value_sums
(
    `organization_id` UUID,
    `build_id` UUID,
    `built_on` Date DEFAULT today(),
    `usage_date` Date,
    `billing_period` LowCardinality(String),
    `billing_currency` LowCardinality(String),
    `cost_layer` LowCardinality(String),
    `cloud` LowCardinality(String),
    `service` LowCardinality(String),
    `resource_family` LowCardinality(String),
    `region` LowCardinality(String),
    `instance_type` LowCardinality(String),
    `usage_type` LowCardinality(String),
    `cost_type` LowCardinality(String),
    `account_id` String,
    `integration_id` LowCardinality(String),
    `allocated_method_id` LowCardinality(String),
    `cost_categories` Map(LowCardinality(String), String),
    `amortized_cost` Decimal(38, 10),
    `billed_cost` Decimal(38, 10),
    `cash_cost` Decimal(38, 10),
    `on_demand_cost` Decimal(38, 10),
    `enterprise_discount_savings` Decimal(38, 10),
    `product_discount_savings` Decimal(38, 10),
    `partner_discount_savings` Decimal(38, 10),
    `commitment_savings` Decimal(38, 10),
    `spot_savings` Decimal(38, 10),
    `other_savings` Decimal(38, 10),
    PROJECTION monthly_category_dimension_sums
    (
        SELECT
            organization_id,
            build_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            integration_id,
            allocated_method_id,
            cost_categories,
            sum(amortized_cost),
            sum(billed_cost),
            sum(cash_cost),
            sum(on_demand_cost),
            sum(enterprise_discount_savings),
            sum(product_discount_savings),
            sum(partner_discount_savings),
            sum(commitment_savings),
            sum(spot_savings),
            sum(other_savings)
        GROUP BY
            organization_id,
            build_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            cost_layer,
            cloud,
            service,
            resource_family,
            region,
            instance_type,
            usage_type,
            cost_type,
            account_id,
            integration_id,
            allocated_method_id,
            cost_categories
    ),
    PROJECTION daily_category_sums
    (
        SELECT
            organization_id,
            build_id,
            usage_date,
            billing_period,
            billing_currency,
            cost_categories,
            sum(amortized_cost),
            sum(billed_cost),
            sum(cash_cost),
            sum(on_demand_cost),
            sum(enterprise_discount_savings),
            sum(product_discount_savings),
            sum(partner_discount_savings),
            sum(commitment_savings),
            sum(spot_savings),
            sum(other_savings)
        GROUP BY
            organization_id,
            build_id,
            usage_date,
            billing_period,
            billing_currency,
            cost_categories
    ),
    PROJECTION monthly_category_sums
    (
        SELECT
            organization_id,
            build_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            cost_categories,
            sum(amortized_cost),
            sum(billed_cost),
            sum(cash_cost),
            sum(on_demand_cost),
            sum(enterprise_discount_savings),
            sum(product_discount_savings),
            sum(partner_discount_savings),
            sum(commitment_savings),
            sum(spot_savings),
            sum(other_savings)
        GROUP BY
            organization_id,
            build_id,
            toStartOfMonth(usage_date),
            billing_period,
            billing_currency,
            cost_categories
    )
)
ENGINE = MergeTree
PARTITION BY built_on
ORDER BY (organization_id, build_id, usage_date, cloud, service, account_id, region)
TTL built_on + toIntervalDay(3)
SETTINGS ttl_only_drop_parts = 1, index_granularity = 8192
;

CREATE TABLE IF NOT EXISTS {{database}}.category_sum_builds
(
    `organization_id` UUID,
    `inputs` String,
    `build_id` UUID,
    `row_count` UInt64,
    `built_at` DateTime64(6, 'UTC')
)
ENGINE = MergeTree
ORDER BY (organization_id, inputs)
TTL toDateTime(built_at) + toIntervalDay(3)
SETTINGS index_granularity = 8192
;
