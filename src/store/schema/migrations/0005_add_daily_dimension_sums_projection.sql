-- Pre-aggregation the engine uses by itself: an aggregate projection holding, per part, the sums of the
-- ten money columns by organisation, day and every column dimension (the 11 groupable columns, plus
-- account_name which /filters reads next to account_id). A query that groups and filters only on these
-- columns and sums money (/data and /compare without tag or cost-category conditions, most /filters
-- branches) is answered from the projection, which is as many times smaller as there are line items per
-- resource and day (hourly usage, resources): ClickHouse picks it when it reads fewer marks, and falls
-- back to the raw rows otherwise (tags, cost categories, argMax of names). Answers are identical: the
-- sums are exact Decimal sums either way (test/e2e/projection-equivalence.e2e-spec.ts).
--
-- Projection parts are written with every insert and merge and travel with their parts, so the
-- importer's staging table (CREATE TABLE … AS cost_line_items copies the projection) keeps REPLACE
-- PARTITION possible. MATERIALIZE builds it for parts written before this migration; safe to re-run.
ALTER TABLE {{database}}.cost_line_items ADD PROJECTION IF NOT EXISTS daily_dimension_sums
(
    SELECT
        organization_id, usage_date, billing_period, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id,
        sum(amortized_cost), sum(billed_cost), sum(cash_cost), sum(on_demand_cost),
        sum(enterprise_discount_savings), sum(product_discount_savings), sum(partner_discount_savings),
        sum(commitment_savings), sum(spot_savings), sum(other_savings), count()
    GROUP BY
        organization_id, usage_date, billing_period, cost_layer, cloud, service, resource_family, region,
        instance_type, usage_type, cost_type, account_id, account_name, integration_id
);

ALTER TABLE {{database}}.cost_line_items MATERIALIZE PROJECTION daily_dimension_sums
SETTINGS mutations_sync = 1;
