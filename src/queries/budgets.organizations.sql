-- budgets.organizations: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
SELECT
    organization_id,
    concat(toString(count()), '/', toString(max(created_at))) AS versions
FROM cost_insights.budget_versions
GROUP BY organization_id;
