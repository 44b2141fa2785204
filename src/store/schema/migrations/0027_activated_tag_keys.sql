-- Activated tag and cost-category keys (issue 34). The tag projections of 0015/0023 group by the whole maps, so an
-- estate whose resources carry tags of their own (Name, build, instance-id) keeps one projection row per resource and
-- day whatever the question. An organisation activates the keys its questions group and filter by; the two
-- activated_* columns hold each row's map restricted to them, and two projections aggregate by those columns instead.
--
-- The columns are DEFAULT expressions over the activated_map_keys dictionary, so every write path fills them at
-- write time without knowing about them: inserts, an import's staging table (CREATE TABLE … AS keeps the default),
-- hence REPLACE PARTITION, re-imports and crash recovery, on every shard. Activating a key rewrites the
-- organisation's rows (each partition copied and swapped back) and verifies them before any question reads the columns
-- (src/tag-keys/tag-key-activation.service.ts); a question reads them only when every key it names is active.
--
-- The projections are not built for existing parts here: a part without them is read as before, and an
-- organisation's parts get them when it activates a key. Versions of an activation replace each other.
CREATE TABLE IF NOT EXISTS {{database}}.tag_key_activations
(
    organization_id UUID,
    kind            LowCardinality(String) COMMENT 'tag or costCategory',
    key             String,
    state           Enum8('backfilling' = 1, 'active' = 2, 'inactive' = 3),
    updated_at      DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree(updated_at)
PARTITION BY organization_id
ORDER BY (organization_id, kind, key);

-- Keys being written per organisation: backfilling or active ones, and for 30 minutes those deactivated (an instance
-- learns of a deactivation within twice its RESULT_CACHE_VERSION_CHECK_MS, at most 20 minutes, and may read the
-- activated maps until then: rows written meanwhile must still carry the key). Read through the cluster-wide table on
-- a cluster. Reloaded by the activation service on every node when a key is added; the lifetime is the fallback.
CREATE DICTIONARY IF NOT EXISTS {{database}}.activated_map_keys
(
    organization_id UUID,
    tag_keys        Array(String),
    category_keys   Array(String)
)
PRIMARY KEY organization_id
SOURCE(CLICKHOUSE(QUERY 'SELECT organization_id, groupArrayIf(key, kind = \'tag\') AS tag_keys, groupArrayIf(key, kind = \'costCategory\') AS category_keys FROM {{serving:tag_key_activations}} FINAL WHERE state IN (\'backfilling\', \'active\') OR updated_at > now64() - INTERVAL 30 MINUTE GROUP BY organization_id'))
LIFETIME(MIN 30 MAX 60)
LAYOUT(HASHED());

ALTER TABLE {{database}}.cost_line_items ADD COLUMN IF NOT EXISTS activated_resource_tags Map(String, String)
    DEFAULT mapFilter((k, v) -> has(dictGetOrDefault('{{database}}.activated_map_keys', 'tag_keys', organization_id, CAST([], 'Array(String)')), k), resource_tags);

ALTER TABLE {{database}}.cost_line_items ADD COLUMN IF NOT EXISTS activated_cost_categories Map(String, String)
    DEFAULT mapFilter((k, v) -> has(dictGetOrDefault('{{database}}.activated_map_keys', 'category_keys', organization_id, CAST([], 'Array(String)')), k), cost_categories);

ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS daily_activated_tag_sums
(
    SELECT
        organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id, activated_resource_tags, activated_cost_categories,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id, activated_resource_tags, activated_cost_categories
);

ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS monthly_activated_tag_sums
(
    SELECT
        organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id, activated_resource_tags, activated_cost_categories,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id, activated_resource_tags, activated_cost_categories
);
