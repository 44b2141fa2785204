-- The four aggregate projections gain charge_category (FOCUS ChargeCategory) as a key (issue 32): forecasts and
-- anomaly scans leave one-off charges and purchases out of the series they judge, and a filter on a column the
-- projections do not keep sent those questions to the line items (a year's anomaly scan at 10M line items read every
-- row). The category mostly follows cost_type, so the projections grow little. A projection cannot be altered: each
-- is dropped, added again and built for the existing parts, as in 0016. Safe to re-run.
ALTER TABLE {{database}}.cost_line_items DROP PROJECTION IF EXISTS daily_dimension_sums;

ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS daily_dimension_sums
(
    SELECT
        organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id
);

ALTER TABLE {{database}}.cost_line_items DROP PROJECTION IF EXISTS monthly_dimension_sums;

ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS monthly_dimension_sums
(
    SELECT
        organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service,
        resource_family, region, instance_type, usage_type, cost_type, account_id, account_name, integration_id,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service,
        resource_family, region, instance_type, usage_type, cost_type, account_id, account_name, integration_id
);

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

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION daily_dimension_sums SETTINGS mutations_sync = 1;

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION monthly_dimension_sums SETTINGS mutations_sync = 1;

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION daily_tag_sums SETTINGS mutations_sync = 1;

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION monthly_tag_sums SETTINGS mutations_sync = 1;
