-- Money in the currency it was billed in, and the invoice it was billed on (issue 29).
--
-- billing_currency: FOCUS BillingCurrency (ISO 4217) of every cost row, so that no answer adds two currencies
-- (src/currency, src/cost-query/currency-conversion.ts). No import before this migration recorded a currency (the
-- importer only warned about a file that mixed two): every existing row gets the default, USD, the currency every
-- answer assumed until then. Re-importing a period stores its file's BillingCurrency.
--
-- The invoice columns (FOCUS 1.2 InvoiceId, InvoiceIssuerName, ChargeCategory, ChargeClass, BillingAccountId) make
-- a provider's invoices reproducible (POST /v1/cost-insights/invoices). Rows loaded before have no invoice id or
-- billing account (''); their charge category and class are read back from cost_type, which holds both
-- ('Spot Usage' → Usage, 'Credit (Correction)' → Credit and Correction). Demo and test rows written without them
-- get the same.
ALTER TABLE {{database}}.cost_line_items ADD COLUMN IF NOT EXISTS billing_currency LowCardinality(String) DEFAULT 'USD' AFTER billing_period;

ALTER TABLE {{database}}.cost_line_items ADD COLUMN IF NOT EXISTS billing_account_id String DEFAULT '';

ALTER TABLE {{database}}.cost_line_items ADD COLUMN IF NOT EXISTS invoice_id String DEFAULT '';

ALTER TABLE {{database}}.cost_line_items ADD COLUMN IF NOT EXISTS invoice_issuer LowCardinality(String) DEFAULT '';

ALTER TABLE {{database}}.cost_line_items ADD COLUMN IF NOT EXISTS charge_category LowCardinality(String)
    DEFAULT if(replaceOne(cost_type, ' (Correction)', '') IN ('Committed Usage', 'Spot Usage', 'Unused Commitment'), 'Usage', replaceOne(cost_type, ' (Correction)', ''));

ALTER TABLE {{database}}.cost_line_items ADD COLUMN IF NOT EXISTS charge_class LowCardinality(String)
    DEFAULT if(endsWith(cost_type, ' (Correction)'), 'Correction', '');

ALTER TABLE {{database}}.cost_line_items MATERIALIZE COLUMN billing_currency SETTINGS mutations_sync = 2;

ALTER TABLE {{database}}.cost_line_items MATERIALIZE COLUMN charge_category SETTINGS mutations_sync = 2;

ALTER TABLE {{database}}.cost_line_items MATERIALIZE COLUMN charge_class SETTINGS mutations_sync = 2;

-- The four aggregate projections (0005, 0006, 0015) gain billing_currency as a key, so a question that converts
-- (grouping by currency and day or billing period before applying the rate) is still answered from them. A
-- projection cannot be altered: each is dropped, added again and built for the existing parts. Safe to re-run.
ALTER TABLE {{database}}.cost_line_items DROP PROJECTION IF EXISTS daily_dimension_sums;

ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS daily_dimension_sums
(
    SELECT
        organization_id, usage_date, billing_period, billing_currency, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, usage_date, billing_period, billing_currency, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id
);

ALTER TABLE {{database}}.cost_line_items DROP PROJECTION IF EXISTS monthly_dimension_sums;

ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS monthly_dimension_sums
(
    SELECT
        organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_layer, cloud, service,
        resource_family, region, instance_type, usage_type, cost_type, account_id, account_name, integration_id,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_layer, cloud, service,
        resource_family, region, instance_type, usage_type, cost_type, account_id, account_name, integration_id
);

ALTER TABLE {{database}}.cost_line_items DROP PROJECTION IF EXISTS daily_tag_sums;

ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS daily_tag_sums
(
    SELECT
        organization_id, usage_date, billing_period, billing_currency, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags, cost_categories,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, usage_date, billing_period, billing_currency, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags, cost_categories
);

ALTER TABLE {{database}}.cost_line_items DROP PROJECTION IF EXISTS monthly_tag_sums;

ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS monthly_tag_sums
(
    SELECT
        organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_layer, cloud, service,
        resource_family, region, instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags, cost_categories,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, cost_layer, cloud, service,
        resource_family, region, instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags, cost_categories
);

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION daily_dimension_sums SETTINGS mutations_sync = 1;

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION monthly_dimension_sums SETTINGS mutations_sync = 1;

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION daily_tag_sums SETTINGS mutations_sync = 1;

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION monthly_tag_sums SETTINGS mutations_sync = 1;
