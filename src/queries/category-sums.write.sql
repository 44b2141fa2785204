-- category-sums.write: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 2, sent by insertSelect
-- settings:
--   max_threads = 1
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = ["BusinessUnit"]
--   build_id = "4b7e2d1c-9a8f-4e6d-b5c4-3a2b1c0d9e8f"
--   month = "2026-10-01"
INSERT INTO cost_insights.category_value_sums (organization_id, build_id, usage_date, cost_layer, cloud, service, resource_family, region, instance_type, usage_type, billing_period, cost_type, account_id, integration_id, billing_currency, allocated_method_id, cost_categories, amortized_cost, billed_cost, cash_cost, on_demand_cost, enterprise_discount_savings, product_discount_savings, partner_discount_savings, commitment_savings, spot_savings, other_savings) SELECT
    {organization_id:UUID},
    {build_id:UUID},
    usage_date,
    cost_layer,
    cloud,
    service,
    resource_family,
    region,
    instance_type,
    usage_type,
    billing_period,
    cost_type,
    account_id,
    integration_id,
    billing_currency,
    allocated_method_id,
    mapFilter((key, value) -> has({p0:Array(String)}, key), mapUpdate(cost_categories, map('BusinessUnit', 'Unallocated'))) AS category_values,
    sum(amortized_cost),
    sum(billed_cost),
    sum(cash_cost),
    sum(on_demand_cost),
    sum(enterprise_discount_savings),
    sum(product_discount_savings),
    sum(partner_discount_savings),
    sum(commitment_savings),
    sum(spot_savings),
    sum(other_savings)
FROM cost_insights.cost_line_items
WHERE (organization_id = {organization_id:UUID}) AND (toStartOfMonth(usage_date) = {month:Date})
GROUP BY
    usage_date,
    cost_layer,
    cloud,
    service,
    resource_family,
    region,
    instance_type,
    usage_type,
    billing_period,
    cost_type,
    account_id,
    integration_id,
    billing_currency,
    allocated_method_id,
    category_values;

-- statement 2 of 2, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   build_id = "4b7e2d1c-9a8f-4e6d-b5c4-3a2b1c0d9e8f"
SELECT toString(count()) AS rows
FROM cost_insights.category_value_sums
WHERE (organization_id = {organization_id:UUID}) AND (build_id = {build_id:UUID});
