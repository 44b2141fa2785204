-- category-sums-build: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   cat0 = "team"
--   cat1 = ["payments","checkout","search"]
--   cat2 = ["BU-0","BU-1","BU-0"]
--   cat3 = ["Amazon RDS","Amazon EC2"]
--   cat4 = ["Platform","Platform"]
--   cat5 = "env"
--   cat6 = "Unallocated"
--   cat7 = "2026-01"
--   cat8 = "BusinessUnit"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = ["BusinessUnit"]
--   build_id = "9d1c4f2a-5b6e-4a7d-8c9b-0e1f2a3b4c5d"
--   month = "2026-10-01"
SELECT
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
    mapFilter((key, value) -> has({p0:Array(String)}, key), mapUpdate(cost_categories, if(billing_period >= {cat7:String}, map({cat8:String}, multiIf(has({cat1:Array(String)}, resource_tags[{cat0:String}]), transform(resource_tags[{cat0:String}], {cat1:Array(String)}, {cat2:Array(String)}, ''), has({cat3:Array(String)}, service), transform(service, {cat3:Array(String)}, {cat4:Array(String)}, ''), (resource_tags[{cat5:String}]) != '', resource_tags[{cat5:String}], {cat6:String})), CAST(map(), 'Map(String, String)')))) AS category_values,
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
    category_values
