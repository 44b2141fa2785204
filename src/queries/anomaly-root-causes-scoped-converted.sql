-- anomaly-root-causes-scoped-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "team"
--   p1 = ["payments"]
--   p2 = ["Oracle"]
--   p3 = "2026-09-03"
--   p4 = "2026-10-02"
--   p5 = ["AWS"]
--   left_out_categories = ["Tax","Credit","Adjustment","Purchase"]
--   monitored_values = ["payments","search"]
--   anomaly_values = ["payments",""]
--   anomaly_is_other = [0,1]
--   anomaly_baseline_starts = ["2026-09-03","2026-09-04"]
--   anomaly_starts = ["2026-10-01","2026-10-02"]
--   anomaly_ends = ["2026-10-02","2026-10-02"]
--   anomaly_weekday_days = [[0,0,0,1,1,0,0],[0,0,0,0,1,0,0]]
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   p6 = "team"
--   not_set = "(not set)"
--   window_pair_values = ["payments","payments","payments","payments","payments","payments","payments","payments","payments","payments"]
--   window_pair_days = ["2026-09-03","2026-09-04","2026-09-10","2026-09-11","2026-09-17","2026-09-18","2026-09-24","2026-09-25","2026-10-01","2026-10-02"]
--   other_window_days = ["2026-09-04","2026-09-11","2026-09-18","2026-09-25","2026-10-02"]
--   window_days = ["2026-09-03","2026-09-04","2026-09-10","2026-09-11","2026-09-17","2026-09-18","2026-09-24","2026-09-25","2026-10-01","2026-10-02"]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
--   p7 = "team"
--   monitored_cause = "tag:team"
SELECT
    anomaly,
    cause.1 AS cause_dimension,
    cause.2 AS cause_value,
    toString(toDecimal128(round(toDecimal128(sumIf(part, in_anomaly), 11), 10), 10)) AS actual,
    toString(toDecimal128(round(toDecimal128(sumIf(part * weight, NOT in_anomaly), 11), 10), 10)) AS baseline
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
            if(empty(resource_tags[{p6:String}]), {not_set:String}, resource_tags[{p6:String}]) AS value,
            account_id,
            service,
            region,
            usage_type,
            resource_tags,
            toDecimal256(sum(amortized_cost), 10) AS part
        FROM cost_insights.cost_line_items
        WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND ((usage_date >= {p3:Date}) AND (usage_date <= {p4:Date})) AND (cloud IN ({p5:Array(String)})) AND (charge_category NOT IN ({left_out_categories:Array(String)})) AND (usage_date IN ({window_days:Array(Date)})) AND (((value, usage_date) IN arrayZip({window_pair_values:Array(String)}, {window_pair_days:Array(Date)})) OR ((usage_date IN ({other_window_days:Array(Date)})) AND (NOT has({monitored_values:Array(String)}, value)))) AND (billing_currency = {currency:String})
        GROUP BY
            usage_date,
            value,
            account_id,
            service,
            region,
            usage_type,
            resource_tags
        UNION ALL
        SELECT
            usage_date,
            if(empty(resource_tags[{p7:String}]), {not_set:String}, resource_tags[{p7:String}]) AS value,
            account_id,
            service,
            region,
            usage_type,
            resource_tags,
            toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS part
        FROM cost_insights.cost_line_items
        WHERE (organization_id = {organization_id:UUID}) AND ((resource_tags[{p0:String}]) IN ({p1:Array(String)})) AND (NOT (cloud IN ({p2:Array(String)}))) AND ((usage_date >= {p3:Date}) AND (usage_date <= {p4:Date})) AND (cloud IN ({p5:Array(String)})) AND (charge_category NOT IN ({left_out_categories:Array(String)})) AND (usage_date IN ({window_days:Array(Date)})) AND (((value, usage_date) IN arrayZip({window_pair_values:Array(String)}, {window_pair_days:Array(Date)})) OR ((usage_date IN ({other_window_days:Array(Date)})) AND (NOT has({monitored_values:Array(String)}, value)))) AND (billing_currency != {currency:String})
        GROUP BY
            usage_date,
            value,
            account_id,
            service,
            region,
            usage_type,
            resource_tags,
            billing_currency,
            usage_date
    )
    ARRAY JOIN arrayFilter(i -> (if(({anomaly_is_other:Array(UInt8)}[i]) = 1, NOT has({monitored_values:Array(String)}, value), value = ({anomaly_values:Array(String)}[i])) AND (((usage_date >= ({anomaly_starts:Array(Date)}[i])) AND (usage_date <= ({anomaly_ends:Array(Date)}[i]))) OR ((usage_date >= ({anomaly_baseline_starts:Array(Date)}[i])) AND (usage_date < ({anomaly_starts:Array(Date)}[i])) AND ((({anomaly_weekday_days:Array(Array(UInt8))}[i])[toDayOfWeek(usage_date)]) > 0)))), range(1, 3)) AS anomaly
    ARRAY JOIN arrayFilter(cause -> (((cause.2) != '') AND ((({anomaly_is_other:Array(UInt8)}[anomaly]) = 1) OR ((cause.1) != {monitored_cause:String}))), arrayConcat([('account', account_id), ('service', service), ('region', region), ('usageType', usage_type)], arrayMap((key, value) -> (concat('tag:', key), value), mapKeys(resource_tags), mapValues(resource_tags)))) AS cause
)
GROUP BY
    anomaly,
    cause
ORDER BY
    anomaly ASC,
    cause_dimension ASC,
    cause_value ASC
SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'
