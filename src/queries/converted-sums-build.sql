-- converted-sums-build: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   build_id = "9d1c4f2a-5b6e-4a7d-8c9b-0e1f2a3b4c5d"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   month = "2026-10-01"
--   currency = "USD"
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
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
    transform(billing_currency, {converted_codes:Array(String)}, {converted_bits:Array(UInt64)}, toUInt64(0)),
    toDecimal128(round(toDecimal256(sum(amortized_cost), 10), 18), 18),
    toDecimal128(round(toDecimal256(sum(billed_cost), 10), 18), 18),
    toDecimal128(round(toDecimal256(sum(cash_cost), 10), 18), 18),
    toDecimal128(round(toDecimal256(sum(on_demand_cost), 10), 18), 18),
    toDecimal128(round(toDecimal256(sum(enterprise_discount_savings), 10), 18), 18),
    toDecimal128(round(toDecimal256(sum(product_discount_savings), 10), 18), 18),
    toDecimal128(round(toDecimal256(sum(partner_discount_savings), 10), 18), 18),
    toDecimal128(round(toDecimal256(sum(commitment_savings), 10), 18), 18),
    toDecimal128(round(toDecimal256(sum(spot_savings), 10), 18), 18),
    toDecimal128(round(toDecimal256(sum(other_savings), 10), 18), 18)
FROM cost_insights.cost_line_items
WHERE (organization_id = {organization_id:UUID}) AND (toStartOfMonth(usage_date) = {month:Date}) AND (billing_currency = {currency:String})
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
    allocated_method_id
UNION ALL
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
    transform(billing_currency, {converted_codes:Array(String)}, {converted_bits:Array(UInt64)}, toUInt64(0)),
    toDecimal128(round(toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate), 18), 18),
    toDecimal128(round(toDecimal256(sum(billed_cost), 10) * group_rate, 18), 18),
    toDecimal128(round(toDecimal256(sum(cash_cost), 10) * group_rate, 18), 18),
    toDecimal128(round(toDecimal256(sum(on_demand_cost), 10) * group_rate, 18), 18),
    toDecimal128(round(toDecimal256(sum(enterprise_discount_savings), 10) * group_rate, 18), 18),
    toDecimal128(round(toDecimal256(sum(product_discount_savings), 10) * group_rate, 18), 18),
    toDecimal128(round(toDecimal256(sum(partner_discount_savings), 10) * group_rate, 18), 18),
    toDecimal128(round(toDecimal256(sum(commitment_savings), 10) * group_rate, 18), 18),
    toDecimal128(round(toDecimal256(sum(spot_savings), 10) * group_rate, 18), 18),
    toDecimal128(round(toDecimal256(sum(other_savings), 10) * group_rate, 18), 18)
FROM cost_insights.cost_line_items
WHERE (organization_id = {organization_id:UUID}) AND (toStartOfMonth(usage_date) = {month:Date}) AND (billing_currency != {currency:String})
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
    allocated_method_id
