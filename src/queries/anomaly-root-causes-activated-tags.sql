-- anomaly-root-causes-activated-tags: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "2026-10-23"
--   p1 = "2026-11-20"
--   p2 = "env"
--   p3 = ["production"]
--   left_out_categories = ["Tax","Credit","Adjustment","Purchase"]
--   monitored_values = ["payments"]
--   anomaly_values = ["payments"]
--   anomaly_is_other = [0]
--   anomaly_baseline_starts = ["2026-10-23"]
--   anomaly_starts = ["2026-11-20"]
--   anomaly_ends = ["2026-11-20"]
--   anomaly_weekday_days = [[0,0,0,0,1,0,0]]
--   p4 = "team"
--   not_set = "(not set)"
--   window_pair_values = ["payments","payments","payments","payments","payments"]
--   window_pair_days = ["2026-10-23","2026-10-30","2026-11-06","2026-11-13","2026-11-20"]
--   window_days = ["2026-10-23","2026-10-30","2026-11-06","2026-11-13","2026-11-20"]
--   monitored_cause = "tag:team"
SELECT
    anomaly,
    cause.1 AS cause_dimension,
    cause.2 AS cause_value,
    toString(sumIf(part, in_anomaly)) AS actual,
    toString(sumIf(part * weight, NOT in_anomaly)) AS baseline
FROM
(
    SELECT
        anomaly,
        cause,
        usage_date >= ({anomaly_starts:Array(Date)}[anomaly]) AS in_anomaly,
        ({anomaly_weekday_days:Array(Array(UInt8))}[anomaly])[toDayOfWeek(usage_date)] AS weight,
        part
    FROM
    (
        SELECT
            usage_date,
            if(empty(activated_resource_tags[{p4:String}]), {not_set:String}, activated_resource_tags[{p4:String}]) AS value,
            account_id,
            service,
            region,
            usage_type,
            activated_resource_tags,
            sum(amortized_cost) AS part
        FROM cost_insights.cost_line_items
        WHERE (organization_id = {organization_id:UUID}) AND ((usage_date >= {p0:Date}) AND (usage_date <= {p1:Date})) AND ((activated_resource_tags[{p2:String}]) IN ({p3:Array(String)})) AND (charge_category NOT IN ({left_out_categories:Array(String)})) AND (usage_date IN ({window_days:Array(Date)})) AND ((value, usage_date) IN arrayZip({window_pair_values:Array(String)}, {window_pair_days:Array(Date)}))
        GROUP BY
            usage_date,
            value,
            account_id,
            service,
            region,
            usage_type,
            activated_resource_tags
    )
    ARRAY JOIN arrayFilter(i -> (if(({anomaly_is_other:Array(UInt8)}[i]) = 1, NOT has({monitored_values:Array(String)}, value), value = ({anomaly_values:Array(String)}[i])) AND (((usage_date >= ({anomaly_starts:Array(Date)}[i])) AND (usage_date <= ({anomaly_ends:Array(Date)}[i]))) OR ((usage_date >= ({anomaly_baseline_starts:Array(Date)}[i])) AND (usage_date < ({anomaly_starts:Array(Date)}[i])) AND ((({anomaly_weekday_days:Array(Array(UInt8))}[i])[toDayOfWeek(usage_date)]) > 0)))), range(1, 2)) AS anomaly
    ARRAY JOIN arrayFilter(cause -> (((cause.2) != '') AND ((({anomaly_is_other:Array(UInt8)}[anomaly]) = 1) OR ((cause.1) != {monitored_cause:String}))), arrayConcat([('account', account_id), ('service', service), ('region', region), ('usageType', usage_type)], arrayMap((key, value) -> (concat('tag:', key), value), mapKeys(activated_resource_tags), mapValues(activated_resource_tags)))) AS cause
)
GROUP BY
    anomaly,
    cause
ORDER BY
    anomaly ASC,
    cause_dimension ASC,
    cause_value ASC
SETTINGS preferred_optimize_projection_name = 'daily_activated_tag_sums'
