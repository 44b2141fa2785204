-- commitments-daily-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   p0 = "2026-10-01"
--   p1 = "2026-10-01"
--   p2 = ["AWS"]
--   p3 = ["Amazon EC2","Amazon RDS"]
--   p4 = ["Savings Plan","Reserved Instance"]
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
SELECT
    multiIf((grouping(bucket) = 1) AND (grouping(commitment_discount_id) = 1), 'total', grouping(bucket) = 1, 'commitment', grouping(commitment_discount_id) = 1, 'total_bucket', 'commitment_bucket') AS kind,
    toString(bucket) AS bucket_date,
    commitment_discount_id,
    name,
    type,
    category,
    provider,
    billing_account_id,
    toString(toDecimal128(round(toDecimal128(sum(part_used_cost), 11), 10), 10)) AS used_cost,
    toString(toDecimal128(round(toDecimal128(sum(part_unused_cost), 11), 10), 10)) AS unused_cost,
    toString(toDecimal128(round(toDecimal128(sum(part_on_demand_equivalent), 11), 10), 10)) AS on_demand_equivalent,
    toString(toDecimal128(round(toDecimal128(sum(part_covered_list), 11), 10), 10)) AS covered_list,
    toString(toDecimal128(round(toDecimal128(sum(part_eligible_list), 11), 10), 10)) AS eligible_list,
    toString(sum(part_used_quantity)) AS used_quantity,
    toString(sum(part_unused_quantity)) AS unused_quantity,
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
        toDecimal256(sum(if(lower(commitment_discount_status) = 'used', amortized, toDecimal128(0, 10))), 10) AS part_used_cost,
        toDecimal256(sum(if(lower(commitment_discount_status) = 'unused', amortized, toDecimal128(0, 10))), 10) AS part_unused_cost,
        toDecimal256(sum(if(lower(commitment_discount_status) = 'used', on_demand, toDecimal128(0, 10))), 10) AS part_on_demand_equivalent,
        toDecimal256(sum(if((charge_category = 'Usage') AND (lower(commitment_discount_status) != 'unused') AND if(commitment_program_eligibility != '', (commitment_discount_id != '') OR arrayExists(p -> (JSONExtractString(p, 'ProgramType') IN ({p4:Array(String)})), JSONExtractArrayRaw(commitment_program_eligibility, 'CommitmentPrograms')), (service IN ({p3:Array(String)}))) AND (commitment_discount_id != ''), on_demand, toDecimal128(0, 10))), 10) AS part_covered_list,
        toDecimal256(sum(if((charge_category = 'Usage') AND (lower(commitment_discount_status) != 'unused') AND if(commitment_program_eligibility != '', (commitment_discount_id != '') OR arrayExists(p -> (JSONExtractString(p, 'ProgramType') IN ({p4:Array(String)})), JSONExtractArrayRaw(commitment_program_eligibility, 'CommitmentPrograms')), (service IN ({p3:Array(String)}))), on_demand, toDecimal128(0, 10))), 10) AS part_eligible_list,
        sum(if(lower(commitment_discount_status) = 'used', quantity, toDecimal128(0, 10))) AS part_used_quantity,
        sum(if(lower(commitment_discount_status) = 'unused', quantity, toDecimal128(0, 10))) AS part_unused_quantity,
        commitment_discount_unit AS unit
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
            sum(amortized_cost) AS amortized,
            sum(on_demand_cost) AS on_demand,
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
    )
    GROUP BY
        bucket,
        commitment_discount_id,
        name,
        type,
        category,
        provider,
        billing_account_id,
        unit
    UNION ALL
    SELECT
        bucket,
        commitment_discount_id,
        commitment_discount_name AS name,
        commitment_discount_type AS type,
        commitment_discount_category AS category,
        cloud AS provider,
        billing_account_id,
        toDecimal256(sum(if(lower(commitment_discount_status) = 'used', amortized, toDecimal128(0, 10))), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS part_used_cost,
        toDecimal256(sum(if(lower(commitment_discount_status) = 'unused', amortized, toDecimal128(0, 10))), 10) * group_rate AS part_unused_cost,
        toDecimal256(sum(if(lower(commitment_discount_status) = 'used', on_demand, toDecimal128(0, 10))), 10) * group_rate AS part_on_demand_equivalent,
        toDecimal256(sum(if((charge_category = 'Usage') AND (lower(commitment_discount_status) != 'unused') AND if(commitment_program_eligibility != '', (commitment_discount_id != '') OR arrayExists(p -> (JSONExtractString(p, 'ProgramType') IN ({p4:Array(String)})), JSONExtractArrayRaw(commitment_program_eligibility, 'CommitmentPrograms')), (service IN ({p3:Array(String)}))) AND (commitment_discount_id != ''), on_demand, toDecimal128(0, 10))), 10) * group_rate AS part_covered_list,
        toDecimal256(sum(if((charge_category = 'Usage') AND (lower(commitment_discount_status) != 'unused') AND if(commitment_program_eligibility != '', (commitment_discount_id != '') OR arrayExists(p -> (JSONExtractString(p, 'ProgramType') IN ({p4:Array(String)})), JSONExtractArrayRaw(commitment_program_eligibility, 'CommitmentPrograms')), (service IN ({p3:Array(String)}))), on_demand, toDecimal128(0, 10))), 10) * group_rate AS part_eligible_list,
        sum(if(lower(commitment_discount_status) = 'used', quantity, toDecimal128(0, 10))) AS part_used_quantity,
        sum(if(lower(commitment_discount_status) = 'unused', quantity, toDecimal128(0, 10))) AS part_unused_quantity,
        commitment_discount_unit AS unit
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
            billing_currency,
            usage_date,
            sum(amortized_cost) AS amortized,
            sum(on_demand_cost) AS on_demand,
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
    GROUP BY
        bucket,
        commitment_discount_id,
        name,
        type,
        category,
        provider,
        billing_account_id,
        unit,
        billing_currency,
        usage_date
)
GROUP BY
    GROUPING SETS (
        (),
        (commitment_discount_id, name, type, category, provider, billing_account_id),
        (bucket),
        (bucket, commitment_discount_id, name, type, category, provider, billing_account_id))
ORDER BY
    kind ASC,
    bucket ASC,
    commitment_discount_id ASC,
    name ASC,
    type ASC,
    category ASC,
    provider ASC,
    billing_account_id ASC
SETTINGS preferred_optimize_projection_name = 'daily_commitment_sums'
