-- budget-sums-daily-tag-and-rule-category: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   window_start = "2026-10-01"
--   window_end = "2026-10-31"
--   p0 = "team"
--   p1 = ["payments"]
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
--   p2 = "BusinessUnit"
--   p3 = ["Data"]
--   p4 = ["team"]
--   one_off_categories = ["Tax","Credit","Adjustment"]
SELECT
    budget,
    toString(date) AS date,
    one_off,
    toString(sum(part)) AS amount
FROM
(
    SELECT
        budget,
        bucket AS date,
        one_off,
        sum(line_sum) AS part
    FROM
    (
        SELECT
            usage_date AS bucket,
            charge_category IN ({one_off_categories:Array(String)}) AS one_off,
            service,
            billing_period,
            mapFilter((key, value) -> has({p4:Array(String)}, key), resource_tags) AS resource_tags,
            cost_categories,
            sum(amortized_cost) AS line_sum
        FROM cost_insights.cost_line_items
        WHERE (organization_id = {organization_id:UUID}) AND ((usage_date >= {window_start:Date}) AND (usage_date <= {window_end:Date}))
        GROUP BY
            bucket,
            one_off,
            service,
            billing_period,
            resource_tags,
            cost_categories
    )
    ARRAY JOIN arrayFilter(position -> (position != 0), [if(((resource_tags[{p0:String}]) IN ({p1:Array(String)})), 1, 0), if((((arrayMap(categories_1 -> mapUpdate(categories_1, if(billing_period >= {cat17:String}, map({cat18:String}, multiIf(billing_period >= {cat4:String}, multiIf((service IN ({cat5:Array(String)})), {cat6:String}, (lower(resource_tags[{cat7:String}]) IN ({cat8:Array(String)})), {cat9:String}, (NOT ((categories_1[{cat10:String}]) IN ({cat11:Array(String)}))) AND ((categories_1[{cat12:String}]) != ''), categories_1[{cat12:String}], {cat13:String}), multiIf((service IN ({cat14:Array(String)})), {cat15:String}, {cat16:String}))), CAST(map(), 'Map(String, String)'))), [mapUpdate(cost_categories, if(billing_period >= {cat2:String}, map({cat3:String}, multiIf((resource_tags[{cat0:String}]) != '', resource_tags[{cat0:String}], {cat1:String})), CAST(map(), 'Map(String, String)')))])[1])[{p2:String}]) IN ({p3:Array(String)})), 2, 0)]) AS budget
    GROUP BY
        budget,
        date,
        one_off
)
GROUP BY
    budget,
    date,
    one_off
ORDER BY
    budget ASC,
    date ASC,
    one_off ASC
SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'
