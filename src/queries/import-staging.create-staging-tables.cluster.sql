-- import-staging.create-staging-tables.cluster: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 9, sent by command to node s1r1
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b AS cost_insights.cost_line_items;

-- statement 2 of 9, sent by command to node s1r1
SYSTEM STOP MERGES cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 3 of 9, sent by command to node s1r2
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b AS cost_insights.cost_line_items;

-- statement 4 of 9, sent by command to node s1r2
SYSTEM STOP MERGES cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 5 of 9, sent by command to node s2r1
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b AS cost_insights.cost_line_items;

-- statement 6 of 9, sent by command to node s2r1
SYSTEM STOP MERGES cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 7 of 9, sent by command to node s2r2
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b AS cost_insights.cost_line_items;

-- statement 8 of 9, sent by command to node s2r2
SYSTEM STOP MERGES cost_insights.focus_import_mwvps5c0_7f3e2a1b;

-- statement 9 of 9, sent by command
CREATE TABLE cost_insights.focus_import_mwvps5c0_7f3e2a1b_distributed AS cost_insights.focus_import_mwvps5c0_7f3e2a1b
ENGINE = Distributed(cost_insights, cost_insights, focus_import_mwvps5c0_7f3e2a1b, ((cityHash64(organization_id, integration_id) % 65536) + (toUInt32OrZero(substring(billing_period, 1, 4)) * 12)) + toUInt32OrZero(substring(billing_period, 6, 2)));
