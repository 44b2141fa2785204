-- import-staging.create-staging-tables.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 13, sent by command to node s1r1
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b AS cost_insights.cost_line_items;

-- statement 2 of 13, sent by command to node s1r2
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b AS cost_insights.cost_line_items;

-- statement 3 of 13, sent by command to node s2r1
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b AS cost_insights.cost_line_items;

-- statement 4 of 13, sent by command to node s2r2
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b AS cost_insights.cost_line_items;

-- statement 5 of 13, sent by query to node s1r1
-- parameters:
--   database = "cost_insights"
--   table = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.projections
WHERE (database = {database:String}) AND (`table` = {table:String})
ORDER BY name ASC;

-- statement 6 of 13, sent by query to node s1r2
-- parameters:
--   database = "cost_insights"
--   table = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.projections
WHERE (database = {database:String}) AND (`table` = {table:String})
ORDER BY name ASC;

-- statement 7 of 13, sent by query to node s2r1
-- parameters:
--   database = "cost_insights"
--   table = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.projections
WHERE (database = {database:String}) AND (`table` = {table:String})
ORDER BY name ASC;

-- statement 8 of 13, sent by query to node s2r2
-- parameters:
--   database = "cost_insights"
--   table = "focus_import_mwvps5c0_7f3e2a1b"
SELECT name
FROM system.projections
WHERE (database = {database:String}) AND (`table` = {table:String})
ORDER BY name ASC;

-- statement 9 of 13, sent by command to node s1r1
SYSTEM STOP MERGES cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 10 of 13, sent by command to node s1r2
SYSTEM STOP MERGES cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 11 of 13, sent by command to node s2r1
SYSTEM STOP MERGES cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 12 of 13, sent by command to node s2r2
SYSTEM STOP MERGES cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 13 of 13, sent by command
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b_distributed AS cost_insights.focus_import_mwvps5c0_7f3e2a1b
ENGINE = Distributed(cost_insights, cost_insights, focus_import_mwvps5c0_7f3e2a1b, ((cityHash64(organization_id, integration_id) % 65536) + (toUInt32OrZero(substring(billing_period, 1, 4)) * 12)) + toUInt32OrZero(substring(billing_period, 6, 2)));
