-- cost-partitions.delete-organization-costs.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 9, sent by query
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
SELECT toString(count()) AS rows
FROM cost_insights.cost_line_items_distributed
WHERE organization_id = {organization_id:UUID};

-- statement 2 of 9, sent by query to node s1r1
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
SELECT DISTINCT _partition_id AS partition_id
FROM cost_insights.cost_line_items
WHERE organization_id = {organization_id:UUID};

-- statement 3 of 9, sent by command to node s1r1
ALTER TABLE cost_insights.cost_line_items
    (DROP PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f');

-- statement 4 of 9, sent by query to node s1r2
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
SELECT DISTINCT _partition_id AS partition_id
FROM cost_insights.cost_line_items
WHERE organization_id = {organization_id:UUID};

-- statement 5 of 9, sent by command to node s1r2
ALTER TABLE cost_insights.cost_line_items
    (DROP PARTITION ID '5d1e0c3f8a2b4c6d9e7f0a1b2c3d4e5f');

-- statement 6 of 9, sent by query to node s2r1
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
SELECT DISTINCT _partition_id AS partition_id
FROM cost_insights.cost_line_items
WHERE organization_id = {organization_id:UUID};

-- statement 7 of 9, sent by command to node s2r1
ALTER TABLE cost_insights.cost_line_items
    (DROP PARTITION ID '6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a');

-- statement 8 of 9, sent by query to node s2r2
-- parameters:
--   organization_id = "3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d"
SELECT DISTINCT _partition_id AS partition_id
FROM cost_insights.cost_line_items
WHERE organization_id = {organization_id:UUID};

-- statement 9 of 9, sent by command to node s2r2
ALTER TABLE cost_insights.cost_line_items
    (DROP PARTITION ID '6e2f1d4a9b3c5d7e0f8a1b2c3d4e5f6a');
