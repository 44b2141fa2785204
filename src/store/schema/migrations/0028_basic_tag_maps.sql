-- requires merge tree setting: map_serialization_version
-- Tag and cost-category maps back to the basic Map layout, undoing 0008. Bucketed maps let a read of one key fetch
-- one bucket, but only through the subcolumn rewrite, which the reads have turned off since the tag projections
-- (0015: the rewrite hides a map subscript from them). So every tag read, answered from the projections or not,
-- reads whole maps, and reassembling them from buckets took 1.5-2.3x the time of the basic layout on the 10M bench
-- store: a daily 30-day tag:team grouping 74 -> 48 ms, an anomaly scan's root causes 557 -> 379 ms (same answers).
-- New parts (inserts, imports, merges) are written basic from here. A mutation keeps a part's layout, so the two
-- full-map projections are dropped, added again and built as in 0023 (minutes on a large estate: see operations.md).
-- The activated-key projections (0027) and the line items' own maps change as their parts are merged or rewritten
-- (an import, an activation); both layouts are read alike meanwhile. Safe to re-run.
ALTER TABLE {{database}}.cost_line_items MODIFY SETTING
    map_serialization_version = 'basic',
    map_serialization_version_for_zero_level_parts = 'basic';

ALTER TABLE {{database}}.cost_line_items DROP PROJECTION IF EXISTS daily_tag_sums;

ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS daily_tag_sums
(
    SELECT
        organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags, cost_categories,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags, cost_categories
);

ALTER TABLE {{database}}.cost_line_items DROP PROJECTION IF EXISTS monthly_tag_sums;

ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS monthly_tag_sums
(
    SELECT
        organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service,
        resource_family, region, instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags, cost_categories,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service,
        resource_family, region, instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags, cost_categories
);

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION daily_tag_sums SETTINGS mutations_sync = 1;

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION monthly_tag_sums SETTINGS mutations_sync = 1;
