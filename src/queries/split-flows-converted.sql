-- split-flows-converted: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.
-- parameters:
--   p0 = ["2026-10-02"]
--   p1 = ["2026-10"]
--   p2 = ["EUR"]
--   p3 = ["Shared"]
--   p4 = ["data"]
--   p5 = ["10"]
--   p6 = 1
--   currency = "USD"
--   converted_codes = ["EUR"]
--   converted_bits = [1]
--   rate_keys = ["EUR|2026-10-01","EUR|2026-10-02"]
--   rate_indexes = [1,2]
--   rate_values = ["1.0823","1.085"]
SELECT
    source,
    target,
    toString(toDecimal128(round(toDecimal128(sum(part_cost), 11), 10), 10)) AS amount
FROM
(
    SELECT
        split_from AS source,
        split_to AS target,
        toDecimal256(sum(amortized_cost), 10) AS part_cost
    FROM
    (
        SELECT
            {p0:Array(Date)}[split_row] AS usage_date,
            {p1:Array(String)}[split_row] AS billing_period,
            {p2:Array(String)}[split_row] AS billing_currency,
            {p3:Array(String)}[split_row] AS split_from,
            {p4:Array(String)}[split_row] AS split_to,
            toDecimal128({p5:Array(String)}[split_row], 10) AS amortized_cost
        FROM
        (
            SELECT arrayJoin(range(1, {p6:UInt64} + 1)) AS split_row
        )
    )
    WHERE 1 AND (billing_currency = {currency:String})
    GROUP BY
        source,
        target
    UNION ALL
    SELECT
        split_from AS source,
        split_to AS target,
        toDecimal256(sum(amortized_cost), 10) * (arrayElement(arrayMap(rate -> toDecimal128(rate, 18), {rate_values:Array(String)}), transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) + throwIf(transform(concat(billing_currency, '|', toString(usage_date)), {rate_keys:Array(String)}, {rate_indexes:Array(UInt32)}, 0) = 0, 'CI_MISSING_EXCHANGE_RATE')) AS group_rate) AS part_cost
    FROM
    (
        SELECT
            {p0:Array(Date)}[split_row] AS usage_date,
            {p1:Array(String)}[split_row] AS billing_period,
            {p2:Array(String)}[split_row] AS billing_currency,
            {p3:Array(String)}[split_row] AS split_from,
            {p4:Array(String)}[split_row] AS split_to,
            toDecimal128({p5:Array(String)}[split_row], 10) AS amortized_cost
        FROM
        (
            SELECT arrayJoin(range(1, {p6:UInt64} + 1)) AS split_row
        )
    )
    WHERE 1 AND (billing_currency != {currency:String})
    GROUP BY
        source,
        target,
        billing_currency,
        usage_date
)
GROUP BY
    source,
    target
ORDER BY
    sum(part_cost) DESC,
    source ASC,
    target ASC
