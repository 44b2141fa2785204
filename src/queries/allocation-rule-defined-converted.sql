-- allocation-rule-defined-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
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
--   p1 = ["Unallocated"]
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p2 = "2026-10-01"
--   p3 = "2026-10-01"
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
SELECT
    multiIf(grouping(month) = 0, 'month', grouping(service) = 0, 'service', 'account') AS grouping,
    multiIf(grouping(month) = 0, month, grouping(service) = 0, service, account) AS label,
    toString(toDecimal128(round(toDecimal128(sum(part_cost), 11), 10), 10)) AS amortized_cost,
    toString(toDecimal128(round(toDecimal128(sumIf(part_cost, unallocated), 11), 10), 10)) AS unallocated_cost
FROM
(
    SELECT
        formatDateTime(usage_date, '%Y-%m') AS month,
        service AS service,
        account_id AS account,
        ((((arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p0:String}]) = '') OR has({p1:Array(String)}, (arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p0:String}])) AS unallocated,
        toDecimal256(sum(amortized_cost), 10) AS part_cost
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p2:Date}) AND (toStartOfMonth(usage_date) <= {p3:Date})) AND (billing_currency = {currency:String})
    GROUP BY
        month,
        service,
        account,
        unallocated
    UNION ALL
    SELECT
        formatDateTime(usage_date, '%Y-%m') AS month,
        service AS service,
        account_id AS account,
        ((((arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p0:String}]) = '') OR has({p1:Array(String)}, (arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p0:String}])) AS unallocated,
        toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS part_cost
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p2:Date}) AND (toStartOfMonth(usage_date) <= {p3:Date})) AND (billing_currency != {currency:String})
    GROUP BY
        month,
        service,
        account,
        unallocated,
        billing_currency,
        usage_date
)
GROUP BY
    GROUPING SETS (
        (month),
        (service),
        (account))
ORDER BY
    grouping ASC,
    label ASC
