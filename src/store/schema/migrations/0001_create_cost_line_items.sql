-- Cost line items: one row per organisation, usage day and combination of dimensions.
-- Money is Decimal so sums are exact; dimensions are LowCardinality strings ('' means not set).
-- The sort key starts with the organisation and the date, which every API query constrains.
CREATE TABLE IF NOT EXISTS {{database}}.cost_line_items
(
    organization_id             UUID,
    usage_date                  Date,
    billing_period              LowCardinality(String) COMMENT 'yyyy-MM of the invoice the charge belongs to',
    cost_layer                  LowCardinality(String),
    cloud                       LowCardinality(String),
    service                     LowCardinality(String),
    resource_family             LowCardinality(String),
    region                      LowCardinality(String),
    instance_type               LowCardinality(String),
    usage_type                  LowCardinality(String),
    cost_type                   LowCardinality(String),
    account_id                  String,
    account_name                String,
    integration_id              LowCardinality(String),
    resource_tags               Map(String, String),
    cost_categories             Map(String, String),
    amortized_cost              Decimal(38, 10),
    billed_cost                 Decimal(38, 10),
    cash_cost                   Decimal(38, 10),
    on_demand_cost              Decimal(38, 10),
    enterprise_discount_savings Decimal(38, 10),
    product_discount_savings    Decimal(38, 10),
    partner_discount_savings    Decimal(38, 10),
    commitment_savings          Decimal(38, 10),
    spot_savings                Decimal(38, 10),
    other_savings               Decimal(38, 10)
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(usage_date)
ORDER BY (organization_id, usage_date, cloud, service, account_id, region)
