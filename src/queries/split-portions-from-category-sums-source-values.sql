-- split-portions-from-category-sums-source-values: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   category_build_id = "4b7e2d1c-9a8f-4e6d-b5c4-3a2b1c0d9e8f"
--   p0 = "2026-10-01"
--   p1 = "2026-10-01"
--   p2 = "Owner"
--   p3 = ["Shared"]
--   p4 = 200001
SELECT
    toString(usage_date) AS split_day,
    billing_period AS split_period,
    billing_currency AS split_currency,
    cost_categories[{p2:String}] AS split_value,
    toJSONString(CAST('[]', 'Array(String)')) AS split_group,
    CAST('[]', 'Array(UInt8)') AS split_flags,
    [toString(sum(amortized_cost)), toString(sum(billed_cost)), toString(sum(cash_cost)), toString(sum(on_demand_cost)), toString(sum(enterprise_discount_savings)), toString(sum(product_discount_savings)), toString(sum(partner_discount_savings)), toString(sum(commitment_savings)), toString(sum(spot_savings)), toString(sum(other_savings))] AS split_sums
FROM cost_insights.category_value_sums
WHERE (organization_id = {organization_id:UUID}) AND (build_id = {category_build_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date})) AND (split_value IN ({p3:Array(String)}))
GROUP BY
    split_day,
    split_period,
    split_currency,
    split_value,
    split_group,
    split_flags
LIMIT {p4:UInt64}
