-- split-basis: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "2026-10-01"
--   p1 = "2026-10-01"
--   cat0 = "team"
--   cat1 = "Shared"
--   cat2 = "2026-10"
--   cat3 = "Owner"
--   p2 = "Owner"
--   p3 = ["data","payments"]
SELECT
    toString(usage_date) AS split_day,
    billing_period AS split_period,
    billing_currency AS split_currency,
    mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p2:String}] AS split_value,
    toString(sum(amortized_cost)) AS basis
FROM cost_insights.cost_line_items
WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date})) AND (split_value IN ({p3:Array(String)}))
GROUP BY
    split_day,
    split_period,
    split_currency,
    split_value
