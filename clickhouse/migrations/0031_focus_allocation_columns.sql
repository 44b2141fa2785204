-- FOCUS 1.3 allocation columns (issue 56): how a provider split a shared charge onto the rows that carry it.
-- allocated_method_id (AllocatedMethodId) is a list field (`allocatedMethods`, grouping dimension `allocatedMethod`);
-- AllocatedMethodDetails is kept as its JSON text, AllocatedResourceId and AllocatedResourceName as text.
-- AllocatedTags are not a column of their own: the importer merges them into resource_tags under the row's own Tags
-- (a key in both keeps the row's value), so they are read as tags everywhere (docs/focus-mapping.md). Rows imported
-- before, and exports of FOCUS 1.2 and older, have none ('').
ALTER TABLE {{database}}.cost_line_items
    ADD COLUMN IF NOT EXISTS allocated_method_id LowCardinality(String) DEFAULT '' AFTER integration_id,
    ADD COLUMN IF NOT EXISTS allocated_method_details String DEFAULT '' AFTER allocated_method_id,
    ADD COLUMN IF NOT EXISTS allocated_resource_id String DEFAULT '' AFTER allocated_method_details,
    ADD COLUMN IF NOT EXISTS allocated_resource_name String DEFAULT '' AFTER allocated_resource_id;

-- The six aggregate projections gain allocated_method_id as a key, so questions on it stay pre-aggregated. A
-- projection cannot be altered: each is dropped, added again and built for the existing parts, as in 0023 — here one
-- statement for each step over the six (fewer statements for a crash to fall between). Safe to re-run.
ALTER TABLE {{database}}.cost_line_items
    DROP PROJECTION IF EXISTS daily_dimension_sums,
    DROP PROJECTION IF EXISTS monthly_dimension_sums,
    DROP PROJECTION IF EXISTS daily_tag_sums,
    DROP PROJECTION IF EXISTS monthly_tag_sums,
    DROP PROJECTION IF EXISTS daily_activated_tag_sums,
    DROP PROJECTION IF EXISTS monthly_activated_tag_sums;

ALTER TABLE {{database}}.cost_line_items
    ADD PROJECTION IF NOT EXISTS daily_dimension_sums
    (
        SELECT
            organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id,
            sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
            sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
            sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
        GROUP BY
            organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id
    ),
    ADD PROJECTION IF NOT EXISTS monthly_dimension_sums
    (
        SELECT
            organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id,
            sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
            sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
            sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
        GROUP BY
            organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id
    ),
    ADD PROJECTION IF NOT EXISTS daily_tag_sums
    (
        SELECT
            organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id, resource_tags, cost_categories,
            sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
            sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
            sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
        GROUP BY
            organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id, resource_tags, cost_categories
    ),
    ADD PROJECTION IF NOT EXISTS monthly_tag_sums
    (
        SELECT
            organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id, resource_tags, cost_categories,
            sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
            sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
            sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
        GROUP BY
            organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id, resource_tags, cost_categories
    ),
    ADD PROJECTION IF NOT EXISTS daily_activated_tag_sums
    (
        SELECT
            organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id, activated_resource_tags, activated_cost_categories,
            sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
            sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
            sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
        GROUP BY
            organization_id, usage_date, billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id, activated_resource_tags, activated_cost_categories
    ),
    ADD PROJECTION IF NOT EXISTS monthly_activated_tag_sums
    (
        SELECT
            organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id, activated_resource_tags, activated_cost_categories,
            sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
            sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
            sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
        GROUP BY
            organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cost_layer, cloud, service, resource_family, region,
            instance_type, usage_type, cost_type, account_id, account_name, integration_id, allocated_method_id, activated_resource_tags, activated_cost_categories
    );

ALTER TABLE {{database}}.cost_line_items
    MATERIALIZE PROJECTION daily_dimension_sums,
    MATERIALIZE PROJECTION monthly_dimension_sums,
    MATERIALIZE PROJECTION daily_tag_sums,
    MATERIALIZE PROJECTION monthly_tag_sums,
    MATERIALIZE PROJECTION daily_activated_tag_sums,
    MATERIALIZE PROJECTION monthly_activated_tag_sums
SETTINGS mutations_sync = 1;

-- The converted sums keep every list field's column (0021): builds written from here group by it too. Builds made
-- before read '' for it, as the rows they summed had it.
ALTER TABLE {{database}}.converted_cost_sums ADD COLUMN IF NOT EXISTS allocated_method_id LowCardinality(String) DEFAULT '' AFTER integration_id;

ALTER TABLE {{database}}.converted_cost_sums DROP PROJECTION IF EXISTS monthly_converted_sums;

ALTER TABLE {{database}}.converted_cost_sums ADD PROJECTION IF NOT EXISTS monthly_converted_sums
(
    SELECT
        organization_id, build_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_layer, cloud,
        service, resource_family, region, instance_type, usage_type, cost_type, account_id, integration_id, allocated_method_id,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), groupBitOr(converted_bit)
    GROUP BY
        organization_id, build_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_layer, cloud,
        service, resource_family, region, instance_type, usage_type, cost_type, account_id, integration_id, allocated_method_id
);

ALTER TABLE {{database}}.converted_cost_sums MATERIALIZE PROJECTION monthly_converted_sums SETTINGS mutations_sync = 1;
