-- Converted sums (issue 29): an organisation's costs already converted into one answer currency, computed once per
-- state of its cost rows, exchange rates and settings, so a converted /data question reads as few rows as an
-- unconverted one instead of summing every (currency, day) group and applying its rate (src/currency/converted-sums).
--
-- One row per (build, usage day, billing currency and every list field's column): the daily grain of the
-- daily_dimension_sums projection. Each amount is that group's exact Decimal sum times its rate, kept to 18 places
-- (Decimal128, summed as fast as the cost rows' own amounts): exact for every rate of at most 8 places (a scale-10
-- sum times such a rate has at most 18), and for a derived cross rate (itself rounded to 18 places) rounded half away
-- from zero at the 18th place, far below that rate's own rounding. The answer is rounded once, to 10 places. Rows in
-- the answer's own currency are stored as they are. `converted_bit` is the row's currency's bit among the build's
-- converted currencies (converted_sum_builds.converted_currencies; 0: the answer's own), so an answer knows which
-- currencies it converted without grouping by currency. A monthly projection answers the whole-month questions.
--
-- A build is written under a fresh build_id and registered in converted_sum_builds only once complete and only if
-- the organisation's inputs did not change meanwhile: readers only ever read registered builds. Builds expire: whole
-- days' parts are dropped three days after the day they were built (readers stop using a build after 12 hours).
CREATE TABLE IF NOT EXISTS {{database}}.converted_cost_sums
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
    converted_bit               UInt64,
    amortized_cost              Decimal(38, 18),
    billed_cost                 Decimal(38, 18),
    cash_cost                   Decimal(38, 18),
    on_demand_cost              Decimal(38, 18),
    enterprise_discount_savings Decimal(38, 18),
    product_discount_savings    Decimal(38, 18),
    partner_discount_savings    Decimal(38, 18),
    commitment_savings          Decimal(38, 18),
    spot_savings                Decimal(38, 18),
    other_savings               Decimal(38, 18),
    PROJECTION monthly_converted_sums
    (
        SELECT
            organization_id, build_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_layer, cloud,
            service, resource_family, region, instance_type, usage_type, cost_type, account_id, integration_id,
            sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
            sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
            sum(commitment_savings), sum(spot_savings), sum(other_savings), groupBitOr(converted_bit)
        GROUP BY
            organization_id, build_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_layer, cloud,
            service, resource_family, region, instance_type, usage_type, cost_type, account_id, integration_id
    )
)
ENGINE = MergeTree
PARTITION BY built_on
ORDER BY (organization_id, build_id, usage_date, cloud, service, account_id, region)
TTL built_on + INTERVAL 3 DAY
SETTINGS ttl_only_drop_parts = 1;

-- The complete builds: which build holds an organisation's converted sums for one state of its inputs (`inputs`:
-- a digest of its cost rows, rates and settings that merges do not change) and one answer currency and policy;
-- `converted_currencies`: the currencies it converted, bit i of converted_bit being the i-th.
CREATE TABLE IF NOT EXISTS {{database}}.converted_sum_builds
(
    organization_id      UUID,
    inputs               String,
    target_currency      LowCardinality(String),
    conversion_policy    LowCardinality(String),
    build_id             UUID,
    converted_currencies Array(LowCardinality(String)),
    row_count            UInt64,
    built_at             DateTime64(6, 'UTC')
)
ENGINE = MergeTree
ORDER BY (organization_id, inputs, target_currency)
TTL toDateTime(built_at) + INTERVAL 3 DAY;
