-- cost-partitions.is-store-empty: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
SELECT
    (
        SELECT toUInt32(count())
        FROM cost_insights.api_keys
    ) AS keys,
    (
        SELECT toUInt32(count())
        FROM cost_insights.cost_line_items
    ) AS costs;
