-- commitments-daily-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "2026-10-01"
--   p1 = "2026-10-01"
--   p2 = ["AWS"]
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
--   p3 = ["Amazon EC2","Amazon RDS"]
SELECT if(of_commitment, concat(',{', concat('"commitment_discount_id":', toJSONString(commitment_discount_id), ',"name":', toJSONString(name), ',"type":', toJSONString(type), ',"category":', toJSONString(category), ',"provider":', toJSONString(provider), ',"billing_account_id":', toJSONString(billing_account_id)), ',', anyIf(figures, kind = 'commitment'), anyIf(quantities, kind = 'commitment'), concat(',"series":[', arrayStringConcat(arrayMap(b -> (b.2), arraySort(groupArrayIf((bucket_start, concat('{"date":"', toString(bucket_start), '",', figures, '}')), kind = 'commitment_bucket'))), ','), ']'), '}'), concat('{', concat('"kind":', toJSONString(head_kind), ',"bucket_date":', toJSONString(toString(head_bucket)), ',"service":', toJSONString(service), ',"type":', toJSONString(type), ',"applied":', toString(any(group_applied)), ',', any(figures)), '}')) AS line
FROM
(
    SELECT
        *,
        kind IN ('commitment', 'commitment_bucket') AS of_commitment,
        if(of_commitment, '', kind) AS head_kind,
        if(of_commitment, toDate(0), bucket_start) AS head_bucket
    FROM
    (
        SELECT
            kind,
            bucket_start,
            commitment_discount_id,
            name,
            type,
            category,
            provider,
            billing_account_id,
            service,
            group_applied,
            sum_used + sum_unused AS cost,
            concat('"used_cost":', toString(sum_used), ',"unused_cost":', toString(sum_unused), ',"utilization":', toString(if((sum_used + sum_unused) = 0, toDecimal256(0, 10), round(toDecimal256(sum_used, 10) / toDecimal256(if((sum_used + sum_unused) = 0, 1, sum_used + sum_unused), 10), 6))), ',"coverage":', if((kind IN ('total', 'total_bucket')), toString(if(sum_eligible = 0, toDecimal256(0, 10), round(toDecimal256(sum_covered, 10) / toDecimal256(if(sum_eligible = 0, 1, sum_eligible), 10), 6))), 'null'), ',"on_demand_equivalent":', toString(sum_on_demand), ',"savings":', toString((sum_on_demand - sum_used) - sum_unused), ',"effective_savings_rate":', toString(if(sum_on_demand = 0, toDecimal256(0, 10), round(toDecimal256((sum_on_demand - sum_used) - sum_unused, 10) / toDecimal256(if(sum_on_demand = 0, 1, sum_on_demand), 10), 6)))) AS figures,
            if((lower(category) = 'usage') AND (group_unit != ''), concat(',"quantities":', concat('{', concat('"unit":', toJSONString(group_unit), ',"used":', toString(sum_used_quantity), ',"unused":', toString(sum_unused_quantity), ',"utilization":', toString(if((sum_used_quantity + sum_unused_quantity) = 0, toDecimal256(0, 10), round(toDecimal256(sum_used_quantity, 10) / toDecimal256(if((sum_used_quantity + sum_unused_quantity) = 0, 1, sum_used_quantity + sum_unused_quantity), 10), 6)))), '}')), '') AS quantities
        FROM
        (
            SELECT
                multiIf(grouping(service) = 0, 'service', (grouping(commitment_discount_id) = 1) AND (grouping(type) = 0), 'program_type', (grouping(bucket) = 1) AND (grouping(commitment_discount_id) = 1), 'total', grouping(bucket) = 1, 'commitment', grouping(commitment_discount_id) = 1, 'total_bucket', 'commitment_bucket') AS kind,
                bucket AS bucket_start,
                commitment_discount_id,
                name,
                type,
                category,
                provider,
                billing_account_id,
                service,
                toUInt8(max(applied)) AS group_applied,
                toDecimal128(round(toDecimal128(sumIf(amortized, status = 'used'), 11), 10), 10) AS sum_used,
                toDecimal128(round(toDecimal128(sumIf(amortized, status = 'unused'), 11), 10), 10) AS sum_unused,
                toDecimal128(round(toDecimal128(sumIf(on_demand, status = 'used'), 11), 10), 10) AS sum_on_demand,
                toDecimal128(round(toDecimal128(sumIf(on_demand, eligible AND (commitment_discount_id != '')), 11), 10), 10) AS sum_covered,
                toDecimal128(round(toDecimal128(sumIf(on_demand, eligible), 11), 10), 10) AS sum_eligible,
                sumIf(quantity, status = 'used') AS sum_used_quantity,
                sumIf(quantity, status = 'unused') AS sum_unused_quantity,
                anyIf(unit, unit != '') AS group_unit
            FROM
            (
                SELECT
                    bucket,
                    commitment_discount_id,
                    commitment_discount_name AS name,
                    commitment_discount_type AS type,
                    commitment_discount_category AS category,
                    cloud AS provider,
                    billing_account_id,
                    service,
                    commitment_discount_unit AS unit,
                    amortized,
                    on_demand,
                    quantity,
                    lower(commitment_discount_status) AS status,
                    (commitment_discount_id != '') AND (charge_category = 'Usage') AND (status = 'used') AS applied,
                    groupUniqArrayIf(type, applied AND (type != '')) OVER () AS applied_types,
                    (charge_category = 'Usage') AND (status != 'unused') AND if(commitment_program_eligibility != '', (commitment_discount_id != '') OR arrayExists(p -> has(applied_types, JSONExtractString(p, 'ProgramType')), JSONExtractArrayRaw(commitment_program_eligibility, 'CommitmentPrograms')), (service IN ({p3:Array(String)}))) AS eligible
                FROM
                (
                    SELECT
                        usage_date AS bucket,
                        commitment_discount_id,
                        commitment_discount_name,
                        commitment_discount_type,
                        commitment_discount_category,
                        commitment_discount_status,
                        commitment_discount_unit,
                        commitment_program_eligibility,
                        charge_category,
                        service,
                        cloud,
                        billing_account_id,
                        toDecimal256(sum(amortized_cost), 10) AS amortized,
                        toDecimal256(sum(on_demand_cost), 10) AS on_demand,
                        sum(commitment_discount_quantity) AS quantity
                    FROM cost_insights.cost_line_items
                    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date})) AND (cloud IN ({p2:Array(String)})) AND (billing_currency = {currency:String}) AND ((commitment_discount_id != '') OR (charge_category = 'Usage'))
                    GROUP BY
                        bucket,
                        commitment_discount_id,
                        commitment_discount_name,
                        commitment_discount_type,
                        commitment_discount_category,
                        commitment_discount_status,
                        commitment_discount_unit,
                        commitment_program_eligibility,
                        charge_category,
                        service,
                        cloud,
                        billing_account_id
                    UNION ALL
                    SELECT
                        usage_date AS bucket,
                        commitment_discount_id,
                        commitment_discount_name,
                        commitment_discount_type,
                        commitment_discount_category,
                        commitment_discount_status,
                        commitment_discount_unit,
                        commitment_program_eligibility,
                        charge_category,
                        service,
                        cloud,
                        billing_account_id,
                        toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS amortized,
                        toDecimal256(sum(on_demand_cost), 10) * group_rate AS on_demand,
                        sum(commitment_discount_quantity) AS quantity
                    FROM cost_insights.cost_line_items
                    WHERE (organization_id = {organization_id:UUID}) AND ((toStartOfMonth(usage_date) >= {p0:Date}) AND (toStartOfMonth(usage_date) <= {p1:Date})) AND (cloud IN ({p2:Array(String)})) AND (billing_currency != {currency:String}) AND ((commitment_discount_id != '') OR (charge_category = 'Usage'))
                    GROUP BY
                        bucket,
                        commitment_discount_id,
                        commitment_discount_name,
                        commitment_discount_type,
                        commitment_discount_category,
                        commitment_discount_status,
                        commitment_discount_unit,
                        commitment_program_eligibility,
                        charge_category,
                        service,
                        cloud,
                        billing_account_id,
                        billing_currency,
                        usage_date
                )
            )
            GROUP BY
                GROUPING SETS (
                    (),
                    (commitment_discount_id, name, type, category, provider, billing_account_id),
                    (bucket),
                    (bucket, commitment_discount_id, name, type, category, provider, billing_account_id),
                    (service),
                    (type))
        )
    )
    WHERE NOT (of_commitment AND (commitment_discount_id = ''))
)
GROUP BY
    of_commitment,
    head_kind,
    head_bucket,
    commitment_discount_id,
    name,
    type,
    category,
    provider,
    billing_account_id,
    service
ORDER BY
    of_commitment ASC,
    head_kind ASC,
    head_bucket ASC,
    if(of_commitment, '', type) ASC,
    service ASC,
    anyIf(cost, kind = 'commitment') DESC,
    commitment_discount_id ASC,
    name ASC,
    type ASC,
    category ASC,
    provider ASC,
    billing_account_id ASC
SETTINGS preferred_optimize_projection_name = 'daily_commitment_sums'
