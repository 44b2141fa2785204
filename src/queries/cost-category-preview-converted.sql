-- cost-category-preview-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   cat0 = "team"
--   cat1 = "Unowned"
--   cat2 = "2026-01"
--   cat3 = "Team"
--   cat4 = "2026-10"
--   cat5 = ["Amazon RDS"]
--   cat6 = "Data"
--   cat7 = "team"
--   cat8 = ["payments"]
--   cat9 = "Payments"
--   cat10 = "Team"
--   cat11 = ["Unowned"]
--   cat12 = "Team"
--   cat13 = "Unallocated"
--   cat14 = ["Amazon RDS"]
--   cat15 = "Data"
--   cat16 = "Unallocated"
--   cat17 = "2026-01"
--   cat18 = "BusinessUnit"
--   p0 = "BusinessUnit"
--   not_set = "(not set)"
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p1 = "2026-10-01"
--   p2 = "2026-10-01"
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
SELECT
    value,
    toString(toDecimal128(round(toDecimal128(sum(part_cost), 11), 10), 10)) AS amortized_cost,
    toString(sum(part_rows)) AS rows
FROM
(
    SELECT
        if(empty((arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p0:String}]), {not_set:String}, (arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p0:String}]) AS value,
        toDecimal256(sum(amortized_cost), 10) AS part_cost,
        count() AS part_rows
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p1:Date}) AND (toStartOfMonth(usage_date) <= {p2:Date})) AND (billing_currency = {currency:String})
    GROUP BY value
    UNION ALL
    SELECT
        if(empty((arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p0:String}]), {not_set:String}, (arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p0:String}]) AS value,
        toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS part_cost,
        count() AS part_rows
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p1:Date}) AND (toStartOfMonth(usage_date) <= {p2:Date})) AND (billing_currency != {currency:String})
    GROUP BY
        value,
        billing_currency,
        usage_date
)
GROUP BY value
ORDER BY
    sum(part_cost) DESC,
    value ASC
