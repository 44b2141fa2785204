-- activated-maps.activated-map-mismatches.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
--   tag_keys = ["team"]
--   category_keys = ["BusinessUnit"]
SELECT toString(count()) AS rows
FROM cost_insights.cost_line_items_distributed
WHERE (organization_id = {organization_id:UUID}) AND ((mapFilter((k, v) -> has({tag_keys:Array(String)}, k), activated_resource_tags) != mapFilter((k, v) -> has({tag_keys:Array(String)}, k), resource_tags)) OR (mapFilter((k, v) -> has({category_keys:Array(String)}, k), activated_cost_categories) != mapFilter((k, v) -> has({category_keys:Array(String)}, k), cost_categories)));
