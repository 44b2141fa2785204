-- FOCUS allocation and commitment columns (issues 56 and 57), kept per row as the exports give them.
--
-- Allocation (FOCUS 1.3): how a provider split a shared charge onto the rows that carry it. allocated_method_id
-- (AllocatedMethodId) is a list field (`allocatedMethods`, grouping dimension `allocatedMethod`); AllocatedMethodDetails
-- is kept as its JSON text, AllocatedResourceId and AllocatedResourceName as text. AllocatedTags are not a column of
-- their own: the importer merges them into resource_tags under the row's own Tags (a key in both keeps the row's
-- value), so they are read as tags everywhere (docs/focus-mapping.md).
--
-- Commitments (FOCUS 1.0–1.3): the commitment discount a row used, bought or left unused (its id, name, type,
-- category Spend or Usage, status Used or Unused, quantity and unit), the capacity reservation and its status, the
-- pricing category, and FOCUS 1.3 ContractApplied (the contract commitments a row drew down, its JSON text): what
-- utilisation, coverage and contract burn-down are computed from.
--
-- Rows imported before, and exports without these columns, have none ('', a quantity of 0).
ALTER TABLE {{database}}.cost_line_items
    ADD COLUMN IF NOT EXISTS allocated_method_id LowCardinality(String) DEFAULT '' AFTER integration_id,
    ADD COLUMN IF NOT EXISTS allocated_method_details String DEFAULT '' AFTER allocated_method_id,
    ADD COLUMN IF NOT EXISTS allocated_resource_id String DEFAULT '' AFTER allocated_method_details,
    ADD COLUMN IF NOT EXISTS allocated_resource_name String DEFAULT '' AFTER allocated_resource_id,
    ADD COLUMN IF NOT EXISTS pricing_category LowCardinality(String) DEFAULT '',
    ADD COLUMN IF NOT EXISTS commitment_discount_id String DEFAULT '',
    ADD COLUMN IF NOT EXISTS commitment_discount_name String DEFAULT '',
    ADD COLUMN IF NOT EXISTS commitment_discount_type LowCardinality(String) DEFAULT '',
    ADD COLUMN IF NOT EXISTS commitment_discount_category LowCardinality(String) DEFAULT '',
    ADD COLUMN IF NOT EXISTS commitment_discount_status LowCardinality(String) DEFAULT '',
    ADD COLUMN IF NOT EXISTS commitment_discount_quantity Decimal(38, 10) DEFAULT 0,
    ADD COLUMN IF NOT EXISTS commitment_discount_unit LowCardinality(String) DEFAULT '',
    ADD COLUMN IF NOT EXISTS capacity_reservation_id String DEFAULT '',
    ADD COLUMN IF NOT EXISTS capacity_reservation_status LowCardinality(String) DEFAULT '',
    ADD COLUMN IF NOT EXISTS contract_applied String DEFAULT '';

-- The four aggregate projections of the line items' own columns and maps gain allocated_method_id as a key, so
-- questions on it stay pre-aggregated. A projection cannot be altered: each is dropped, added again and built for the
-- existing parts, as in 0023, here one statement per step over the four (fewer statements for a crash to fall
-- between). Safe to re-run. The activated-key projections (0027) are left as they are, as 0027 left them unbuilt:
-- building them for existing parts evaluates the activated maps' defaults, which read the activation dictionary, and
-- on the 2 x 2 test cluster that failed for an upgraded store (the dictionary's source, a Distributed table, unknown
-- to the mutation). A question on allocatedMethod that reads activated maps is answered from the rows.
ALTER TABLE {{database}}.cost_line_items
    DROP PROJECTION IF EXISTS daily_dimension_sums,
    DROP PROJECTION IF EXISTS monthly_dimension_sums,
    DROP PROJECTION IF EXISTS daily_tag_sums,
    DROP PROJECTION IF EXISTS monthly_tag_sums;

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
    );

ALTER TABLE {{database}}.cost_line_items
    MATERIALIZE PROJECTION daily_dimension_sums,
    MATERIALIZE PROJECTION monthly_dimension_sums,
    MATERIALIZE PROJECTION daily_tag_sums,
    MATERIALIZE PROJECTION monthly_tag_sums
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
