-- tag-keys.present-keys: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
SELECT
    kind,
    key,
    if(total = 0, 0, round(toFloat64(key_cost / total), 4)) AS cost_share,
    toString(distinct_values) AS distinct_values,
    toString(resources) AS resources
FROM
(
    SELECT
        kind,
        key,
        sum(day_cost) AS key_cost,
        uniqExactMerge(day_values) AS distinct_values,
        uniqExactMerge(day_resources) AS resources,
        any(window_total) AS total
    FROM
    (
        SELECT
            *,
            sumIf(day_cost, kind = '') OVER () AS window_total
        FROM
        (
            SELECT
                *,
                max(usage_date) OVER () AS last_day
            FROM
            (
                SELECT
                    usage_date,
                    entry.1 AS kind,
                    entry.2 AS key,
                    sum(cost) AS day_cost,
                    uniqExactState(entry.3) AS day_values,
                    uniqExactStateIf(resource, resource != '') AS day_resources
                FROM
                (
                    SELECT
                        usage_date,
                        amortized_cost AS cost,
                        resource_id AS resource,
                        arrayJoin(arrayConcat([tuple('', '', '')], arrayMap((k, v) -> tuple('tag', k, v), mapKeys(resource_tags), mapValues(resource_tags)), arrayMap((k, v) -> tuple('costCategory', k, v), mapKeys(cost_categories), mapValues(cost_categories)))) AS entry
                    FROM cost_insights.cost_line_items
                    WHERE organization_id = {organization_id:UUID}
                )
                GROUP BY
                    usage_date,
                    kind,
                    key
            )
        )
        WHERE usage_date > (last_day - 90)
    )
    WHERE kind != ''
    GROUP BY
        kind,
        key
)
ORDER BY
    kind DESC,
    cost_share DESC,
    key ASC
LIMIT 1000;
