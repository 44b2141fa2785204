-- allocation-with-split-adjustments: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   cat0 = "team"
--   cat1 = "Shared"
--   cat2 = "2026-10"
--   cat3 = "Owner"
--   p0 = "Owner"
--   p1 = ["Shared"]
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p2 = "2026-10-01"
--   p3 = "2026-10-01"
--   p4 = "(not set)"
--   p5 = ["2026-10-02","2026-10-02"]
--   p6 = ["",""]
--   p7 = ["EUR","EUR"]
--   p8 = ["Shared","data"]
--   p9 = ["Shared","data"]
--   p10 = ["Amazon EC2","Amazon EC2"]
--   p11 = ["111111111111","111111111111"]
--   p12 = ["-10","10"]
--   p13 = ["-10","10"]
--   p14 = ["-10","10"]
--   p15 = ["-10","10"]
--   p16 = ["-10","10"]
--   p17 = ["-10","10"]
--   p18 = ["-10","10"]
--   p19 = ["-10","10"]
--   p20 = ["-10","10"]
--   p21 = ["-10","10"]
--   p22 = ["0","10"]
--   p23 = ["10","0"]
--   p24 = 2
SELECT
    multiIf(grouping(month) = 0, 'month', grouping(service) = 0, 'service', 'account') AS grouping,
    multiIf(grouping(month) = 0, month, grouping(service) = 0, service, account) AS label,
    toString(sum(part_cost)) AS amortized_cost,
    toString(sumIf(part_cost, unallocated)) AS unallocated_cost
FROM
(
    SELECT
        formatDateTime(usage_date, '%Y-%m') AS month,
        service AS service,
        account_id AS account,
        (((mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p0:String}]) = '') OR has({p1:Array(String)}, mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))[{p0:String}])) AS unallocated,
        sum(amortized_cost) AS part_cost
    FROM cost_insights.cost_line_items
    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p2:Date}) AND (toStartOfMonth(usage_date) <= {p3:Date}))
    GROUP BY
        month,
        service,
        account,
        unallocated
    UNION ALL
    SELECT
        formatDateTime(usage_date, '%Y-%m') AS month,
        if(split_dim_1 = {p4:String}, '', split_dim_1) AS service,
        if(split_dim_2 = {p4:String}, '', split_dim_2) AS account,
        ((split_value = '') OR has({p1:Array(String)}, split_value)) AS unallocated,
        sum(amortized_cost) AS part_cost
    FROM
    (
        SELECT
            {p5:Array(Date)}[split_row] AS usage_date,
            {p6:Array(String)}[split_row] AS billing_period,
            {p7:Array(String)}[split_row] AS billing_currency,
            {p8:Array(String)}[split_row] AS split_value,
            {p9:Array(String)}[split_row] AS split_dim_0,
            {p10:Array(String)}[split_row] AS split_dim_1,
            {p11:Array(String)}[split_row] AS split_dim_2,
            toDecimal128({p12:Array(String)}[split_row], 10) AS amortized_cost,
            toDecimal128({p13:Array(String)}[split_row], 10) AS billed_cost,
            toDecimal128({p14:Array(String)}[split_row], 10) AS cash_cost,
            toDecimal128({p15:Array(String)}[split_row], 10) AS on_demand_cost,
            toDecimal128({p16:Array(String)}[split_row], 10) AS enterprise_discount_savings,
            toDecimal128({p17:Array(String)}[split_row], 10) AS product_discount_savings,
            toDecimal128({p18:Array(String)}[split_row], 10) AS partner_discount_savings,
            toDecimal128({p19:Array(String)}[split_row], 10) AS commitment_savings,
            toDecimal128({p20:Array(String)}[split_row], 10) AS spot_savings,
            toDecimal128({p21:Array(String)}[split_row], 10) AS other_savings,
            toDecimal128({p22:Array(String)}[split_row], 10) AS split_in,
            toDecimal128({p23:Array(String)}[split_row], 10) AS split_out
        FROM
        (
            SELECT arrayJoin(range(1, {p24:UInt64} + 1)) AS split_row
        )
    )
    WHERE 1
    GROUP BY
        month,
        service,
        account,
        unallocated
)
GROUP BY
    GROUPING SETS (
        (month),
        (service),
        (account))
ORDER BY
    grouping ASC,
    label ASC
