-- demo-data-loader.load-demo-data: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 13, sent by insert
INSERT INTO cost_insights.cost_line_items (organization_id, usage_date, billing_period, cost_layer, cloud, service, resource_family, region, instance_type, usage_type, cost_type, account_id, account_name, integration_id, resource_tags, cost_categories, billing_currency, billing_account_id, invoice_id, invoice_issuer, charge_category, amortized_cost, billed_cost, cash_cost, on_demand_cost, enterprise_discount_savings, commitment_savings, pricing_category, commitment_discount_id, commitment_discount_name, commitment_discount_type, commitment_discount_category, commitment_discount_status, contract_applied, product_discount_savings, other_savings, spot_savings, partner_discount_savings) FORMAT JSONEachRow;

-- statement 2 of 13, sent by insert
INSERT INTO cost_insights.exchange_rates (organization_id, rate_date, base_currency, quote_currency, rate, source, loaded_at) FORMAT JSONEachRow;

-- statement 3 of 13, sent by insert
INSERT INTO cost_insights.business_metrics (organization_id, name, updated_at, unit, unit_scale, dimension, deleted, updated_by) FORMAT JSONEachRow;

-- statement 4 of 13, sent by insert
INSERT INTO cost_insights.business_metric_loads (organization_id, name, loaded_at, state) FORMAT JSONEachRow;

-- statement 5 of 13, sent by insert
INSERT INTO cost_insights.business_metric_values (organization_id, name, date, dimension_value, value, loaded_at) FORMAT JSONEachRow;

-- statement 6 of 13, sent by insert
INSERT INTO cost_insights.business_metric_loads (organization_id, name, loaded_at, state) FORMAT JSONEachRow;

-- statement 7 of 13, sent by insert
INSERT INTO cost_insights.business_metrics (organization_id, name, updated_at, unit, unit_scale, dimension, deleted, updated_by) FORMAT JSONEachRow;

-- statement 8 of 13, sent by insert
INSERT INTO cost_insights.business_metric_loads (organization_id, name, loaded_at, state) FORMAT JSONEachRow;

-- statement 9 of 13, sent by insert
INSERT INTO cost_insights.business_metric_values (organization_id, name, date, dimension_value, value, loaded_at) FORMAT JSONEachRow;

-- statement 10 of 13, sent by insert
INSERT INTO cost_insights.business_metric_loads (organization_id, name, loaded_at, state) FORMAT JSONEachRow;

-- statement 11 of 13, sent by insert
INSERT INTO cost_insights.contract_commitment_loads (organization_id, loaded_at, state) FORMAT JSONEachRow;

-- statement 12 of 13, sent by insert
INSERT INTO cost_insights.contract_commitments (organization_id, loaded_at, contract_id, contract_commitment_id, category, type, description, cost, quantity, unit, period_start, period_end, contract_period_start, contract_period_end, billing_currency) FORMAT JSONEachRow;

-- statement 13 of 13, sent by insert
INSERT INTO cost_insights.contract_commitment_loads (organization_id, loaded_at, state) FORMAT JSONEachRow;
