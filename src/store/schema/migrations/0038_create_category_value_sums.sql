-- Category sums (issue 56 item 8): an organisation's costs with the values of its rule-defined cost categories
-- computed once per state of its cost rows and saved versions, so a question grouped or filtered by such a category
-- (and its shared-cost splits) reads stored values instead of evaluating up to 500 rules on every row it reads
-- (src/cost-categories/category-sums.service.ts).
--
-- One row per (build, usage day, every list field's column (billing period and currency among them) and the values of the
-- rule-defined categories): the daily grain of the daily_dimension_sums projection with `cost_categories` holding
-- only the rule-defined keys (an imported category's value is read from the cost rows). Amounts are the groups' exact
-- Decimal sums, as the cost rows keep them. Three projections answer the coarser questions: by month with every
-- column, and by day and by month with only the dates, the currency and the categories (a question grouped by a
-- category alone, and the splits' own reads).
--
-- A build is written under a fresh build_id and registered in category_sum_builds only once complete and only if
-- the organisation's inputs did not change meanwhile: readers only ever read registered builds. Builds expire as
-- converted sums do: whole days' parts are dropped three days after the day they were built.
CREATE TABLE IF NOT EXISTS {{database}}.category_value_sums
(
    organization_id             UUID,
    build_id                    UUID,
    built_on                    Date DEFAULT today(),
    usage_date                  Date,
    billing_period              LowCardinality(String),
    billing_currency            LowCardinality(String),
    cost_layer                  LowCardinality(String),
    cloud                       LowCardinality(String),
    service                     LowCardinality(String),
    resource_family             LowCardinality(String),
    region                      LowCardinality(String),
    instance_type               LowCardinality(String),
    usage_type                  LowCardinality(String),
    cost_type                   LowCardinality(String),
    account_id                  String,
    integration_id              LowCardinality(String),
    allocated_method_id         LowCardinality(String),
    cost_categories             Map(LowCardinality(String), String),
    amortized_cost              Decimal(38, 10),
    billed_cost                 Decimal(38, 10),
    cash_cost                   Decimal(38, 10),
    on_demand_cost              Decimal(38, 10),
    enterprise_discount_savings Decimal(38, 10),
    product_discount_savings    Decimal(38, 10),
    partner_discount_savings    Decimal(38, 10),
    commitment_savings          Decimal(38, 10),
    spot_savings                Decimal(38, 10),
    other_savings               Decimal(38, 10),
    PROJECTION monthly_category_dimension_sums
    (
        SELECT
            organization_id, build_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_layer, cloud, service, resource_family, region, instance_type, usage_type, cost_type, account_id,
            integration_id, allocated_method_id, cost_categories,
            sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
            sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
            sum(commitment_savings), sum(spot_savings), sum(other_savings)
        GROUP BY
            organization_id, build_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_layer, cloud, service, resource_family, region, instance_type, usage_type, cost_type, account_id,
            integration_id, allocated_method_id, cost_categories
    ),
    PROJECTION daily_category_sums
    (
        SELECT
            organization_id, build_id, usage_date, billing_period, billing_currency, cost_categories,
            sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
            sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
            sum(commitment_savings), sum(spot_savings), sum(other_savings)
        GROUP BY organization_id, build_id, usage_date, billing_period, billing_currency, cost_categories
    ),
    PROJECTION monthly_category_sums
    (
        SELECT
            organization_id, build_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_categories,
            sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
            sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
            sum(commitment_savings), sum(spot_savings), sum(other_savings)
        GROUP BY organization_id, build_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_categories
    )
)
ENGINE = MergeTree
PARTITION BY built_on
ORDER BY (organization_id, build_id, usage_date, cloud, service, account_id, region)
TTL built_on + INTERVAL 3 DAY
SETTINGS ttl_only_drop_parts = 1;

-- The complete builds: which build holds an organisation's category sums for one state of its inputs (`inputs`: a
-- digest of its cost rows, rates, settings and saved category versions that merges do not change).
CREATE TABLE IF NOT EXISTS {{database}}.category_sum_builds
(
    organization_id UUID,
    inputs          String,
    build_id        UUID,
    row_count       UInt64,
    built_at        DateTime64(6, 'UTC')
)
ENGINE = MergeTree
ORDER BY (organization_id, inputs)
TTL toDateTime(built_at) + INTERVAL 3 DAY;
