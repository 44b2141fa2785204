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
SELECT
    multiIf(grouping(service) = 0, 'service', (grouping(commitment_discount_id) = 1) AND (grouping(type) = 0), 'program_type', (grouping(bucket) = 1) AND (grouping(commitment_discount_id) = 1), 'total', grouping(bucket) = 1, 'commitment', grouping(commitment_discount_id) = 1, 'total_bucket', 'commitment_bucket') AS kind,
    toString(bucket) AS bucket_date,
    commitment_discount_id,
    name,
    type,
    category,
    provider,
    billing_account_id,
    service,
    toUInt8(max(applied)) AS applied,
    toString(toDecimal128(round(toDecimal128(sumIf(amortized, status = 'used'), 11), 10), 10)) AS used_cost,
    toString(toDecimal128(round(toDecimal128(sumIf(amortized, status = 'unused'), 11), 10), 10)) AS unused_cost,
    toString(toDecimal128(round(toDecimal128(sumIf(on_demand, status = 'used'), 11), 10), 10)) AS on_demand_equivalent,
    toString(toDecimal128(round(toDecimal128(sumIf(on_demand, eligible AND (commitment_discount_id != '')), 11), 10), 10)) AS covered_list,
    toString(toDecimal128(round(toDecimal128(sumIf(on_demand, eligible), 11), 10), 10)) AS eligible_list,
    toString(sumIf(quantity, status = 'used')) AS used_quantity,
    toString(sumIf(quantity, status = 'unused')) AS unused_quantity,
    anyIf(unit, unit != '') AS unit
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
ORDER BY
    kind ASC,
    bucket ASC,
    commitment_discount_id ASC,
    name ASC,
    type ASC,
    category ASC,
    provider ASC,
    billing_account_id ASC,
    service ASC
SETTINGS preferred_optimize_projection_name = 'daily_commitment_sums'
