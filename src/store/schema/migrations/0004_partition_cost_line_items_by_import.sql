-- Re-partition cost_line_items so that one partition is exactly one (organisation, integration,
-- billing period): an import then replaces earlier rows of the periods it loads atomically with
-- ALTER TABLE ... REPLACE PARTITION ... FROM <staging table> (see src/ingest/ingest-focus.ts).
-- The sort key is unchanged; queries still prune by (organization_id, usage_date).
--
-- Safe on an existing store and safe to re-run from any statement (the migrator repeats a migration
-- that was interrupted before it was recorded): the build table is always rebuilt from whatever
-- currently holds the name cost_line_items, then swapped in with one atomic EXCHANGE. Run
-- migrations while no import is writing (imports are operator commands).
DROP TABLE IF EXISTS {{database}}.cost_line_items_0004_build;

CREATE TABLE {{database}}.cost_line_items_0004_build
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
PARTITION BY (organization_id, integration_id, billing_period)
ORDER BY (organization_id, usage_date, cloud, service, account_id, region);

INSERT INTO {{database}}.cost_line_items_0004_build
SETTINGS max_partitions_per_insert_block = 0
SELECT * FROM {{database}}.cost_line_items;

EXCHANGE TABLES {{database}}.cost_line_items AND {{database}}.cost_line_items_0004_build;

DROP TABLE IF EXISTS {{database}}.cost_line_items_0004_build;
