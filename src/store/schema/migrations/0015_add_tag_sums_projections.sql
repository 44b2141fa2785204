-- Tags and cost categories at column speed: two more aggregate projections, the sums of the ten money columns by
-- organisation, day (resp. month) and every column dimension — as daily_dimension_sums and monthly_dimension_sums
-- (0005, 0006) — and by the two Map columns themselves. A tag or cost-category question groups or filters on
-- `resource_tags['team']`, `mapContains(cost_categories, …)`, the maps' keys…: expressions of columns these
-- projections hold, so ClickHouse answers them from the projection, which holds one row per (day, dimensions, tag
-- set) instead of one per line item (hourly usage: tens of rows per resource and day; one per resource and month
-- in the monthly one). The reads turn off optimize_functions_to_subcolumns (ClickhouseService), which would
-- otherwise rewrite a map subscript into a subcolumn read that no projection holds. The column projections stay:
-- a question without tags reads them, smaller wherever tag sets vary more than the dimensions.
--
-- Measured on the bench estate (10M line items, 2 cores): a 12-month tag:team question 856 → 33–37 ms, a 3-month
-- tag filter with a column grouping 234 → 19–23 ms; disk 63.9 → 81.4 MB per million line items, the estate's
-- insert +40 % (docs/performance.md). Answers are identical: exact Decimal sums either way
-- (test/e2e/projection-equivalence.e2e-spec.ts). Projections live in every part, so every write keeps them
-- exact: inserts, merges, REPLACE PARTITION of imports (staging tables are created AS cost_line_items), DROP
-- PARTITION, and each shard's parts on a cluster. MATERIALIZE builds them for existing parts; safe to re-run.
ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS daily_tag_sums
(
    SELECT
        organization_id, usage_date, billing_period, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags, cost_categories,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, usage_date, billing_period, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags, cost_categories
);

ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS monthly_tag_sums
(
    SELECT
        organization_id, toStartOfMonth(usage_date), billing_period, cost_layer, cloud, service, resource_family,
        region, instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags,
        cost_categories,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, toStartOfMonth(usage_date), billing_period, cost_layer, cloud, service, resource_family,
        region, instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags,
        cost_categories
);

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION daily_tag_sums SETTINGS mutations_sync = 1;

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION monthly_tag_sums SETTINGS mutations_sync = 1;
